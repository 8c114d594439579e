import { Award, BarChart3, CheckCircle2, Users, Video } from "~/components/icons";
import { Form, Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { listSessionCourses } from "~/.server/live-sessions";
import { getTeacherAnalytics, parseAnalyticsFilters } from "~/.server/reports";
import { analyticsRangeLabels, analyticsRanges } from "~/lib/teaching";
import { Button } from "~/components/ui/button";
import { HorizontalBars } from "~/components/ui/bars";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { StatCard } from "~/components/ui/stat-card";
import { formatDate, formatShortDate } from "~/lib/dates";
import { plural } from "~/lib/format";
import type { Route } from "./+types/analytics";

/** The teacher's analytics: the range (7 j / 30 j / 90 j / 1 an) and the course filter change every figure. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const filters = parseAnalyticsFilters(new URL(request.url).searchParams);
  const [analytics, courses] = await Promise.all([getTeacherAnalytics(db, user, filters), listSessionCourses(db, user)]);
  return {
    ...analytics,
    course: filters.course ?? null,
    sinceLabel: formatDate(analytics.since),
    courseOptions: courses.map(({ id, title }) => ({ value: String(id), label: title })),
    sessions: analytics.sessions.map(({ startsAt, ...row }) => ({ ...row, date: formatShortDate(startsAt) })),
  };
}

export const meta = () => [{ title: "Statistiques · Espace enseignant" }];

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { range, course, sinceLabel, courseOptions, totals, enrolmentsOverTime, courses, funnel, quizzes, sessions, attendanceRate } =
    loaderData;
  const icon = "size-5";
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Statistiques</h1>
        <p className="mt-2 text-slate-700">Depuis le {sinceLabel} : chaque chiffre ne compte que cette période.</p>
        <p className="mt-1 text-sm">
          <Link
            to={course ? `/teacher/avis?cours=${course}` : "/teacher/avis"}
            className="font-medium text-brand-700 underline underline-offset-2"
          >
            Notes et avis des apprenants
          </Link>
        </p>
      </div>

      <Form method="get" className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <fieldset className="flex flex-wrap gap-1">
          <legend className="mb-1 text-sm font-medium text-slate-900">Période</legend>
          {analyticsRanges.map((value) => (
            <label
              key={value}
              className="cursor-pointer rounded-md border border-slate-300 px-3 py-1.5 text-sm has-checked:border-brand-700 has-checked:bg-brand-700 has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-accent-500"
            >
              <input type="radio" name="periode" value={value} defaultChecked={range === value} className="sr-only" />
              {analyticsRangeLabels[value]}
            </label>
          ))}
        </fieldset>
        <div className="space-y-1">
          <label htmlFor="cours" className="text-sm font-medium text-slate-900">
            Cours
          </label>
          <Select
            id="cours"
            name="cours"
            defaultValue={course ? String(course) : ""}
            placeholder="Tous mes cours"
            options={courseOptions}
          />
        </div>
        <Button type="submit" variant="secondary">
          Afficher
        </Button>
      </Form>

      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label="Inscriptions" value={totals.enrolments} note="Ouvertes pendant la période" icon={<Users className={icon} />} />
        <StatCard
          label="Taux d'achèvement"
          value={totals.completionRate === null ? "—" : `${totals.completionRate} %`}
          note={`${plural(totals.completed, "terminée", "terminées")} parmi ces inscriptions`}
          icon={<CheckCircle2 className={icon} />}
        />
        <StatCard
          label="Score moyen aux quiz"
          value={totals.averageQuizScore === null ? "—" : `${totals.averageQuizScore} %`}
          note="Meilleur score de chaque apprenant"
          icon={<Award className={icon} />}
        />
        <StatCard
          label="Présence en direct"
          value={attendanceRate === null ? "—" : `${attendanceRate} %`}
          note={`${plural(totals.present, "présent", "présents")} · ${plural(totals.sessions, "session", "sessions")}`}
          icon={<Video className={icon} />}
        />
      </dl>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="evolution">
          <CardHeader>
            <CardTitle id="evolution">Inscriptions dans le temps</CardTitle>
          </CardHeader>
          <CardContent>
            <HorizontalBars
              data={enrolmentsOverTime.map((row) => ({ label: row.label, value: row.count, display: String(row.count) }))}
              caption="Inscriptions ouvertes par intervalle"
            />
          </CardContent>
        </Card>
        <Card aria-labelledby="par-cours">
          <CardHeader>
            <CardTitle id="par-cours">Achèvement par cours</CardTitle>
          </CardHeader>
          <CardContent>
            {courses.length === 0 ? (
              <p className="text-sm text-slate-700">Aucun cours.</p>
            ) : (
              <HorizontalBars
                data={courses.map((row) => ({
                  label: row.title,
                  value: row.completionRate ?? 0,
                  display: `${row.completionRate ?? 0} %`,
                  note: `${row.completed} sur ${row.enrolments}`,
                }))}
                scale={100}
                caption="Part des inscriptions de la période terminées, par cours"
              />
            )}
          </CardContent>
        </Card>
      </div>

      <Card aria-labelledby="abandon">
        <CardHeader>
          <CardTitle id="abandon" className="flex items-center gap-2">
            <BarChart3 aria-hidden="true" className="size-5" />
            Où les apprenants s'arrêtent
          </CardTitle>
          {funnel ? (
            <p className="text-sm text-slate-600">
              « {funnel.courseTitle} » : part des {plural(funnel.learners, "apprenant inscrit", "apprenants inscrits")} pendant la période
              qui ont terminé chaque leçon.{" "}
              {course ? null : (
                <Link to={`?periode=${range}&cours=${funnel.courseId}`} className="text-brand-700 underline">
                  Choisir un autre cours avec le filtre.
                </Link>
              )}
            </p>
          ) : null}
        </CardHeader>
        <CardContent>
          {!funnel || funnel.learners === 0 ? (
            <p className="text-sm text-slate-700">Aucune inscription pendant la période.</p>
          ) : (
            <HorizontalBars
              data={funnel.lessons.map((lesson, index) => ({
                label: `${index + 1}. ${lesson.title}`,
                value: lesson.share,
                display: `${lesson.share} %`,
                note: plural(lesson.reached, "apprenant", "apprenants"),
              }))}
              scale={100}
              caption="Part des apprenants ayant terminé chaque leçon"
            />
          )}
        </CardContent>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card aria-labelledby="quiz">
          <CardHeader>
            <CardTitle id="quiz">Scores moyens aux quiz</CardTitle>
          </CardHeader>
          <CardContent>
            {quizzes.length === 0 ? (
              <p className="text-sm text-slate-700">Aucun quiz rendu pendant la période.</p>
            ) : (
              <HorizontalBars
                data={quizzes.map((row) => ({
                  // A final quiz is named after its course already.
                  label: row.title.includes(row.courseTitle) ? row.title : `${row.title} (${row.courseTitle})`,
                  value: row.average ?? 0,
                  display: `${row.average ?? 0} %`,
                  note: plural(row.learners, "apprenant", "apprenants"),
                }))}
                scale={100}
                caption="Moyenne des meilleurs scores par quiz"
              />
            )}
          </CardContent>
        </Card>
        <Card aria-labelledby="presence">
          <CardHeader>
            <CardTitle id="presence">Présence aux sessions en direct</CardTitle>
          </CardHeader>
          <CardContent>
            {sessions.length === 0 ? (
              <p className="text-sm text-slate-700">Aucune session tenue pendant la période.</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {sessions.map((row) => (
                  <li key={row.id} className="flex flex-wrap justify-between gap-x-3">
                    <span>
                      <Link
                        to={href("/teacher/sessions/:id", { id: String(row.id) })}
                        className="font-medium text-slate-900 hover:underline"
                      >
                        {row.title}
                      </Link>{" "}
                      <span className="text-slate-600">
                        {row.courseTitle} · {row.date}
                      </span>
                    </span>
                    <span className="text-slate-900">
                      {row.present} / {plural(row.registered, "inscrit", "inscrits")}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
