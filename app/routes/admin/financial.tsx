import { Banknote, Search } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { requireAdmin } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { listPayments, PaymentError, recordCashPayment, refundPayment } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectWithToast } from "~/.server/toast";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { formatFcfa, plural } from "~/lib/format";
import { paymentMethodLabels, paymentStatusLabels, paymentStatusTones, type PaymentStatus } from "~/lib/payments";
import type { Route } from "./+types/financial";

const statusFilters = ["all", "completed", "pending", "failed", "refunded"] as const;
const filtersSchema = z.object({
  q: z.string().trim().max(100).catch(""),
  statut: z.enum(statusFilters).catch("all"),
});

const dateTime = new Intl.DateTimeFormat("fr-FR", { dateStyle: "medium", timeStyle: "short", timeZone: "Africa/Bamako" });

function filtersOf(url: URL) {
  return filtersSchema.parse({ q: url.searchParams.get("q") ?? "", statut: url.searchParams.get("statut") ?? "all" });
}

export async function loader(args: Route.LoaderArgs) {
  const admin = await requireAdmin(args);
  const db = args.context.get(dbContext);
  const filters = filtersOf(new URL(args.request.url));
  const [rows, pendingCash] = await Promise.all([
    listPayments(db, admin, { q: filters.q, status: filters.statut }),
    listPayments(db, admin, { q: filters.q, status: "pending", method: "cash" }),
  ]);
  const view = (row: (typeof rows)[number]) => ({
    reference: row.reference,
    courseTitle: row.courseTitle,
    learner: `${row.userFirstName} ${row.userLastName}`.trim() || row.userEmail,
    email: row.userEmail,
    amount: row.amount,
    method: row.method,
    status: row.status,
    date: dateTime.format(row.refundedAt ?? row.completedAt ?? row.createdAt),
  });
  return { filters, transactions: rows.map(view), pendingCash: pendingCash.map(view) };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("record-cash"), reference: z.string().trim().min(1).max(40), receiptNumber: z.string().max(100) }),
  z.object({ intent: z.literal("refund"), reference: z.string().trim().min(1).max(40), reason: z.string().max(1000) }),
]);

export async function action(args: Route.ActionArgs) {
  const admin = await requireAdmin(args);
  const url = args.url;
  const back = `${url.pathname}${url.search}`;
  const parsed = actionSchema.safeParse(Object.fromEntries(await args.request.formData()));
  if (!parsed.success) return data({ reference: null, error: "La demande est incomplète." }, { status: 400 });
  const db = args.context.get(dbContext);
  try {
    if (parsed.data.intent === "record-cash") {
      await recordCashPayment(db, args.context.get(paymentsContext), admin, parsed.data.reference, parsed.data.receiptNumber);
      return redirectWithToast(back, { type: "success", title: "Paiement enregistré", description: `Le paiement ${parsed.data.reference} est reçu : la formation de l'apprenant est ouverte.` }, { status: 303 });
    }
    await refundPayment(db, admin, parsed.data.reference, parsed.data.reason);
    return redirectWithToast(back, { type: "success", title: "Remboursement enregistré", description: `Le paiement ${parsed.data.reference} est remboursé.` }, { status: 303 });
  } catch (error) {
    if (error instanceof PaymentError) return data({ reference: parsed.data.reference, error: error.message }, { status: 400 });
    throw error;
  }
}

export const meta = () => [{ title: "Gestion Financière · Administration" }];

function StatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge tone={paymentStatusTones[status]} className="whitespace-nowrap">
      {paymentStatusLabels[status]}
    </Badge>
  );
}

/** "Gestion Financière", Transactions: every payment, cash to confirm at the counter, refunds. */
export default function FinancialPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, transactions, pendingCash } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string, reference: string) => navigation.formData?.get("intent") === intent && navigation.formData?.get("reference") === reference;
  const errorFor = (reference: string) => (actionData?.reference === reference ? actionData.error : null);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Gestion Financière</h1>
        <p className="mt-1 text-slate-600">Les paiements des formations : en ligne, en espèces à l'institut, et les remboursements.</p>
      </div>
      {actionData?.error && !actionData.reference ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {actionData.error}
        </p>
      ) : null}

      <Form method="get" role="search" aria-label="Rechercher des transactions" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-end" key={`${filters.q}|${filters.statut}`}>
        <div className="flex-1">
          <label htmlFor="finance-q" className="mb-1 block text-sm font-medium text-slate-800">
            Rechercher
          </label>
          <Input id="finance-q" type="search" name="q" defaultValue={filters.q} placeholder="Formation, e-mail, nom ou référence" maxLength={100} />
        </div>
        <div className="sm:w-48">
          <label htmlFor="finance-statut" className="mb-1 block text-sm font-medium text-slate-800">
            Statut
          </label>
          <Select
            id="finance-statut"
            name="statut"
            defaultValue={filters.statut}
            options={statusFilters.map((value) => ({ value, label: value === "all" ? "Tous les statuts" : paymentStatusLabels[value] }))}
          />
        </div>
        <button type="submit" className={buttonClasses()}>
          <Search aria-hidden="true" className="size-4" />
          Filtrer
        </button>
        {filters.q || filters.statut !== "all" ? (
          <Link to="/admin/financial" className={buttonClasses({ variant: "ghost" })}>
            Effacer
          </Link>
        ) : null}
      </Form>

      <Card aria-labelledby="especes">
        <CardHeader>
          <CardTitle id="especes" className="flex items-center gap-2">
            <Banknote aria-hidden="true" className="size-5 text-brand-700" />
            Paiements en espèces à confirmer
          </CardTitle>
          <p className="text-sm text-slate-600">Quand un apprenant paie à l'accueil : retrouvez sa référence ou son nom, saisissez le numéro du reçu remis, enregistrez.</p>
        </CardHeader>
        <CardContent>
          {pendingCash.length === 0 ? (
            <p className="text-sm text-slate-600">Aucun paiement en espèces en attente{filters.q ? " pour cette recherche" : ""}.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {pendingCash.map((payment) => {
                const fieldId = `recu-${payment.reference}`;
                const error = errorFor(payment.reference);
                return (
                  <li key={payment.reference} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 lg:flex-row lg:items-end">
                    <div className="min-w-0 flex-1">
                      <p className="font-mono font-bold text-slate-900">{payment.reference}</p>
                      <p className="text-sm text-slate-700">
                        {payment.learner} ({payment.email}) · {payment.courseTitle}
                      </p>
                      <p className="text-sm text-slate-600">
                        {formatFcfa(payment.amount)} · ouvert le {payment.date}
                      </p>
                    </div>
                    <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                      <input type="hidden" name="intent" value="record-cash" />
                      <input type="hidden" name="reference" value={payment.reference} />
                      <div>
                        <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-slate-800">
                          N° du reçu remis
                        </label>
                        <Input id={fieldId} name="receiptNumber" maxLength={50} aria-invalid={error ? true : undefined} aria-describedby={error ? `${fieldId}-erreur` : undefined} />
                        {error ? (
                          <p id={`${fieldId}-erreur`} className="mt-1 text-sm font-medium text-red-700">
                            {error}
                          </p>
                        ) : null}
                      </div>
                      <button type="submit" className={buttonClasses()} disabled={busy("record-cash", payment.reference)}>
                        {busy("record-cash", payment.reference) ? "Enregistrement..." : "Enregistrer le paiement"}
                      </button>
                    </Form>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card aria-labelledby="transactions">
        <CardHeader>
          <CardTitle id="transactions">Transactions</CardTitle>
          <p className="text-sm text-slate-600" role="status">
            {plural(transactions.length, "transaction", "transactions")}
          </p>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {transactions.length === 0 ? (
            <p className="text-sm text-slate-600">Aucune transaction ne correspond à ces critères.</p>
          ) : (
            <table className="w-full min-w-[48rem] text-left text-sm">
              <caption className="sr-only">Transactions, des plus récentes aux plus anciennes</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Type</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Formation</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Utilisateur</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Montant</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Date</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Statut</th>
                  <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {transactions.map((payment) => {
                  const refund = payment.status === "refunded";
                  const error = errorFor(payment.reference);
                  return (
                    <tr key={payment.reference} className="align-top">
                      <td className="py-3 pr-3">
                        <span className="font-medium text-slate-900">{refund ? "Remboursement" : "Inscription"}</span>
                        <span className="block text-xs text-slate-600">
                          {paymentMethodLabels[payment.method]} · {payment.reference}
                        </span>
                      </td>
                      <td className="py-3 pr-3 text-slate-900">{payment.courseTitle}</td>
                      <td className="py-3 pr-3">
                        <span className="text-slate-900">{payment.learner}</span>
                        <span className="block text-xs text-slate-600">{payment.email}</span>
                      </td>
                      <td className={`py-3 pr-3 text-right font-semibold whitespace-nowrap tabular-nums ${refund ? "text-red-700" : payment.status === "completed" ? "text-emerald-800" : "text-slate-700"}`}>
                        {refund ? "−" : "+"}
                        {formatFcfa(payment.amount)}
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-700">{payment.date}</td>
                      <td className="py-3 pr-3">
                        <StatusBadge status={payment.status} />
                      </td>
                      <td className="py-3">
                        {payment.status === "completed" ? (
                          <details open={Boolean(error)}>
                            <summary className="cursor-pointer text-sm font-medium text-brand-700">Rembourser</summary>
                            <Form method="post" className="mt-2 w-64 space-y-2">
                              <input type="hidden" name="intent" value="refund" />
                              <input type="hidden" name="reference" value={payment.reference} />
                              <label htmlFor={`motif-${payment.reference}`} className="block text-sm font-medium text-slate-800">
                                Motif du remboursement
                              </label>
                              <Input id={`motif-${payment.reference}`} name="reason" maxLength={500} aria-invalid={error ? true : undefined} />
                              {error ? <p className="text-sm font-medium text-red-700">{error}</p> : null}
                              <button type="submit" className={buttonClasses({ variant: "outline", size: "sm" })} disabled={busy("refund", payment.reference)}>
                                Enregistrer le remboursement
                              </button>
                            </Form>
                          </details>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
