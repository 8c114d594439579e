import { BookOpen, CheckCircle2, ClipboardList, Download, GraduationCap, Users, Wallet } from "~/components/icons";
import { Link, href } from "react-router";
import type { Actor } from "~/.server/auth/actor";
import { dbContext, userContext } from "~/.server/context";
import type { Database } from "~/.server/db/client";
import { listReports } from "~/.server/finance";
import {
  getBreakdowns,
  getDashboardStats,
  getMonthlyFigures,
  getTopCourses,
  listManagedCourses,
  windowOf,
  type Trend,
  type Window,
} from "~/.server/reports";
import { MonthlyRevenueBars } from "~/components/admin/charts";
import { BarsCard } from "~/components/ui/bars";
import { PeriodSelector } from "~/components/admin/period-selector";
import { ReportPanel } from "~/components/admin/report-panel";
import { RevenueNote } from "~/components/admin/revenue-note";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { formatDate } from "~/lib/dates";
import { financePeriods, formatPeriodMonth, formatSignedPercent, periodFrom, revenueLabels, type FinancePeriod } from "~/lib/finance";
import { formatFcfa, formatNumber, formatPercent, plural } from "~/lib/format";
import { paymentMethodLabels, type PaymentMethod } from "~/lib/payments";
import { roleLabels, type Role } from "~/lib/roles";
import type { Route } from "./+types/index";

const tabs = ["utilisateurs", "cours", "analytics", "rapports"] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, string> = {
  utilisateurs: "Gestion Utilisateurs",
  cours: "Gestion Cours",
  analytics: "Statistiques avancées",
  rapports: "Rapports",
};

const dashboardReports = [
  { kind: "utilisateurs", label: "Rapport utilisateurs", description: "Chaque compte, son rôle, sa date d'inscription et ses formations." },
  { kind: "cours", label: "Rapport cours", description: "Chaque formation : statut, inscriptions, complétion et revenus de la période." },
  {
    kind: "financier",
    label: "Rapport financier",
    description: "Les paiements de la période et les chiffres clés (revenus, commissions, marge).",
  },
  {
    kind: "analytique",
    label: "Statistiques avancées",
    description: "Mois par mois : nouveaux utilisateurs, inscriptions, complétions, revenus encaissés et remboursements.",
  },
  {
    kind: "certifications",
    label: "Rapport certifications",
    description: "Les certificats délivrés sur la période, avec mention et score.",
  },
  { kind: "sessions", label: "Sessions en direct", description: "Les formations qui ont des sessions en direct et leur prochaine date." },
];

/** The open tab's panel, its reads at once. */
async function panelOf(db: Database, admin: Actor, tab: Tab, window: Window, now: Date) {
  if (tab === "utilisateurs") {
    const [{ roles }, months] = await Promise.all([
      getBreakdowns(db, admin, window, ["roles"]),
      getMonthlyFigures(db, admin, now, 6, ["signUps"]),
    ]);
    return { tab, roles, months };
  }
  if (tab === "cours") {
    const [top, drafts] = await Promise.all([getTopCourses(db, admin, window), listManagedCourses(db, admin, { status: "draft" })]);
    return {
      tab,
      top,
      drafts: drafts.slice(0, 8).map((course) => ({
        id: course.id,
        title: course.title,
        instructorName: course.instructorName,
        updatedAt: course.updatedAt,
      })),
    };
  }
  if (tab === "analytics") {
    const [months, breakdowns] = await Promise.all([
      getMonthlyFigures(db, admin, now, 12, ["revenue", "refunds", "enrolments", "completions"]),
      getBreakdowns(db, admin, window, ["methods"]),
    ]);
    return { tab, months, breakdowns };
  }
  return { tab, history: await listReports(db, admin) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const period = periodFrom(url.searchParams.get("periode"));
  const tab: Tab = (tabs as readonly string[]).includes(url.searchParams.get("onglet") ?? "")
    ? (url.searchParams.get("onglet") as Tab)
    : "utilisateurs";
  const now = new Date();
  const window = windowOf(period, now);
  // The cards and the open tab's panel at once.
  const [stats, panel] = await Promise.all([getDashboardStats(db, admin, window), panelOf(db, admin, tab, window, now)]);
  return { period, stats, panel };
}

export const meta = () => [{ title: "Tableau de bord de l'administration · Campus" }];

function changeNote(trend: Trend, period: FinancePeriod, what: (count: number) => string, money = false) {
  const label = financePeriods[period].label;
  const current = money ? formatFcfa(trend.current) : what(trend.current);
  const change = trend.change === null ? (trend.current > 0 ? "nouveau" : "stable") : formatSignedPercent(trend.change);
  return `${current} sur ${label} · ${change} vs période précédente`;
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { period, stats, panel } = loaderData;
  const icon = "size-5";
  const query = (tab: Tab) => `/admin?onglet=${tab}&periode=${period}`;
  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Tableau de bord de l'administration</h1>
          <p className="mt-1 text-slate-600">L'activité de l'institut, lue dans la base : comptes, formations, inscriptions et revenus.</p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <PeriodSelector period={period} keep={{ onglet: panel.tab }} />
          <a href="/admin/users/export.csv" className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" className="size-4" />
            Exporter utilisateurs
          </a>
          <a href="/admin/my-courses/export.csv" className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" className="size-4" />
            Exporter cours
          </a>
        </div>
      </header>

      <section aria-labelledby="chiffres-cles">
        <h2 id="chiffres-cles" className="sr-only">
          Chiffres clés sur {financePeriods[period].label}
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-3">
          <StatCard
            label="Utilisateurs"
            value={stats.users.value}
            note={changeNote(stats.users, period, (count) => plural(count, "nouvel inscrit", "nouveaux inscrits"))}
            icon={<Users className={icon} />}
          />
          <StatCard
            label="Formations"
            value={stats.courses.value}
            note={changeNote(stats.courses, period, (count) => plural(count, "créée", "créées"))}
            icon={<BookOpen className={icon} />}
          />
          <StatCard
            label="Inscriptions actives"
            value={stats.activeEnrolments.value}
            note={changeNote(stats.activeEnrolments, period, (count) => plural(count, "ouverte", "ouvertes"))}
            icon={<GraduationCap className={icon} />}
          />
          <StatCard
            label={revenueLabels.collected}
            value={formatFcfa(stats.revenue.current)}
            note={`sur ${financePeriods[period].label} · ${stats.revenue.change === null ? "aucun revenu sur la période précédente" : `${formatSignedPercent(stats.revenue.change)} vs période précédente (${formatFcfa(stats.revenue.previous)})`}`}
            icon={<Wallet className={icon} />}
          />
          <StatCard
            label="En attente de validation"
            value={stats.pendingReview.value}
            note={`${plural(stats.pendingReview.current, "brouillon créé", "brouillons créés")} sur ${financePeriods[period].label}`}
            icon={<ClipboardList className={icon} />}
          />
          <StatCard
            label="Taux de complétion"
            value={formatPercent(stats.completion.value)}
            note={`${stats.completion.points >= 0 ? "+" : "−"}${formatNumber(Math.abs(stats.completion.points), { decimals: 1 })} pt depuis le début de la période (${formatPercent(stats.completion.atStart)})`}
            icon={<CheckCircle2 className={icon} />}
          />
        </dl>
        <RevenueNote refunds={stats.refunds} net={stats.netRevenue} period={financePeriods[period].label} />
      </section>

      <LinkTabs
        label="Sections du tableau de bord"
        current={panel.tab}
        items={tabs.map((tab) => ({ value: tab, label: tabLabels[tab], to: query(tab) }))}
      />

      {panel.tab === "utilisateurs" ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <BarsCard
            title="Comptes par rôle"
            caption="Nombre de comptes de chaque rôle"
            data={panel.roles.map((row) => ({
              label: roleLabels[row.label as Role] ?? row.label,
              value: row.value,
              display: formatNumber(row.count),
            }))}
          />
          <BarsCard
            title="Nouveaux comptes, six derniers mois"
            caption="Comptes créés chaque mois"
            data={panel.months.map((month) => ({
              label: formatPeriodMonth(month.month),
              value: month.signUps,
              display: formatNumber(month.signUps),
            }))}
          />
          <p className="lg:col-span-2">
            <Link to="/admin/users" className={buttonClasses()}>
              Gérer les utilisateurs
            </Link>
          </p>
        </div>
      ) : null}

      {panel.tab === "cours" ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <BarsCard
            title="Formations les plus suivies"
            caption={`Inscriptions ouvertes sur ${financePeriods[period].label}`}
            data={panel.top.map((course) => ({
              label: course.title,
              value: course.enrolments,
              display: plural(course.enrolments, "inscription", "inscriptions"),
              note: `${formatPercent(course.completionRate)} terminées`,
            }))}
          />
          <Card>
            <CardHeader>
              <CardTitle>En attente de validation</CardTitle>
            </CardHeader>
            <CardContent>
              {panel.drafts.length === 0 ? (
                <p className="text-sm text-slate-600">Aucun brouillon en attente.</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {panel.drafts.map((course) => (
                    <li key={course.id} className="flex items-center justify-between gap-3 py-2">
                      <div className="min-w-0">
                        <p className="truncate font-medium text-slate-900">{course.title}</p>
                        <p className="text-sm text-slate-600">
                          {course.instructorName ?? "Institut"} · modifié le {formatDate(new Date(course.updatedAt))}
                        </p>
                      </div>
                      <Link
                        to={href("/dashboard/course-creator/:id", { id: String(course.id) })}
                        className={buttonClasses({ variant: "ghost", size: "sm" })}
                      >
                        Relire<span className="sr-only"> {course.title}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
          <p className="lg:col-span-2">
            <Link to="/admin/my-courses" className={buttonClasses()}>
              Gérer les cours
            </Link>
          </p>
        </div>
      ) : null}

      {panel.tab === "analytics" ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>{revenueLabels.collected}, douze derniers mois</CardTitle>
            </CardHeader>
            <CardContent>
              <MonthlyRevenueBars
                caption="Paiements reçus chaque mois ; les remboursements sous le mois où ils ont été faits"
                months={panel.months}
              />
            </CardContent>
          </Card>
          <BarsCard
            title="Moyens de paiement"
            caption={`Revenus par moyen de paiement sur ${financePeriods[period].label}`}
            tone="accent"
            data={panel.breakdowns.methods.map((row) => ({
              label: paymentMethodLabels[row.label as PaymentMethod] ?? row.label,
              value: row.value,
              display: formatFcfa(row.value),
              note: plural(row.count, "paiement", "paiements"),
            }))}
          />
          <BarsCard
            title="Inscriptions et complétions"
            caption="Inscriptions ouvertes chaque mois"
            tone="green"
            data={panel.months.slice(-6).map((month) => ({
              label: formatPeriodMonth(month.month),
              value: month.enrolments,
              display: formatNumber(month.enrolments),
              note: plural(month.completions, "terminée", "terminées"),
            }))}
          />
          <p className="lg:col-span-2">
            <Link to={`/admin/analytics?periode=${period}`} className={buttonClasses()}>
              Toutes les statistiques
            </Link>
          </p>
        </div>
      ) : null}

      {panel.tab === "rapports" ? (
        <ReportPanel reports={dashboardReports} period={period} history={panel.history} back={query("rapports")} />
      ) : null}
    </div>
  );
}
