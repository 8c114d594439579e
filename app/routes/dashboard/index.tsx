import { Award, BookOpen, CalendarClock, Clock, TrendingUp } from "~/components/icons";
import { Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { myCertificateSummary } from "~/.server/certificates";
import { getStudentDashboard } from "~/.server/learning";
import { listLearnerSessions } from "~/.server/live-sessions";
import { BarChart, ShareChart } from "~/components/learning/charts";
import { LearnerSessions } from "~/components/live-sessions/learner-sessions";
import { ProgressBar } from "~/components/learning/progress-bar";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { formatMinutes, plural } from "~/lib/format";
import { learnerSessionView } from "~/lib/live-sessions";
import type { Route } from "./+types/index";
import { formatWeekdayDateTime } from "~/lib/dates";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const [dashboard, certificates, sessions] = await Promise.all([
    getStudentDashboard(db, user),
    myCertificateSummary(db, user),
    listLearnerSessions(db, user, new Date(), { limit: 3 }),
  ]);
  return {
    firstName: user.firstName.trim(),
    role: user.role,
    cards: {
      activeCourses: dashboard.activeCourses,
      startedThisMonth: dashboard.startedThisMonth,
      averageProgress: dashboard.averageProgress,
      certificates: certificates.valid,
      studyTime: formatMinutes(dashboard.studyMinutes),
    },
    monthly: dashboard.monthly,
    domains: dashboard.domains,
    inProgress: dashboard.inProgress.map((course) => ({
      ...course,
      nextLive: course.nextLiveAt ? formatWeekdayDateTime(course.nextLiveAt) : null,
    })),
    // Every lesson done but no certificate yet: a required quiz still waits (the course page says which).
    awaitingCertificate: dashboard.finished
      .filter((course) => !certificates.courseIds.has(course.courseId))
      .map(({ slug, title, lessonCount }) => ({ slug, title, lessonCount })),
    sessions: sessions.map(learnerSessionView),
    pendingPayments: dashboard.pendingPayments.map((row) => ({
      slug: row.slug,
      title: row.title,
      reference: row.pendingPayment?.reference ?? null,
    })),
  };
}

export function meta() {
  return [{ title: "Tableau de bord" }];
}

/** The student dashboard: every figure from the learner's own enrolments and lessons. */
export default function DashboardIndex({ loaderData }: Route.ComponentProps) {
  const { firstName, role, cards, monthly, domains, inProgress, awaitingCertificate, sessions, pendingPayments } = loaderData;
  const iconClass = "size-5";
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Bienvenue, {firstName || "Utilisateur"} !</h1>
        <p className="mt-2 text-slate-700">Voici où vous en êtes de vos formations.</p>
      </div>

      {pendingPayments.length > 0 ? (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">
            {pendingPayments.length > 1 ? "Des inscriptions attendent leur paiement" : "Une inscription attend son paiement"}
          </p>
          <ul className="mt-1 space-y-1 text-sm">
            {pendingPayments.map((row) => (
              <li key={row.slug}>
                {row.title} :{" "}
                <Link
                  to={row.reference ? `/dashboard/paiements/${row.reference}` : `/formations/${row.slug}/inscription`}
                  className="font-semibold underline underline-offset-2"
                >
                  {row.reference ? `référence ${row.reference}` : "choisir un moyen de paiement"}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <section aria-labelledby="chiffres">
        <h2 id="chiffres" className="sr-only">
          Vos chiffres
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <StatCard
            label="Formations actives"
            value={cards.activeCourses}
            note={cards.startedThisMonth > 0 ? `+${cards.startedThisMonth} ce mois-ci` : "Aucune nouvelle ce mois-ci"}
            icon={<BookOpen className={iconClass} />}
          />
          <StatCard label="Progression moyenne" value={`${cards.averageProgress} %`} icon={<TrendingUp className={iconClass} />} />
          <StatCard
            label="Certificats"
            value={cards.certificates}
            note="Délivrés à la fin d'une formation"
            icon={<Award className={iconClass} />}
          />
          <StatCard label="Heures d'étude" value={cards.studyTime} note="Leçons terminées" icon={<Clock className={iconClass} />} />
        </dl>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="progression-mensuelle">
          <CardHeader>
            <CardTitle id="progression-mensuelle">Progression mensuelle</CardTitle>
            <p className="text-sm text-slate-600">Part des leçons terminées à la fin de chaque mois.</p>
          </CardHeader>
          <CardContent>
            <BarChart
              data={monthly.map((month) => ({ label: month.month, value: month.progress }))}
              unit="%"
              caption="Progression à la fin de chacun des six derniers mois"
            />
          </CardContent>
        </Card>
        <Card aria-labelledby="domaines">
          <CardHeader>
            <CardTitle id="domaines">Répartition par domaine</CardTitle>
            <p className="text-sm text-slate-600">Vos formations, par catégorie.</p>
          </CardHeader>
          <CardContent>
            {domains.length ? (
              <ShareChart
                data={domains.map((domain) => ({
                  label: domain.name,
                  value: domain.share,
                  detail: `${domain.courses} formation${domain.courses > 1 ? "s" : ""}`,
                }))}
              />
            ) : (
              <p className="text-sm text-slate-600">Inscrivez-vous à une formation pour voir vos domaines.</p>
            )}
          </CardContent>
        </Card>
      </div>

      <Card aria-labelledby="en-cours">
        <CardHeader>
          <CardTitle id="en-cours">Formations en cours</CardTitle>
        </CardHeader>
        <CardContent>
          {inProgress.length === 0 && awaitingCertificate.length === 0 ? (
            <div className="py-4 text-center">
              <p className="text-slate-700">Vous ne suivez aucune formation pour l'instant.</p>
              <Link to="/dashboard/formations?onglet=disponibles" className={buttonClasses({ className: "mt-3" })}>
                Découvrir les formations
              </Link>
            </div>
          ) : (
            <ul className="divide-y divide-slate-100">
              {inProgress.map((course) => (
                <li key={course.slug} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1 space-y-2">
                    <p className="font-semibold text-slate-900">{course.title}</p>
                    <ProgressBar value={course.progress} label={`Progression dans ${course.title}`} />
                    <p className="text-sm text-slate-600">
                      {course.lessonsDone} / {course.lessonCount} {course.lessonCount > 1 ? "leçons terminées" : "leçon terminée"}
                      {course.nextLive ? (
                        <span className="ml-2 inline-flex items-center gap-1">
                          <CalendarClock aria-hidden="true" className="size-4" />
                          Prochain direct : {course.nextLive}
                        </span>
                      ) : null}
                    </p>
                  </div>
                  <Link
                    to={href("/dashboard/formations/:slug", { slug: course.slug })}
                    className={buttonClasses({ variant: "outline", size: "sm" })}
                  >
                    Continuer<span className="sr-only"> {course.title}</span>
                  </Link>
                </li>
              ))}
              {awaitingCertificate.map((course) => (
                <li key={course.slug} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1 space-y-2">
                    <p className="font-semibold text-slate-900">{course.title}</p>
                    <ProgressBar value={100} label={`Progression dans ${course.title}`} />
                    <p className="text-sm text-slate-600">
                      {plural(course.lessonCount, "leçon terminée", "leçons terminées")} : le certificat est délivré une fois les quiz
                      obligatoires réussis.
                    </p>
                  </div>
                  <Link
                    to={href("/dashboard/formations/:slug", { slug: course.slug })}
                    className={buttonClasses({ variant: "outline", size: "sm" })}
                  >
                    Voir la formation<span className="sr-only"> {course.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card aria-labelledby="sessions-direct">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle id="sessions-direct">Sessions en direct à venir</CardTitle>
          <Link to="/dashboard/sessions" className="text-sm font-medium text-brand-700 underline underline-offset-2">
            Toutes mes sessions et mon agenda
          </Link>
        </CardHeader>
        <CardContent>
          {sessions.length === 0 ? (
            <p className="text-sm text-slate-700">Aucune session en direct n'est prévue dans vos formations.</p>
          ) : (
            <LearnerSessions sessions={sessions} back="/dashboard" />
          )}
        </CardContent>
      </Card>

      {role !== "user" ? (
        <p className="text-sm text-slate-700">
          {role === "admin" ? (
            <>
              Administration :{" "}
              <Link className="font-medium text-brand-700 underline" to="/admin/users">
                gérer les utilisateurs
              </Link>{" "}
              ·{" "}
              <Link className="font-medium text-brand-700 underline" to="/admin/financial">
                finances
              </Link>
              .
            </>
          ) : (
            <>
              Enseignement :{" "}
              <Link className="font-medium text-brand-700 underline" to="/teacher">
                ouvrir le portail enseignant
              </Link>
              .
            </>
          )}
        </p>
      ) : null}
    </div>
  );
}
