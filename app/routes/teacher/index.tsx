import { Award, BookOpen, CalendarPlus, Clock, MessageSquare, Plus, Users } from "~/components/icons";
import { Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { listManagedSessions } from "~/.server/live-sessions";
import { getTeacherDashboard, listTeacherActivity, type TeacherActivity } from "~/.server/reports";
import { ProgressBar } from "~/components/learning/progress-bar";
import { JoinButton } from "~/components/live-sessions/join-button";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { courseStatusLabels } from "~/lib/course-status";
import { formatRelative, formatWeekdayDateTime } from "~/lib/dates";
import { formatMinutes, plural } from "~/lib/format";
import type { Route } from "./+types/index";

const ACTIVITY_DAYS = 30;

const activityText: Record<TeacherActivity["kind"], (row: TeacherActivity) => string> = {
  enrolment: (row) => `s'est inscrit·e à « ${row.courseTitle} »`,
  completion: (row) => `a terminé « ${row.courseTitle} »`,
  quiz: (row) => `a rendu un quiz de « ${row.courseTitle} » — ${row.detail}`,
  forum: (row) => `a publié « ${row.detail} » sur le forum`,
};

/** The teacher's dashboard (admins: over every course): every figure from stored data. */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const now = new Date();
  const [dashboard, sessions, activity] = await Promise.all([
    getTeacherDashboard(db, user),
    listManagedSessions(db, user, now),
    listTeacherActivity(db, user, { since: new Date(now.getTime() - ACTIVITY_DAYS * 24 * 60 * 60 * 1000), limit: 8 }),
  ]);
  const { cards } = dashboard;
  return {
    firstName: user.firstName.trim(),
    cards: {
      courses: cards.courses,
      coursesNote: `${plural(cards.publishedCourses, "publié", "publiés")}`,
      activeStudents: cards.activeStudents,
      studentsNote: `${plural(cards.learners, "apprenant", "apprenants")} en tout`,
      successRate: cards.successRate === null ? "—" : `${cards.successRate} %`,
      successNote: `${cards.completed} terminée${cards.completed > 1 ? "s" : ""} sur ${plural(cards.following, "inscription ouverte", "inscriptions ouvertes")}`,
      courseHours: formatMinutes(cards.courseMinutes),
    },
    courses: dashboard.courses.map((course) => ({ ...course, statusLabel: courseStatusLabels[course.status] })),
    sessions: sessions.upcoming.slice(0, 3).map((session) => ({
      id: session.id,
      title: session.title,
      courseTitle: session.courseTitle,
      when: formatWeekdayDateTime(session.startsAt),
      registered: session.registered,
      joinOpen: session.joinOpen,
    })),
    activity: activity.map((row, index) => ({
      key: `${row.kind}-${index}`,
      learner: row.learner,
      text: activityText[row.kind](row),
      when: formatRelative(row.at, now),
    })),
  };
}

export const meta = () => [{ title: "Tableau de bord · Espace enseignant" }];

export default function TeacherDashboard({ loaderData }: Route.ComponentProps) {
  const { firstName, cards, courses, sessions, activity } = loaderData;
  const icon = "size-5";
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Bienvenue, {firstName || "Enseignant"} !</h1>
          <p className="mt-2 text-slate-700">Vos cours, vos apprenants et vos prochaines sessions.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/teacher/create-course" className={buttonClasses({ size: "sm" })}>
            <Plus aria-hidden="true" className="size-4" />
            Nouveau Cours
          </Link>
          <Link to="/teacher/schedule" className={buttonClasses({ size: "sm", variant: "outline" })}>
            <CalendarPlus aria-hidden="true" className="size-4" />
            Planifier Session
          </Link>
          <Link to="/teacher/messages" className={buttonClasses({ size: "sm", variant: "outline" })}>
            <MessageSquare aria-hidden="true" className="size-4" />
            Messages Étudiants
          </Link>
        </div>
      </div>

      <section aria-labelledby="chiffres">
        <h2 id="chiffres" className="sr-only">
          Vos chiffres
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <StatCard label="Cours" value={cards.courses} note={cards.coursesNote} icon={<BookOpen className={icon} />} />
          <StatCard label="Étudiants actifs" value={cards.activeStudents} note={cards.studentsNote} icon={<Users className={icon} />} />
          <StatCard label="Taux de réussite" value={cards.successRate} note={cards.successNote} icon={<Award className={icon} />} />
          <StatCard label="Heures de cours" value={cards.courseHours} note="Durée totale des leçons" icon={<Clock className={icon} />} />
        </dl>
        <p className="mt-2 text-xs text-slate-600">
          Taux de réussite : part des inscriptions ouvertes (en cours ou terminées) dont l'apprenant a terminé toutes les leçons. Étudiants
          actifs : apprenants dont l'inscription est en cours.
        </p>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="mes-cours">
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle id="mes-cours">Mes cours</CardTitle>
            <Link to="/teacher/courses" className="text-sm font-medium text-brand-700 underline underline-offset-2">
              Tous mes cours
            </Link>
          </CardHeader>
          <CardContent>
            {courses.length === 0 ? (
              <p className="text-sm text-slate-700">Vous n'avez pas encore de cours.</p>
            ) : (
              <ul className="space-y-4">
                {courses.map((course) => (
                  <li key={course.id} className="space-y-1.5">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <Link to={`/teacher/students?cours=${course.id}`} className="font-medium text-slate-900 hover:underline">
                        {course.title}
                      </Link>
                      <span className="flex items-center gap-2 text-sm text-slate-600">
                        {plural(course.learners, "apprenant", "apprenants")}
                        {course.status !== "published" ? (
                          <Badge tone={course.status === "draft" ? "amber" : "neutral"}>{course.statusLabel}</Badge>
                        ) : null}
                      </span>
                    </div>
                    {course.averageProgress === null ? (
                      <p className="text-sm text-slate-600">Aucun apprenant pour l'instant.</p>
                    ) : (
                      <ProgressBar value={course.averageProgress} label={`Progression moyenne dans ${course.title}`} />
                    )}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card aria-labelledby="sessions">
          <CardHeader className="flex flex-row items-center justify-between gap-2">
            <CardTitle id="sessions">Prochaines sessions</CardTitle>
            <Link to="/teacher/sessions" className="text-sm font-medium text-brand-700 underline underline-offset-2">
              Toutes les sessions
            </Link>
          </CardHeader>
          <CardContent>
            {sessions.length === 0 ? (
              <div className="space-y-3">
                <p className="text-sm text-slate-700">Aucune session en direct prévue.</p>
                <Link to="/teacher/schedule" className={buttonClasses({ size: "sm", variant: "outline" })}>
                  Planifier une session
                </Link>
              </div>
            ) : (
              <ul className="divide-y divide-slate-100">
                {sessions.map((session) => (
                  <li key={session.id} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium text-slate-900">
                        <Link to={href("/teacher/sessions/:id", { id: String(session.id) })} className="hover:underline">
                          {session.title}
                        </Link>
                      </p>
                      <p className="text-sm text-slate-600">
                        {session.courseTitle} · {session.when} · {plural(session.registered, "inscrit", "inscrits")}
                      </p>
                    </div>
                    <JoinButton sessionId={session.id} title={session.title} open={session.joinOpen} label="Démarrer" />
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <Card aria-labelledby="activite">
        <CardHeader>
          <CardTitle id="activite">Activité récente</CardTitle>
          <p className="text-sm text-slate-600">
            Inscriptions, quiz rendus, formations terminées et sujets du forum de vos apprenants, sur {ACTIVITY_DAYS} jours.
          </p>
        </CardHeader>
        <CardContent>
          {activity.length === 0 ? (
            <p className="text-sm text-slate-700">Rien de nouveau ces {ACTIVITY_DAYS} derniers jours.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {activity.map((row) => (
                <li key={row.key} className="flex flex-wrap justify-between gap-x-3">
                  <span>
                    <span className="font-medium text-slate-900">{row.learner}</span> <span className="text-slate-700">{row.text}</span>
                  </span>
                  <span className="text-slate-600">{row.when}</span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
