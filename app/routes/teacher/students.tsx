import { Download } from "~/components/icons";
import { Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { listSessionCourses } from "~/.server/live-sessions";
import { listTeacherStudents, parseStudentFilters } from "~/.server/reports";
import { enrolmentStatusLabels } from "~/lib/learning";
import { enrolmentStatusFilters, enrolmentStatusWords, studentPaymentLabels } from "~/lib/teaching";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import type { Route } from "./+types/students";

/**
 * "Mes Étudiants": the learners of the teacher's courses (admins: every course), filtered by course,
 * status and name; progress, last activity, best quiz score, payment, certificate; CSV export.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const filters = parseStudentFilters(url.searchParams);
  const now = new Date();
  const [rows, courses] = await Promise.all([listTeacherStudents(db, user, filters), listSessionCourses(db, user)]);
  return {
    filters,
    search: url.search,
    courses: courses.map(({ id, title }) => ({ value: String(id), label: title })),
    students: rows.map((row) => ({
      key: row.enrolmentId,
      userId: row.userId,
      name: row.name,
      email: row.email,
      courseTitle: row.courseTitle,
      status: row.status,
      statusLabel: enrolmentStatusLabels[row.status],
      progress: row.progress,
      lastActivity: formatRelative(row.lastActivityAt, now),
      bestScore: row.bestScore,
      quizzesSpent: row.spentQuizzes,
      payment: row.paymentStatus ? studentPaymentLabels[row.paymentStatus] : "—",
      certificate: Boolean(row.certificateId),
    })),
  };
}

export const meta = () => [{ title: "Mes Étudiants · Espace enseignant" }];

const statusTones: Record<keyof typeof enrolmentStatusLabels, BadgeTone> = {
  pending_payment: "amber",
  active: "blue",
  completed: "green",
  paused: "neutral",
  cancelled: "red",
};

export default function StudentsPage({ loaderData }: Route.ComponentProps) {
  const { filters, search, courses, students } = loaderData;
  const learners = new Set(students.map((row) => row.userId)).size;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Mes Étudiants</h1>
          <p className="mt-2 text-slate-700">
            {plural(learners, "apprenant", "apprenants")} · {plural(students.length, "inscription", "inscriptions")}
          </p>
        </div>
        <a href={`/teacher/students/export.csv${search}`} className={buttonClasses({ variant: "outline", size: "sm" })} download>
          <Download aria-hidden="true" className="size-4" />
          Exporter en CSV
        </a>
      </div>

      <FilterBar
        label="Rechercher des étudiants"
        id="students"
        search={{ value: filters.q, placeholder: "Nom ou e-mail" }}
        choices={[
          {
            name: "cours",
            label: "Cours",
            value: filters.course ? String(filters.course) : "",
            options: [{ value: "", label: "Tous les cours" }, ...courses],
          },
          {
            name: "statut",
            label: "Statut",
            value: enrolmentStatusWords[filters.status],
            options: enrolmentStatusFilters.map((status) => ({
              value: enrolmentStatusWords[status],
              label: status === "all" ? "Tous les statuts" : enrolmentStatusLabels[status],
            })),
          },
        ]}
        clearHref={filters.q || filters.course || filters.status !== "all" ? href("/teacher/students") : null}
        className="rounded-lg border border-slate-200 bg-white p-4"
      />

      <Card>
        <CardContent className="pt-6">
          {students.length === 0 ? (
            <p className="text-slate-700">Aucun étudiant ne correspond à ces critères.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {students.map((row) => (
                <li
                  key={row.key}
                  className="grid gap-2 py-3 first:pt-0 last:pb-0 md:grid-cols-[2fr_2fr_1fr_minmax(10rem,1fr)] md:items-center"
                >
                  <div className="min-w-0">
                    <Link to={href("/teacher/students/:id", { id: row.userId })} className="font-semibold text-slate-900 hover:underline">
                      {row.name}
                    </Link>
                    <p className="truncate text-sm text-slate-600">{row.email}</p>
                  </div>
                  <div className="min-w-0 text-sm">
                    <p className="text-slate-900">{row.courseTitle}</p>
                    <p className="flex flex-wrap items-center gap-2 text-slate-600">
                      <Badge tone={statusTones[row.status]}>{row.statusLabel}</Badge>
                      Paiement : {row.payment}
                      {row.certificate ? <Badge tone="green">Certificat</Badge> : null}
                    </p>
                  </div>
                  <div className="text-sm">
                    <p className="text-slate-900">
                      <span className="sr-only">Progression : </span>
                      {row.progress} %
                    </p>
                    <div aria-hidden="true" className="mt-1 h-1.5 rounded-full bg-slate-200">
                      <div className="h-1.5 rounded-full bg-brand-600" style={{ width: `${row.progress}%` }} />
                    </div>
                  </div>
                  <div className="text-sm text-slate-600">
                    <p>Quiz : {row.bestScore === null ? "—" : `${row.bestScore} %`}</p>
                    {row.quizzesSpent > 0 ? (
                      // Their page offers « Accorder une tentative ».
                      <Badge tone="red" className="whitespace-nowrap">
                        {row.quizzesSpent === 1 ? "Tentatives épuisées" : `Tentatives épuisées (${row.quizzesSpent} quiz)`}
                      </Badge>
                    ) : null}
                    <p>Actif {row.lastActivity}</p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
