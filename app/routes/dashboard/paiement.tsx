import { Download } from "~/components/icons";
import { Form, isRouteErrorResponse, Link, useNavigation, href } from "react-router";
import { getInstitute } from "~/.server/catalogue";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { confirmOnlinePayment, getPaymentForViewer } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectWithToast } from "~/.server/toast";
import { Badge } from "~/components/ui/badge";
import { redirectAfterConfirmation } from "../payments/confirmation.server";
import { buttonClasses } from "~/components/ui/button";
import { formatFcfa } from "~/lib/format";
import { PAYMENT_EXPIRY_MS, paymentMethodLabels, paymentStatusLabels, paymentStatusTones } from "~/lib/payments";
import type { Route } from "./+types/paiement";
import { formatDateTime } from "~/lib/dates";

async function viewedPayment(args: Route.LoaderArgs | Route.ActionArgs) {
  const user = args.context.get(userContext);
  return { user, payment: await orHttpError(getPaymentForViewer(args.context.get(dbContext), user, args.params.reference)) };
}

export async function loader(args: Route.LoaderArgs) {
  const { user, payment } = await viewedPayment(args);
  const institute = await getInstitute(args.context.get(dbContext));
  return {
    payment: {
      reference: payment.reference,
      status: payment.status,
      method: payment.method,
      methodDetail: payment.methodDetail,
      amount: payment.amount,
      courseTitle: payment.courseTitle,
      courseSlug: payment.courseSlug,
      failureReason: payment.failureReason,
      checkoutUrl: payment.status === "pending" ? payment.checkoutUrl : null,
      refundReason: payment.refundReason,
      receiptNumber: payment.receiptNumber,
      openedAt: formatDateTime(payment.createdAt),
      validUntil: formatDateTime(new Date(payment.createdAt.getTime() + PAYMENT_EXPIRY_MS)),
      settledAt: payment.completedAt ? formatDateTime(payment.completedAt) : null,
      refundedAt: payment.refundedAt ? formatDateTime(payment.refundedAt) : null,
      // An administrator may read a learner's payment; only the learner is offered the course.
      courseLink:
        payment.userId !== user.id ? null : (payment.courseProgress ?? 0) > 0 ? "Continuer la formation" : "Commencer la formation",
    },
    office: { address: institute.address, openingHours: institute.openingHours, phone: institute.phones[0] ?? "" },
  };
}

/** "Vérifier à nouveau": asks the provider again about a pending online payment. */
export async function action(args: Route.ActionArgs) {
  const { payment } = await viewedPayment(args);
  const back = `/dashboard/paiements/${payment.reference}`;
  if (payment.method === "cash" || payment.status !== "pending")
    return redirectWithToast(
      back,
      { type: "error", title: "Rien à vérifier", description: "Ce paiement n'attend pas de confirmation en ligne." },
      { status: 303 },
    );
  const outcome = await confirmOnlinePayment(
    args.context.get(dbContext),
    args.context.get(paymentsContext),
    null,
    payment.reference,
    "return",
  );
  return redirectAfterConfirmation(outcome, { sayPending: true });
}

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `Paiement ${loaderData.payment.reference}` : "Paiement introuvable" },
];

export default function PaymentPage({ loaderData }: Route.ComponentProps) {
  const { payment, office } = loaderData;
  const navigation = useNavigation();
  const checking = navigation.state !== "idle" && navigation.formMethod === "POST";
  const paid = payment.status === "completed";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-slate-600">
            <Link to="/dashboard/paiements" className="font-medium text-brand-700 hover:underline">
              Mes paiements
            </Link>
          </p>
          <h1 className="mt-1 text-2xl font-bold text-slate-900">{payment.courseTitle}</h1>
        </div>
        <Badge tone={paymentStatusTones[payment.status]} className="text-sm">
          {paymentStatusLabels[payment.status]}
        </Badge>
      </div>

      {payment.status === "pending" && payment.method === "cash" ? (
        <section aria-labelledby="a-faire" className="rounded-xl border-2 border-brand-700 bg-white p-5 sm:p-6">
          <h2 id="a-faire" className="text-lg font-bold text-slate-900">
            Réglez votre formation à l'institut
          </h2>
          <p className="mt-2 text-slate-700">
            Présentez-vous à l'accueil avec cette référence et réglez le montant en espèces. Votre formation s'ouvre dès que le paiement est
            enregistré.
          </p>
          <p className="mt-4 text-sm text-slate-600">Référence de paiement</p>
          <p className="font-mono text-3xl font-extrabold tracking-wider text-brand-800">{payment.reference}</p>
          <p className="mt-3 text-2xl font-bold text-slate-900">{formatFcfa(payment.amount)}</p>
          <dl className="mt-4 space-y-2 text-sm text-slate-700">
            <div>
              <dt className="font-semibold text-slate-900">Adresse</dt>
              <dd>{office.address}</dd>
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Horaires</dt>
              {office.openingHours.map((line) => (
                <dd key={line.days}>
                  {line.days} : {line.hours}
                </dd>
              ))}
            </div>
            <div>
              <dt className="font-semibold text-slate-900">Téléphone</dt>
              <dd>{office.phone}</dd>
            </div>
          </dl>
          <p className="mt-4 text-sm text-slate-600">
            Référence valable jusqu'au {payment.validUntil}. Ces informations vous ont aussi été envoyées par e-mail.
          </p>
        </section>
      ) : null}

      {payment.status === "pending" && payment.method !== "cash" ? (
        <section aria-labelledby="en-attente" className="rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950">
          <h2 id="en-attente" className="font-bold">
            Paiement en attente de confirmation
          </h2>
          <p className="mt-1 text-sm">
            L'opérateur n'a pas encore confirmé ce paiement. Si vous avez validé le paiement sur votre téléphone, vérifiez à nouveau dans un
            instant.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {payment.checkoutUrl ? (
              <a href={payment.checkoutUrl} className={buttonClasses({ size: "sm" })}>
                Continuer le paiement
              </a>
            ) : null}
            <Form method="post">
              <button type="submit" className={buttonClasses({ size: "sm" })} disabled={checking}>
                {checking ? "Vérification..." : "Vérifier à nouveau"}
              </button>
            </Form>
            <Link
              to={href("/formations/:slug/inscription", { slug: payment.courseSlug })}
              className={buttonClasses({ variant: "outline", size: "sm" })}
            >
              Payer autrement
            </Link>
          </div>
        </section>
      ) : null}

      {payment.status === "to_reconcile" ? (
        <section aria-labelledby="a-verifier" className="rounded-xl border border-blue-300 bg-blue-50 p-5 text-blue-950">
          <h2 id="a-verifier" className="font-bold">
            Paiement reçu, en cours de vérification
          </h2>
          <p className="mt-1 text-sm">
            L'opérateur confirme ce paiement, arrivé après son expiration ou après un autre paiement de la même formation. L'institut le
            vérifie : il rouvre votre formation ou vous rembourse. Vous n'avez rien à refaire.
          </p>
        </section>
      ) : null}

      {payment.status === "failed" ? (
        <section aria-labelledby="echec" className="rounded-xl border border-red-300 bg-red-50 p-5 text-red-950">
          <h2 id="echec" className="font-bold">
            Ce paiement n'a pas abouti
          </h2>
          {payment.failureReason ? <p className="mt-1 text-sm">{payment.failureReason}</p> : null}
          <Link
            to={href("/formations/:slug/inscription", { slug: payment.courseSlug })}
            className={buttonClasses({ size: "sm", className: "mt-3" })}
          >
            Recommencer le paiement
          </Link>
        </section>
      ) : null}

      <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white text-sm">
        {[
          ["Référence", payment.reference],
          ["Montant", formatFcfa(payment.amount)],
          ["Moyen de paiement", `${paymentMethodLabels[payment.method]}${payment.methodDetail ? ` (${payment.methodDetail})` : ""}`],
          ["Ouvert le", payment.openedAt],
          ...(payment.settledAt ? [["Payé le", payment.settledAt]] : []),
          ...(payment.receiptNumber ? [["Reçu papier n°", payment.receiptNumber]] : []),
          ...(payment.refundedAt ? [["Remboursé le", payment.refundedAt]] : []),
          ...(payment.refundReason ? [["Motif du remboursement", payment.refundReason]] : []),
        ].map(([label, value]) => (
          <div key={label} className="flex flex-wrap justify-between gap-x-4 gap-y-1 px-4 py-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>

      {paid || payment.status === "refunded" ? (
        <div className="flex flex-wrap gap-2">
          <a
            href={href("/dashboard/paiements/:reference/recu.pdf", { reference: payment.reference })}
            className={buttonClasses({ variant: "outline" })}
          >
            <Download aria-hidden="true" className="size-4" />
            Télécharger le reçu (PDF)
          </a>
          {paid && payment.courseLink ? (
            <Link to={href("/dashboard/formations/:slug", { slug: payment.courseSlug })} className={buttonClasses()}>
              {payment.courseLink}
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold text-slate-900">{notFound ? "Paiement introuvable" : "Erreur"}</h1>
      <p className="mt-1 text-slate-700">
        {notFound ? "Ce paiement n'existe pas ou ne vous concerne pas." : "Impossible d'afficher ce paiement. Réessayez dans un instant."}
      </p>
      <Link to="/dashboard/paiements" className={buttonClasses({ variant: "outline", size: "sm", className: "mt-3" })}>
        Mes paiements
      </Link>
    </div>
  );
}
