import { Banknote } from "~/components/icons";
import { Form, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { formatShortDate, formatTime } from "~/lib/dates";
import { formatFcfa, plural } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { paymentMethodLabels, paymentStatusLabels, paymentStatusTones, type PaymentStatus } from "~/lib/payments";
import { statusFilters, statusWords, useRowState, type FinanceView } from "./shared";
import type { Refund, TransactionsPanel } from "./transactions.server";

/** « Transactions » of « Gestion financière »: the refund's confirmation and the tab's panel. */

function StatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge tone={paymentStatusTones[status]} className="whitespace-nowrap">
      {paymentStatusLabels[status]}
    </Badge>
  );
}

export function RefundConfirmation({ refund, here, actionData }: { refund: Refund; here: string; actionData: unknown }) {
  const { busy, failure, errorFor } = useRowState(actionData);
  return (
    <Card className="border-red-200" aria-labelledby="confirmer-remboursement">
      <CardHeader>
        <CardTitle id="confirmer-remboursement">Confirmer le remboursement</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {refund.status !== "completed" ? (
          <p className="text-slate-700">
            Ce paiement n'est pas (ou plus) remboursable : son statut est « {paymentStatusLabels[refund.status]} ».
          </p>
        ) : (
          <>
            <p className="text-slate-700">
              Vous allez rembourser <strong>{formatFcfa(refund.amount)}</strong> à {refund.learner} ({refund.email}) pour «{" "}
              {refund.courseTitle} » (paiement {refund.reference}, {paymentMethodLabels[refund.method]}, {refund.date}). Son accès à la
              formation sera fermé, la personne inscrite sera prévenue par e-mail et dans ses notifications, et la commission de
              l'enseignant sera diminuée d'autant.
            </p>
            <Form method="post" action={here} className="space-y-3">
              <input type="hidden" name="intent" value="refund" />
              <input type="hidden" name="reference" value={refund.reference} />
              <div>
                <label htmlFor="motif-remboursement" className="mb-1 block text-sm font-medium text-slate-800">
                  Motif du remboursement ({LIMITS.shortText} caractères au plus)
                </label>
                <Textarea
                  id="motif-remboursement"
                  name="reason"
                  required
                  maxLength={LIMITS.shortText}
                  rows={3}
                  defaultValue={failure?.intent === "refund" ? failure.values?.reason : ""}
                  aria-invalid={errorFor(refund.reference) ? true : undefined}
                  aria-describedby={errorFor(refund.reference) ? "motif-erreur" : undefined}
                />
                {errorFor(refund.reference) ? (
                  <p id="motif-erreur" className="mt-1 text-sm font-medium text-red-700">
                    {errorFor(refund.reference)}
                  </p>
                ) : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <button
                  type="submit"
                  className={buttonClasses({ className: "bg-red-700 text-white hover:bg-red-800" })}
                  disabled={busy("refund", refund.reference)}
                >
                  {busy("refund", refund.reference) ? "Remboursement..." : "Confirmer le remboursement"}
                </button>
                <Link to={here} className={buttonClasses({ variant: "ghost" })} preventScrollReset>
                  Annuler
                </Link>
              </div>
            </Form>
          </>
        )}
      </CardContent>
    </Card>
  );
}

export function TransactionsTab({
  panel: { transactions, pendingCash },
  view: { filters, period, periodLabel, keep },
  actionData,
}: {
  panel: TransactionsPanel;
  view: FinanceView;
  actionData: unknown;
}) {
  const { busy, errorFor } = useRowState(actionData);
  return (
    <>
      <FilterBar
        label="Rechercher des transactions"
        id="finance"
        className="rounded-lg border border-slate-200 bg-white p-4"
        hidden={{ periode: period }}
        search={{ value: filters.q, placeholder: "Formation, e-mail, nom ou référence" }}
        choices={[
          {
            name: "statut",
            label: "Statut",
            value: statusWords[filters.statut],
            className: "sm:w-48",
            options: statusFilters.map((value) => ({
              value: statusWords[value],
              label: value === "all" ? "Tous les statuts" : paymentStatusLabels[value],
            })),
          },
        ]}
        clearHref={filters.q || filters.statut !== "all" ? `/admin/financial?periode=${period}` : null}
      />

      <Card aria-labelledby="especes">
        <CardHeader>
          <CardTitle id="especes" className="flex items-center gap-2">
            <Banknote aria-hidden="true" className="size-5 text-brand-700" />
            Paiements en espèces à confirmer
          </CardTitle>
          <p className="text-sm text-slate-600">
            Quand un apprenant paie à l'accueil : retrouvez sa référence ou son nom, saisissez le numéro du reçu remis, enregistrez.
          </p>
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
                        <Input
                          id={fieldId}
                          name="receiptNumber"
                          maxLength={50}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${fieldId}-erreur` : undefined}
                        />
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
            {plural(transactions.length, "transaction", "transactions")} sur {periodLabel}
          </p>
        </CardHeader>
        <CardContent className="relative overflow-x-auto">
          {transactions.length === 0 ? (
            <p className="text-sm text-slate-600">
              {filters.q || filters.statut !== "all"
                ? `Aucune transaction sur ${periodLabel} ne correspond à ces critères.`
                : `Aucune transaction sur ${periodLabel}.`}
            </p>
          ) : (
            <table className="w-full min-w-[48rem] text-left text-sm">
              <caption className="sr-only">Transactions, des plus récentes aux plus anciennes</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Type
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Formation
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Utilisateur
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Montant
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Date
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Statut
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {transactions.map((payment) => {
                  const refund = payment.status === "refunded";
                  return (
                    <tr key={payment.reference} className="align-top">
                      <td className="py-3 pr-3">
                        <span className="font-medium text-slate-900">{refund ? "Remboursement" : "Inscription"}</span>
                        <span className="block text-xs text-slate-600">
                          {paymentMethodLabels[payment.method]} · <span className="whitespace-nowrap">{payment.reference}</span>
                        </span>
                      </td>
                      <td className="py-3 pr-3 text-slate-900">{payment.courseTitle}</td>
                      <td className="py-3 pr-3">
                        <span className="text-slate-900">{payment.learner}</span>
                        <span className="block text-xs text-slate-600">{payment.email}</span>
                      </td>
                      <td
                        className={`py-3 pr-3 text-right font-semibold whitespace-nowrap tabular-nums ${refund ? "text-red-700" : payment.status === "completed" ? "text-emerald-800" : "text-slate-700"}`}
                      >
                        {refund ? "−" : "+"}
                        {formatFcfa(payment.amount)}
                      </td>
                      <td className="py-3 pr-3 text-slate-700">
                        <span className="whitespace-nowrap">{formatShortDate(payment.at)}</span>{" "}
                        <span className="whitespace-nowrap">à {formatTime(payment.at)}</span>
                      </td>
                      <td className="py-3 pr-3">
                        <StatusBadge status={payment.status} />
                      </td>
                      <td className="py-3">
                        {payment.status === "completed" ? (
                          <Link
                            to={`?${new URLSearchParams({ ...keep, rembourser: payment.reference }).toString()}`}
                            preventScrollReset
                            className="relative text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                          >
                            Rembourser<span className="sr-only"> le paiement {payment.reference}</span>
                          </Link>
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
    </>
  );
}
