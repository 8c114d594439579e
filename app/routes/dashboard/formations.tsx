import { BookOpen, CalendarClock, Clock, Receipt, Search, Users } from "~/components/icons";
import { Link, href } from "react-router";
import { z } from "zod";
import { listCategories } from "~/.server/catalogue";
import { dbContext, userContext } from "~/.server/context";
import { listAvailableCourses, listMyEnrolments } from "~/.server/learning";
import { myCertificateSummary } from "~/.server/certificates";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { FilterBar } from "~/components/ui/filter-bar";
import { ProgressBar } from "~/components/learning/progress-bar";
import { LinkTabs } from "~/components/ui/tabs";
import { enrolmentStatusLabels } from "~/lib/learning";
import { formatPrice, formatWeeks, plural } from "~/lib/format";
import type { Route } from "./+types/formations";
import { formatDate, formatWeekdayDateTime } from "~/lib/dates";

const tabs = [
  { value: "mes-formations", label: "Mes Formations" },
  { value: "disponibles", label: "Formations Disponibles" },
  { value: "terminees", label: "Terminées" },
] as const;
type Tab = (typeof tabs)[number]["value"];

const filtersSchema = z.object({
  q: z.string().trim().max(100).catch(""),
  categorie: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z0-9-]*$/)
    .catch(""),
});

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const url = new URL(args.request.url);
  const tab: Tab = tabs.find((item) => item.value === url.searchParams.get("onglet"))?.value ?? "mes-formations";
  const filters = filtersSchema.parse({ q: url.searchParams.get("q") ?? "", categorie: url.searchParams.get("categorie") ?? "" });
  const now = new Date();
  if (tab === "disponibles") {
    const [courses, categories] = await Promise.all([
      listAvailableCourses(db, user, { q: filters.q, category: filters.categorie }),
      listCategories(db),
    ]);
    return { tab, filters, categories, available: courses, enrolled: [], completed: [] };
  }
  // Certificates only for the finished courses' tab.
  const [mine, certificates] = await Promise.all([listMyEnrolments(db, user), tab === "terminees" ? myCertificateSummary(db, user) : null]);
  const view = mine.map((row) => ({
    slug: row.slug,
    title: row.title,
    description: row.description,
    categoryName: row.categoryName,
    status: row.status,
    progress: row.progress,
    durationWeeks: row.durationWeeks,
    maxStudents: row.maxStudents,
    lessonCount: row.lessonCount,
    lessonsDone: row.lessonsDone,
    continueHref: row.lastLessonId ? `/dashboard/formations/${row.slug}/lecons/${row.lastLessonId}` : `/dashboard/formations/${row.slug}`,
    pendingReference: row.pendingPayment?.reference ?? null,
    nextLive: row.nextLiveAt && row.nextLiveAt > now ? formatWeekdayDateTime(row.nextLiveAt) : null,
    completedOn: row.completedAt ? formatDate(row.completedAt) : null,
    certified: certificates?.courseIds.has(row.courseId) ?? false,
  }));
  return {
    tab,
    filters,
    categories: [],
    available: [],
    enrolled: view.filter((row) => row.status !== "completed"),
    completed: view.filter((row) => row.status === "completed"),
  };
}

export const meta = () => [{ title: "Mes Formations" }];

type Enrolled = Route.ComponentProps["loaderData"]["enrolled"][number];

function EnrolledCard({ course }: { course: Enrolled }) {
  const titleId = `formation-${course.slug}`;
  const pending = course.status === "pending_payment";
  return (
    <li>
      <article aria-labelledby={titleId} className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap gap-2">
          <Badge tone="brand">{course.categoryName}</Badge>
          <Badge tone={pending ? "amber" : course.status === "paused" ? "neutral" : course.status === "completed" ? "green" : "blue"}>
            {enrolmentStatusLabels[course.status]}
          </Badge>
        </div>
        <h2 id={titleId} className="mt-3 text-lg font-semibold text-slate-900">
          {course.title}
        </h2>
        {pending ? (
          <p className="mt-2 text-sm text-slate-700">
            Votre inscription attend son paiement.{" "}
            {course.pendingReference ? (
              <>
                Référence <strong className="font-mono">{course.pendingReference}</strong>.
              </>
            ) : (
              "Choisissez un moyen de paiement pour l'ouvrir."
            )}
          </p>
        ) : (
          <div className="mt-3">
            <ProgressBar value={course.progress} label={`Progression dans ${course.title}`} />
            <p className="mt-1 text-sm text-slate-600">
              {course.lessonsDone} / {course.lessonCount} {course.lessonCount > 1 ? "leçons terminées" : "leçon terminée"}
            </p>
          </div>
        )}
        <ul className="mt-3 space-y-1 text-sm text-slate-600">
          {course.durationWeeks > 0 ? (
            <li className="flex items-center gap-2">
              <Clock aria-hidden="true" className="size-4" />
              {formatWeeks(course.durationWeeks)}
            </li>
          ) : null}
          <li className="flex items-center gap-2">
            <Users aria-hidden="true" className="size-4" />
            {course.maxStudents ? `${course.maxStudents} participants au plus` : "Sans limite de participants"}
          </li>
          {course.nextLive ? (
            <li className="flex items-center gap-2">
              <CalendarClock aria-hidden="true" className="size-4" />
              Prochain direct : {course.nextLive}
            </li>
          ) : null}
        </ul>
        <div className="mt-auto pt-4">
          {pending ? (
            <Link
              to={course.pendingReference ? `/dashboard/paiements/${course.pendingReference}` : `/formations/${course.slug}/inscription`}
              className={buttonClasses({ className: "w-full" })}
            >
              Terminer le paiement<span className="sr-only"> de {course.title}</span>
            </Link>
          ) : course.status === "paused" ? (
            <p className="text-sm text-slate-600">Formation en pause : contactez l'institut pour la reprendre.</p>
          ) : (
            <Link to={course.continueHref} className={buttonClasses({ className: "w-full" })}>
              Continuer<span className="sr-only"> {course.title}</span>
            </Link>
          )}
        </div>
      </article>
    </li>
  );
}

export default function MyCoursesPage({ loaderData }: Route.ComponentProps) {
  const { tab, filters, categories, available, enrolled, completed } = loaderData;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Mes Formations</h1>
          <p className="mt-1 text-slate-600">
            Vos formations en cours, celles que vous pouvez rejoindre et celles que vous avez terminées.
          </p>
        </div>
        <Link to="/dashboard/paiements" className={buttonClasses({ variant: "outline", size: "sm" })}>
          <Receipt aria-hidden="true" className="size-4" />
          Mes paiements et reçus
        </Link>
      </div>
      <LinkTabs
        label="Mes formations"
        current={tab}
        items={tabs.map((item) => ({ value: item.value, label: item.label, to: `?onglet=${item.value}` }))}
      />

      {tab === "mes-formations" ? (
        enrolled.length === 0 ? (
          <div className="rounded-lg border border-slate-200 bg-white p-8 text-center">
            <BookOpen aria-hidden="true" className="mx-auto size-10 text-slate-400" />
            <p className="mt-3 font-semibold text-slate-900">Vous ne suivez aucune formation pour l'instant.</p>
            <Link to="?onglet=disponibles" className={buttonClasses({ className: "mt-4" })}>
              Voir les formations disponibles
            </Link>
          </div>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {enrolled.map((course) => (
              <EnrolledCard key={course.slug} course={course} />
            ))}
          </ul>
        )
      ) : null}

      {tab === "disponibles" ? (
        <section aria-labelledby="disponibles-titre" className="space-y-4">
          <h2 id="disponibles-titre" className="sr-only">
            Formations disponibles
          </h2>
          <FilterBar
            label="Rechercher une formation"
            id="formations"
            hidden={{ onglet: "disponibles" }}
            search={{ value: filters.q, placeholder: "Rechercher une formation..." }}
            choices={[
              {
                name: "categorie",
                label: "Filtres : catégorie",
                value: filters.categorie,
                options: [
                  { value: "", label: "Toutes les catégories" },
                  ...categories.map((category) => ({ value: category.slug, label: category.name })),
                ],
              },
            ]}
            submit={
              <>
                <Search aria-hidden="true" className="size-4" />
                Filtrer
              </>
            }
          />
          <p className="text-sm text-slate-600" role="status">
            {plural(available.length, "formation disponible", "formations disponibles")}
          </p>
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {available.map((course) => {
              const enrolledAlready = course.enrolmentStatus !== null && course.enrolmentStatus !== "cancelled";
              const titleId = `disponible-${course.slug}`;
              return (
                <li key={course.slug}>
                  <article
                    aria-labelledby={titleId}
                    className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                  >
                    <Badge tone="brand" className="self-start">
                      {course.categoryName}
                    </Badge>
                    <h3 id={titleId} className="mt-3 text-lg font-semibold text-slate-900">
                      <Link to={href("/formations/:slug", { slug: course.slug })} className="hover:text-brand-700 hover:underline">
                        {course.title}
                      </Link>
                    </h3>
                    <p className="mt-1 line-clamp-2 text-sm text-slate-600">{course.description}</p>
                    <ul className="mt-3 space-y-1 text-sm text-slate-600">
                      {course.durationWeeks > 0 ? <li>{formatWeeks(course.durationWeeks)}</li> : null}
                      <li>
                        {plural(course.studentCount, "participant", "participants")}
                        {course.maxStudents ? ` · ${course.maxStudents} places` : ""}
                      </li>
                    </ul>
                    <div className="mt-auto flex items-center justify-between gap-3 pt-4">
                      <p className="text-lg font-bold text-brand-700">{formatPrice(course.priceFcfa)}</p>
                      {enrolledAlready ? (
                        <button type="button" disabled className={buttonClasses({ variant: "outline", size: "sm" })}>
                          Déjà inscrit
                        </button>
                      ) : (
                        <Link to={href("/formations/:slug/inscription", { slug: course.slug })} className={buttonClasses({ size: "sm" })}>
                          S'inscrire<span className="sr-only"> à {course.title}</span>
                        </Link>
                      )}
                    </div>
                  </article>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}

      {tab === "terminees" ? (
        completed.length === 0 ? (
          <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-slate-700">
            Aucune formation terminée pour l'instant. Continuez : chaque leçon compte !
          </p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {completed.map((course) => (
              <li key={course.slug}>
                <article className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
                  <Badge tone="green" className="self-start">
                    Terminée
                  </Badge>
                  <h2 className="mt-3 text-lg font-semibold text-slate-900">{course.title}</h2>
                  <p className="mt-1 text-sm text-slate-600">Terminée le {course.completedOn}</p>
                  <p className="mt-2 mb-4 text-sm text-slate-700">
                    {course.certified ? (
                      <Link to="/dashboard/certificates" className="font-medium text-brand-700 underline underline-offset-2">
                        Certificat délivré<span className="sr-only"> : {course.title}</span>
                      </Link>
                    ) : (
                      "Le certificat est délivré une fois les quiz obligatoires réussis."
                    )}
                  </p>
                  <Link
                    to={href("/dashboard/formations/:slug", { slug: course.slug })}
                    className={buttonClasses({ variant: "outline", className: "mt-auto w-full" })}
                  >
                    Revoir la formation
                  </Link>
                </article>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
