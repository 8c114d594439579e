import { Activity, CheckCircle2, Download, GraduationCap, Wallet } from "~/components/icons";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { getAdvancedAnalytics, windowOf, type Trend } from "~/.server/reports";
import { MonthlyRevenueBars } from "~/components/admin/charts";
import { BarsCard, HorizontalBars } from "~/components/ui/bars";
import { PeriodSelector } from "~/components/admin/period-selector";
import { RevenueNote } from "~/components/admin/revenue-note";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { LinkTabs } from "~/components/ui/tabs";
import { formatDate } from "~/lib/dates";
import { financePeriods, formatPeriodMonth, formatSignedPercent, periodFrom, revenueLabels, type FinancePeriod } from "~/lib/finance";
import { formatFcfa, formatNumber, formatPercent, plural } from "~/lib/format";
import { paymentMethodLabels } from "~/lib/payments";
import { roleLabels, type Role } from "~/lib/roles";
import type { Route } from "./+types/analytics";

const tabs = ["ensemble", "cours", "utilisateurs", "revenus"] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, string> = {
  ensemble: "Vue d'ensemble",
  cours: "Cours",
  utilisateurs: "Utilisateurs",
  revenus: "Revenus",
};
const querySchema = z.object({ onglet: z.enum(tabs).catch("ensemble") });

/** The advanced analytics: the period (7 jours … 1 an) changes every figure; each tab is a link. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const period = periodFrom(url.searchParams.get("periode"));
  const { onglet: tab } = querySchema.parse({ onglet: url.searchParams.get("onglet") ?? undefined });
  const now = new Date();
  const analytics = await getAdvancedAnalytics(db, admin, windowOf(period, now), now);
  return { tab, period, analytics, fromLabel: formatDate(new Date(analytics.from)), toLabel: formatDate(now) };
}

export const meta = () => [{ title: "Statistiques avancées · Campus" }];

const decimal = (value: number) => formatNumber(value, { decimals: 1 });

function changeText(trend: Trend, describe: (value: number) => string): string {
  if (trend.change === null) return `${describe(trend.previous)} sur la période précédente`;
  return `${formatSignedPercent(trend.change)} vs période précédente (${describe(trend.previous)})`;
}

export default function AdvancedAnalytics({ loaderData }: Route.ComponentProps) {
  const { tab, period, analytics, fromLabel, toLabel } = loaderData;
  const { kpis, timeline, projection } = analytics;
  const label = financePeriods[period].label;
  const icon = "size-5";
  const link = (to: Tab, on: FinancePeriod = period) => `/admin/analytics?periode=${on}&onglet=${to}`;
  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Statistiques avancées</h1>
          <p className="mt-1 text-slate-600">
            Du {fromLabel} au {toLabel} ({label}) : chaque chiffre est lu dans la base pour cette période.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <PeriodSelector period={period} keep={{ onglet: tab }} />
          <a href={`/admin/analytics/export?periode=${period}`} className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" className="size-4" />
            Exporter (JSON)
          </a>
        </div>
      </header>

      <section aria-labelledby="indicateurs">
        <h2 id="indicateurs" className="sr-only">
          Indicateurs clés sur {label}
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 2xl:grid-cols-4">
          <StatCard
            label={revenueLabels.collected}
            value={formatFcfa(kpis.revenue.current)}
            note={changeText(kpis.revenue, formatFcfa)}
            icon={<Wallet className={icon} />}
          />
          <StatCard
            label="Inscriptions"
            value={kpis.enrolments.current}
            note={changeText(kpis.enrolments, formatNumber)}
            icon={<GraduationCap className={icon} />}
          />
          <StatCard
            label="Apprenants actifs"
            value={kpis.activeLearners.current}
            note={changeText(kpis.activeLearners, formatNumber)}
            icon={<Activity className={icon} />}
          />
          <StatCard
            label="Taux de complétion"
            value={kpis.completion.value === null ? "—" : formatPercent(kpis.completion.value)}
            note={`${formatNumber(kpis.completion.completed)} sur ${plural(kpis.completion.opened, "inscription ouverte", "inscriptions ouvertes")} · ${kpis.completion.previous === null ? "aucune inscription sur la période précédente" : `${formatPercent(kpis.completion.previous)} sur la période précédente`}`}
            icon={<CheckCircle2 className={icon} />}
          />
        </dl>
        <RevenueNote refunds={analytics.revenue.refunds.total} net={analytics.revenue.net} period={label} />
      </section>

      <LinkTabs
        label="Sections des statistiques"
        current={tab}
        items={tabs.map((value) => ({ value, label: tabLabels[value], to: link(value) }))}
      />

      {tab === "ensemble" ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <BarsCard
            title="Inscriptions sur la période"
            caption="Inscriptions ouvertes, et terminées, par intervalle"
            tone="green"
            data={timeline.map((bucket) => ({
              label: bucket.label,
              value: bucket.enrolments,
              display: plural(bucket.enrolments, "ouverte", "ouvertes"),
              note: plural(bucket.completions, "terminée", "terminées"),
            }))}
          />
          <BarsCard
            title="Revenus sur la période"
            caption="Paiements encaissés par intervalle"
            data={timeline.map((bucket) => ({ label: bucket.label, value: bucket.revenue, display: formatFcfa(bucket.revenue) }))}
          />
          <BarsCard
            title="Par niveau"
            caption={`Inscriptions ouvertes sur ${label}, par niveau du cours`}
            tone="accent"
            data={analytics.levels.map((row) => ({ label: row.label, value: row.count, display: formatNumber(row.count) }))}
          />
          <BarsCard
            title="Par catégorie"
            caption={`Inscriptions ouvertes sur ${label}, par catégorie du cours`}
            tone="accent"
            data={analytics.categories.map((row) => ({ label: row.label, value: row.count, display: formatNumber(row.count) }))}
          />
          <Card className="lg:col-span-2" aria-labelledby="projection">
            <CardHeader>
              <CardTitle id="projection" className="flex flex-wrap items-center gap-2">
                Projection des trois prochains mois <Badge tone="amber">Estimation</Badge>
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-3">
              {projection.months ? (
                <>
                  <p className="text-sm text-slate-700">
                    Calculée à partir des données : la droite de tendance (moindres carrés) des revenus encaissés et des inscriptions de{" "}
                    {plural(projection.basis.length, "mois complet", "mois complets")} ({formatPeriodMonth(projection.basis[0]!.month)} à{" "}
                    {formatPeriodMonth(projection.basis.at(-1)!.month)}), prolongée au-delà du mois en cours. Ce n&apos;est pas une
                    prévision : elle montre où mène la tendance si rien ne change.
                  </p>
                  <Table label="Projection des trois prochains mois">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Mois</TableHead>
                        <TableHead className="text-right">Revenus projetés</TableHead>
                        <TableHead className="text-right">Inscriptions projetées</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {projection.months.map((month) => (
                        <TableRow key={month.month}>
                          <TableCell>{formatPeriodMonth(month.month)}</TableCell>
                          <TableCell className="text-right tabular-nums">{formatFcfa(month.revenue)}</TableCell>
                          <TableCell className="text-right tabular-nums">{formatNumber(month.enrolments)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                  <p className="text-sm text-slate-600">
                    Tendance : {projection.slope!.revenue >= 0 ? "+" : "−"}
                    {formatFcfa(Math.abs(projection.slope!.revenue))} et {projection.slope!.enrolments >= 0 ? "+" : "−"}
                    {decimal(Math.abs(projection.slope!.enrolments))} inscriptions par mois.
                  </p>
                </>
              ) : (
                <p className="text-sm text-slate-700">
                  Pas encore de projection : il faut au moins trois mois complets de revenus ou d&apos;inscriptions (
                  {plural(projection.basis.length, "mois complet", "mois complets")} pour l&apos;instant).
                </p>
              )}
            </CardContent>
          </Card>
        </div>
      ) : null}

      {tab === "cours" ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <BarsCard
            title="Top 5 des formations"
            caption={`Inscriptions ouvertes sur ${label}`}
            data={analytics.topCourses.map((course) => ({
              label: course.title,
              value: course.enrolments,
              display: plural(course.enrolments, "inscription", "inscriptions"),
            }))}
          />
          <BarsCard
            title="Complétion et note"
            caption="Part des inscriptions de la période terminées, et note du cours"
            tone="green"
            data={analytics.topCourses.map((course) => ({
              label: course.title,
              value: course.completionRate,
              display: formatPercent(course.completionRate),
              note: course.rating === null ? "sans note" : `note ${decimal(course.rating)}/5`,
            }))}
          />
        </div>
      ) : null}

      {tab === "utilisateurs" ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <BarsCard
            title="Nouveaux comptes"
            caption="Comptes créés par intervalle"
            data={timeline.map((bucket) => ({ label: bucket.label, value: bucket.signUps, display: formatNumber(bucket.signUps) }))}
          />
          <BarsCard
            title="Apprenants actifs par jour"
            caption="Moyenne par jour des apprenants qui ont suivi une leçon ou rendu un quiz"
            tone="green"
            data={timeline.map((bucket) => ({
              label: bucket.label,
              value: bucket.dailyActiveLearners,
              display: `${decimal(bucket.dailyActiveLearners)} / jour`,
              note: plural(bucket.activeLearners, "apprenant", "apprenants"),
            }))}
          />
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>Comptes par rôle</CardTitle>
            </CardHeader>
            <CardContent>
              <HorizontalBars
                caption={`Tous les comptes, et ceux créés sur ${label}`}
                tone="accent"
                data={analytics.users.roles.map((row) => ({
                  label: roleLabels[row.role as Role] ?? row.role,
                  value: row.total,
                  display: formatNumber(row.total),
                  note: `+${formatNumber(row.created)} sur la période`,
                }))}
              />
            </CardContent>
          </Card>
        </div>
      ) : null}

      {tab === "revenus" ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>Revenus par mois</CardTitle>
            </CardHeader>
            <CardContent>
              <MonthlyRevenueBars
                caption="Paiements reçus chaque mois, douze derniers mois ; les remboursements sous le mois où ils ont été faits"
                months={analytics.revenue.months}
              />
            </CardContent>
          </Card>
          <BarsCard
            title="Par moyen de paiement"
            caption={`Paiements encaissés sur ${label}`}
            tone="accent"
            data={analytics.revenue.methods.map((row) => ({
              label: paymentMethodLabels[row.method],
              value: row.value,
              display: formatFcfa(row.value),
              note: plural(row.count, "paiement", "paiements"),
            }))}
          />
          <BarsCard
            title="Par catégorie"
            caption={`Paiements encaissés sur ${label}, par catégorie du cours`}
            data={analytics.revenue.categories.map((row) => ({
              label: row.label,
              value: row.value,
              display: formatFcfa(row.value),
              note: plural(row.count, "paiement", "paiements"),
            }))}
          />
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>Remboursements</CardTitle>
            </CardHeader>
            <CardContent className="space-y-3">
              <p className="text-slate-800">
                <span className="font-semibold">{formatFcfa(analytics.revenue.refunds.total)}</span> remboursés sur {label} (
                {plural(analytics.revenue.refunds.count, "remboursement", "remboursements")}).
              </p>
              <HorizontalBars
                caption="Remboursements par intervalle"
                tone="red"
                data={timeline.map((bucket) => ({ label: bucket.label, value: bucket.refunds, display: formatFcfa(bucket.refunds) }))}
              />
            </CardContent>
          </Card>
        </div>
      ) : null}
    </div>
  );
}
