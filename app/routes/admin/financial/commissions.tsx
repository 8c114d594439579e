import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { formatDateTime } from "~/lib/dates";
import { commissionStateLabels, commissionStateTones, formatPeriodMonth, type CommissionState } from "~/lib/finance";
import { formatFcfa, plural } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import type { CommissionsPanel } from "./commissions.server";
import { useRowState, type FinanceView } from "./shared";

/** « Commissions » of « Gestion financière »: each instructor's months, their payout and rate. */

function CommissionBadge({ state }: { state: CommissionState }) {
  return (
    <Badge tone={commissionStateTones[state]} className="whitespace-nowrap">
      {commissionStateLabels[state]}
    </Badge>
  );
}

export function CommissionsTab({
  panel: { months, rates, provider, currentPeriod },
  view: { periodLabel, here },
  actionData,
}: {
  panel: CommissionsPanel;
  view: FinanceView;
  actionData: unknown;
}) {
  const { busy, errorFor } = useRowState(actionData);
  return (
    <Card aria-labelledby="commissions">
      <CardHeader>
        <CardTitle id="commissions">Commissions des enseignants</CardTitle>
        <p className="text-sm text-slate-600">
          Chaque paiement reçu rapporte à l'enseignant de la formation son taux (70 % par défaut) au taux en vigueur ce jour-là ; un
          remboursement le reprend le mois où il est fait. Un mois se paie une fois terminé.
        </p>
      </CardHeader>
      <CardContent>
        {months.length === 0 ? (
          <p className="text-sm text-slate-600">Aucune commission sur {periodLabel}.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {months.map((month) => {
              const key = `${month.instructorId}|${month.period}`;
              const state: CommissionState = month.payout ? month.payout.status : "due";
              const payable =
                month.commissionFcfa > 0 && month.period < currentPeriod && (!month.payout || month.payout.status === "failed");
              const error = errorFor(key);
              return (
                <li key={key} className="grid gap-3 py-4 first:pt-0 last:pb-0 lg:grid-cols-[1fr_auto]">
                  <div className="min-w-0 space-y-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold text-slate-900">{month.instructorName}</span>
                      <span className="text-sm text-slate-600">{month.instructorEmail}</span>
                      <CommissionBadge state={state} />
                    </p>
                    <p className="text-sm text-slate-700">
                      {formatPeriodMonth(month.period)} · {plural(month.sales, "inscription", "inscriptions")} · brut{" "}
                      {formatFcfa(month.grossFcfa)}
                      {month.refundedFcfa ? ` · remboursé ${formatFcfa(month.refundedFcfa)}` : ""} · taux{" "}
                      {month.minRate === month.maxRate ? `${month.minRate} %` : `${month.minRate} à ${month.maxRate} %`}
                    </p>
                    <p className="text-sm text-slate-600">
                      {month.courses.map((course) => `${course.title} (${formatFcfa(course.commission)})`).join(" · ")}
                    </p>
                    <p className="font-semibold text-slate-900 tabular-nums">Commission : {formatFcfa(month.commissionFcfa)}</p>
                    {month.payout?.status === "paid" ? (
                      <p className="text-sm text-emerald-800">
                        Payée le {month.payout.paidAt ? formatDateTime(new Date(month.payout.paidAt)) : ""} ·{" "}
                        {month.payout.manualReference
                          ? `réf. ${month.payout.manualReference}`
                          : `mobile money, réf. ${month.payout.reference}`}
                      </p>
                    ) : null}
                    {month.payout?.status === "failed" ? (
                      <p className="text-sm text-red-700">Échec : {month.payout.failureReason}</p>
                    ) : null}
                  </div>
                  <div className="space-y-2 lg:w-80">
                    {payable ? (
                      <Form method="post" action={here} className="space-y-2 rounded-md border border-slate-200 p-3">
                        <input type="hidden" name="intent" value="pay-commission" />
                        <input type="hidden" name="instructorId" value={month.instructorId} />
                        <input type="hidden" name="period" value={month.period} />
                        <fieldset className="space-y-1 text-sm">
                          <legend className="sr-only">Comment payer</legend>
                          {provider ? (
                            <label className="flex items-center gap-2">
                              <input type="radio" name="channel" value="provider" defaultChecked />
                              {provider}
                            </label>
                          ) : null}
                          <label className="flex items-center gap-2">
                            <input type="radio" name="channel" value="manual" defaultChecked={!provider} />À la main (virement, espèces)
                          </label>
                        </fieldset>
                        <div>
                          <label htmlFor={`ref-${key}`} className="mb-1 block text-sm font-medium text-slate-800">
                            Référence du virement (à la main)
                          </label>
                          <Input id={`ref-${key}`} name="manualReference" maxLength={LIMITS.receiptNumber} />
                        </div>
                        {error ? (
                          <p role="alert" className="text-sm font-medium text-red-700">
                            {error}
                          </p>
                        ) : null}
                        <button type="submit" className={buttonClasses({ size: "sm" })} disabled={busy("pay-commission", key)}>
                          {busy("pay-commission", key) ? "Traitement..." : `Payer ${formatFcfa(month.commissionFcfa)}`}
                        </button>
                      </Form>
                    ) : month.period >= currentPeriod ? (
                      <p className="text-sm text-slate-600">Mois en cours : payable à partir du 1er du mois suivant.</p>
                    ) : month.commissionFcfa <= 0 && !month.payout ? (
                      <p className="text-sm text-slate-600">Rien à payer ce mois-ci.</p>
                    ) : null}
                    <Form method="post" action={here} className="flex items-end gap-2">
                      <input type="hidden" name="intent" value="set-rate" />
                      <input type="hidden" name="instructorId" value={month.instructorId} />
                      <input type="hidden" name="period" value={month.period} />
                      <div>
                        <label htmlFor={`taux-${key}`} className="mb-1 block text-sm font-medium text-slate-800">
                          Taux actuel (%)
                        </label>
                        <Input
                          id={`taux-${key}`}
                          name="rate"
                          type="number"
                          min={0}
                          max={100}
                          step={1}
                          defaultValue={rates[month.instructorId]}
                          className="w-24"
                        />
                      </div>
                      <button type="submit" className={buttonClasses({ variant: "outline", size: "sm" })}>
                        Enregistrer<span className="sr-only"> le taux de {month.instructorName}</span>
                      </button>
                    </Form>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
