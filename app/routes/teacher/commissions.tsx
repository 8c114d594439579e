import { Percent, Wallet, WalletCards } from "~/components/icons";
import { dbContext, userContext } from "~/.server/context";
import { listInstructorCommissions } from "~/.server/finance";
import { orHttpError } from "~/.server/http/errors";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { formatDate } from "~/lib/dates";
import { commissionStateLabels, commissionStateTones, formatPeriodMonth, type CommissionState } from "~/lib/finance";
import { formatFcfa, plural } from "~/lib/format";
import type { Route } from "./+types/commissions";

/** "Mes Commissions": what a teacher earned on their courses, month by month, and what was paid to them. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const { rate, months, earnedFcfa, paidFcfa } = await orHttpError(listInstructorCommissions(context.get(dbContext), user, user.id));
  return {
    rate,
    earnedFcfa,
    paidFcfa,
    currentPeriod: new Date().toISOString().slice(0, 7),
    months: months.map((month) => ({
      period: month.period,
      sales: month.sales,
      grossFcfa: month.grossFcfa,
      refundedFcfa: month.refundedFcfa,
      commissionFcfa: month.commissionFcfa,
      rates: month.minRate === month.maxRate ? `${month.minRate} %` : `${month.minRate} à ${month.maxRate} %`,
      courses: month.lines.map((line) => ({ title: line.courseTitle, sales: line.sales, commission: line.commissionFcfa })),
      payout: month.payout
        ? { status: month.payout.status, paidAt: month.payout.paidAt, reference: month.payout.manualReference ?? month.payout.reference }
        : null,
    })),
  };
}

export const meta = () => [{ title: "Mes Commissions · Portail Enseignant" }];

export default function TeacherCommissions({ loaderData }: Route.ComponentProps) {
  const { rate, earnedFcfa, paidFcfa, months, currentPeriod } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Mes Commissions</h1>
        <p className="mt-1 text-slate-600">
          Ce que vous rapportent vos formations : votre part de chaque paiement reçu, moins les remboursements, et les versements de
          l'institut.
        </p>
      </div>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:gap-4">
        <StatCard label="Mon taux" value={`${rate} %`} note="de chaque paiement reçu" icon={<Percent className="size-5" />} />
        <StatCard label="Commissions gagnées" value={formatFcfa(earnedFcfa)} note="depuis le début" icon={<Wallet className="size-5" />} />
        <StatCard
          label="Déjà versées"
          value={formatFcfa(paidFcfa)}
          note={`reste ${formatFcfa(Math.max(0, earnedFcfa - paidFcfa))}`}
          icon={<WalletCards className="size-5" />}
        />
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>Mois par mois</CardTitle>
        </CardHeader>
        <CardContent>
          {months.length === 0 ? (
            <p className="text-sm text-slate-600">
              Aucune commission pour l'instant : elles apparaissent dès le premier paiement d'une de vos formations.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {months.map((month) => {
                const state: CommissionState = month.payout ? month.payout.status : "due";
                return (
                  <li key={month.period} className="space-y-1 py-3 first:pt-0 last:pb-0">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold text-slate-900 capitalize">{formatPeriodMonth(month.period)}</span>
                      <Badge tone={commissionStateTones[state]}>
                        {month.period >= currentPeriod && !month.payout ? "Mois en cours" : commissionStateLabels[state]}
                      </Badge>
                    </p>
                    <p className="text-sm text-slate-700">
                      {plural(month.sales, "inscription payée", "inscriptions payées")} · brut {formatFcfa(month.grossFcfa)}
                      {month.refundedFcfa ? ` · remboursé ${formatFcfa(month.refundedFcfa)}` : ""} · taux {month.rates}
                    </p>
                    <p className="text-sm text-slate-600">
                      {month.courses.map((course) => `${course.title} : ${formatFcfa(course.commission)}`).join(" · ")}
                    </p>
                    <p className="font-semibold text-slate-900 tabular-nums">{formatFcfa(month.commissionFcfa)}</p>
                    {month.payout?.status === "paid" && month.payout.paidAt ? (
                      <p className="text-sm text-emerald-800">
                        Versée le {formatDate(new Date(month.payout.paidAt))} (réf. {month.payout.reference})
                      </p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
