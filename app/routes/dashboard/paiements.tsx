import { Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { listLearnerPayments } from "~/.server/payments";
import { Badge } from "~/components/ui/badge";
import { formatFcfa } from "~/lib/format";
import { paymentMethodLabels, paymentStatusLabels, paymentStatusTones } from "~/lib/payments";
import type { Route } from "./+types/paiements";
import { formatDate } from "~/lib/dates";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const rows = await listLearnerPayments(args.context.get(dbContext), user);
  return {
    payments: rows.map((row) => ({
      reference: row.reference,
      courseTitle: row.courseTitle,
      amount: row.amount,
      method: row.method,
      status: row.status,
      date: formatDate(row.completedAt ?? row.createdAt),
    })),
  };
}

export const handle = { hydrate: false };

export const meta = () => [{ title: "Mes paiements" }];

/** The learner's payments and receipts, newest first. */
export default function MyPaymentsPage({ loaderData }: Route.ComponentProps) {
  const { payments } = loaderData;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Mes paiements</h1>
        <p className="mt-1 text-slate-600">Vos paiements de formations, leurs références et leurs reçus.</p>
      </div>
      {payments.length === 0 ? (
        <div className="rounded-lg border border-slate-200 bg-white p-6 text-center">
          <p className="font-semibold text-slate-900">Aucun paiement pour l'instant.</p>
          <Link
            to="/dashboard/formations?onglet=disponibles"
            className="mt-2 inline-block font-medium text-brand-700 underline underline-offset-2"
          >
            Voir les formations disponibles
          </Link>
        </div>
      ) : (
        <ul className="space-y-3">
          {payments.map((payment) => (
            <li key={payment.reference}>
              <Link
                to={href("/dashboard/paiements/:reference", { reference: payment.reference })}
                className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600"
              >
                <span className="min-w-0 flex-1 max-sm:basis-full">
                  <span className="block font-semibold text-slate-900">{payment.courseTitle}</span>
                  <span className="block text-sm text-slate-600">
                    <span className="whitespace-nowrap">{payment.reference}</span> · {paymentMethodLabels[payment.method]} · {payment.date}
                  </span>
                </span>
                <span className="font-bold text-slate-900">{formatFcfa(payment.amount)}</span>
                <Badge tone={paymentStatusTones[payment.status]}>{paymentStatusLabels[payment.status]}</Badge>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
