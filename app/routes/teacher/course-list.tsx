import { BookOpen, CircleDollarSign, Download, FilePen, Plus, Send, Users } from "~/components/icons";
import { Form, isRouteErrorResponse, Link, useNavigation, href } from "react-router";
import { z } from "zod";
import { listCategories } from "~/.server/catalogue";
import { dbContext, userContext } from "~/.server/context";
import { getManagedCourseStats, listManagedCourses, parseCourseFilters, type ManagedCourse } from "~/.server/reports";
import { changeCourseStatus } from "~/.server/courses/status";
import { isAppError } from "~/.server/errors";
import { rethrowAsHttp } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { StatCard } from "~/components/ui/stat-card";
import { formatRating } from "~/components/public/links";
import { Badge, type BadgeTone } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { Select } from "~/components/ui/select";
import { courseStatuses, courseStatusLabels, courseStatusWords, type CourseStatus } from "~/lib/course-status";
import { revenueLabels } from "~/lib/finance";
import { formatFcfa, formatPrice, plural } from "~/lib/format";
import { courseListArea } from "./course-area.server";
import type { Route } from "./+types/course-list";
import { formatDate } from "~/lib/dates";

/**
 * "Mes Cours" (/teacher/courses: a teacher's own courses) and "Gestion des Cours" (/admin/my-courses:
 * every course): one module, two route ids; the area comes from the path, the guard from the layout.
 */

/** The list's own query string (search and filters), kept across actions and in the CSV link. */
function listSearch(url: URL): string {
  const params = new URLSearchParams();
  for (const key of ["q", "statut", "categorie"]) {
    const value = url.searchParams.get(key);
    if (value) params.set(key, value);
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

export async function loader(args: Route.LoaderArgs) {
  const actor = args.context.get(userContext);
  const area = courseListArea(args.request);
  const db = args.context.get(dbContext);
  const url = new URL(args.request.url);
  const filters = parseCourseFilters(url.searchParams);
  const [stats, list, categories] = await Promise.all([
    getManagedCourseStats(db, actor),
    listManagedCourses(db, actor, filters),
    listCategories(db),
  ]);
  return {
    area,
    filters,
    search: listSearch(url),
    stats,
    categories,
    // Dates are written on the server, so the page reads the same with or without JavaScript.
    courses: list.map((course) => ({ ...course, updatedLabel: formatDate(course.updatedAt) })),
  };
}

const statusActionSchema = z.object({
  intent: z.literal("change-status"),
  courseId: z.coerce.number().int().positive(),
  status: z.enum(courseStatuses),
});

export async function action(args: Route.ActionArgs) {
  const actor = args.context.get(userContext);
  const area = courseListArea(args.request);
  const db = args.context.get(dbContext);
  const back = `${area.path}${listSearch(new URL(args.request.url))}`;
  const parsed = statusActionSchema.safeParse(Object.fromEntries(await args.request.formData()));
  const failure = (reason: string) =>
    redirectWithToast(
      back,
      { type: "error", title: "Erreur", description: `Impossible de mettre à jour le statut du cours. ${reason}` },
      { status: 303 },
    );
  if (!parsed.success) return failure("La demande est incomplète ou invalide.");
  try {
    const { message } = await changeCourseStatus(db, actor, parsed.data.courseId, parsed.data.status);
    return redirectWithToast(back, { type: "success", title: message }, { status: 303 });
  } catch (error) {
    // A move the teacher may not make: said in a toast. Another teacher's course, or none: a 404 that tells nothing.
    if (isAppError(error, "forbidden")) return failure(error.message);
    rethrowAsHttp(error);
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.area.admin ? "Gestion des Cours · Administration" : "Mes Cours · Espace enseignant" }];
}

const statusTones: Record<CourseStatus, BadgeTone> = { draft: "amber", published: "green", archived: "neutral" };

type CourseView = ManagedCourse & { updatedLabel: string };

function StatusForm({ course, admin }: { course: CourseView; admin: boolean }) {
  const navigation = useNavigation();
  const pending = navigation.formData?.get("intent") === "change-status" && navigation.formData?.get("courseId") === String(course.id);
  if (admin) {
    const selectId = `status-${course.id}`;
    return (
      // Keyed by status so the select shows the stored status again after each change.
      <Form method="post" key={`${course.id}-${course.status}`} className="flex items-center gap-2">
        <input type="hidden" name="intent" value="change-status" />
        <input type="hidden" name="courseId" value={course.id} />
        <label htmlFor={selectId} className="sr-only">
          Statut de « {course.title} »
        </label>
        <Select
          id={selectId}
          name="status"
          defaultValue={course.status}
          compact
          options={courseStatuses.map((status) => ({ value: status, label: courseStatusLabels[status] }))}
        />
        <Button
          type="submit"
          size="sm"
          variant="outline"
          disabled={pending}
          aria-label={`Appliquer le statut choisi à « ${course.title} »`}
        >
          {pending ? "…" : "Appliquer"}
        </Button>
      </Form>
    );
  }
  // A teacher: "Publier" a draft, "Archiver" a published course, nothing else (the spec's states).
  const next = course.status === "draft" ? "published" : course.status === "published" ? "archived" : null;
  if (!next) return null;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="change-status" />
      <input type="hidden" name="courseId" value={course.id} />
      <input type="hidden" name="status" value={next} />
      <Button
        type="submit"
        size="sm"
        variant={next === "published" ? "primary" : "outline"}
        disabled={pending}
        aria-label={`${next === "published" ? "Publier" : "Archiver"} « ${course.title} »`}
      >
        {pending ? "…" : next === "published" ? "Publier" : "Archiver"}
      </Button>
    </Form>
  );
}

function CourseCard({ course, admin }: { course: CourseView; admin: boolean }) {
  const titleId = `course-${course.id}-title`;
  return (
    <li>
      <article aria-labelledby={titleId} className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={statusTones[course.status]}>{courseStatusLabels[course.status]}</Badge>
          <Badge tone="brand">{course.categoryName}</Badge>
          <Badge>{course.levelName}</Badge>
        </div>
        <h3 id={titleId} className="mt-3 text-lg font-semibold text-slate-900">
          {course.title}
        </h3>
        <p className="mt-1 line-clamp-2 text-sm text-slate-600">{course.description}</p>
        <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">Prix</dt>
          <dd className="text-right font-semibold text-slate-900">{formatPrice(course.priceFcfa)}</dd>
          <dt className="text-slate-600">Contenu</dt>
          <dd className="text-right text-slate-900">
            <span className="whitespace-nowrap">{plural(course.lessonCount, "leçon", "leçons")}</span>
            {course.totalMinutes > 0 && <span className="whitespace-nowrap">{` · ${course.totalMinutes} min`}</span>}
          </dd>
          <dt className="text-slate-600">Inscrits</dt>
          <dd className="text-right text-slate-900">
            {/* The per-course list of "Mes Étudiants" (admins reach it too: /teacher is open to them). */}
            <Link to={`/teacher/students?cours=${course.id}`} className="font-medium text-brand-700 underline underline-offset-2">
              {course.enrolmentCount}
              <span className="sr-only"> : voir les étudiants de « {course.title} »</span>
            </Link>
          </dd>
          <dt className="text-slate-600">Note</dt>
          <dd className="text-right text-slate-900">
            <Link
              to={`${admin ? "/admin" : "/teacher"}/avis?cours=${course.id}`}
              className="font-medium text-brand-700 underline underline-offset-2"
            >
              {course.rating === null ? "Aucun avis" : `${formatRating(course.rating)} (${plural(course.reviewCount, "avis", "avis")})`}
              <span className="sr-only"> : voir les avis de « {course.title} »</span>
            </Link>
            {course.baselineReviewCount > 0 ? (
              <span className="block text-xs text-slate-600">dont {course.baselineReviewCount} importés</span>
            ) : null}
          </dd>
          {admin && (
            <>
              <dt className="text-slate-600">Enseignant</dt>
              <dd className="text-right text-slate-900">{course.instructorName ?? "Non attribué"}</dd>
            </>
          )}
        </dl>
        <p className="mt-3 text-xs text-slate-600">Mis à jour le {course.updatedLabel}</p>
        <div className="mt-auto flex flex-wrap items-center gap-2 border-t border-slate-100 pt-4">
          <Link
            to={`${href("/dashboard/course-creator/:id", { id: String(course.id) })}?retour=${admin ? "/admin/my-courses" : "/teacher/courses"}`}
            className={buttonClasses({ variant: "outline", size: "sm" })}
            aria-label={`Modifier « ${course.title} »`}
          >
            <FilePen aria-hidden="true" className="size-4" />
            Modifier
          </Link>
          <Link
            to={href("/formations/:slug", { slug: course.slug })}
            className={buttonClasses({ variant: "ghost", size: "sm" })}
            aria-label={`Aperçu de « ${course.title} »`}
          >
            Aperçu
          </Link>
          {admin && (
            <Link
              to={`/admin/inscriptions?cours=${course.id}`}
              className={buttonClasses({ variant: "ghost", size: "sm" })}
              aria-label={`Gérer les inscriptions de « ${course.title} »`}
            >
              Inscriptions
            </Link>
          )}
          <div className="ml-auto">
            <StatusForm course={course} admin={admin} />
          </div>
        </div>
      </article>
    </li>
  );
}

export default function CourseListPage({ loaderData }: Route.ComponentProps) {
  const { area, filters, search, stats, categories, courses } = loaderData;
  const filtered = Boolean(filters.q || filters.status !== "all" || filters.category);
  const iconClass = "size-5";
  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{area.admin ? "Gestion des Cours" : "Mes Cours"}</h1>
          <p className="mt-1 text-slate-600">
            {area.admin ? "Tous les cours de la plateforme et leur statut." : "Vos cours, leur contenu et leur publication."}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`${area.path}/export.csv${search}`} download className={buttonClasses({ variant: "outline" })}>
            <Download aria-hidden="true" className="size-4" />
            Exporter CSV
          </a>
          <Link to={area.createHref} className={buttonClasses()}>
            <Plus aria-hidden="true" className="size-4" />
            Nouveau cours
          </Link>
        </div>
      </header>

      <section aria-labelledby="course-stats-title">
        <h2 id="course-stats-title" className="sr-only">
          Statistiques des cours
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
          <StatCard label="Total cours" value={stats.total} icon={<BookOpen className={iconClass} />} />
          <StatCard label="Publiés" value={stats.published} icon={<Send className={iconClass} />} />
          <StatCard label="Brouillons" value={stats.drafts} icon={<FilePen className={iconClass} />} />
          <StatCard label="Inscriptions" value={stats.enrolments} icon={<Users className={iconClass} />} />
          <StatCard
            label={revenueLabels.net}
            wide
            value={formatFcfa(stats.revenueFcfa)}
            note="depuis l'ouverture : encaissé moins remboursements"
            icon={<CircleDollarSign className={iconClass} />}
          />
        </dl>
      </section>

      <Card aria-labelledby="courses-title">
        <CardHeader className="space-y-3">
          <CardTitle id="courses-title">Cours</CardTitle>
          <FilterBar
            label="Rechercher des cours"
            id="courses"
            search={{ value: filters.q, placeholder: "Titre ou description" }}
            choices={[
              {
                name: "statut",
                label: "Statut",
                value: courseStatusWords[filters.status],
                className: "sm:w-48",
                options: [
                  { value: courseStatusWords.all, label: "Tous les statuts" },
                  ...courseStatuses.map((status) => ({ value: courseStatusWords[status], label: courseStatusLabels[status] })),
                ],
              },
              {
                name: "categorie",
                label: "Catégorie",
                value: filters.category,
                options: [
                  { value: "", label: "Toutes les catégories" },
                  ...categories.map((category) => ({ value: category.slug, label: category.name })),
                ],
              },
            ]}
            clearHref={filtered ? area.path : null}
          />
          <p className="text-sm text-slate-600" aria-live="polite">
            {plural(courses.length, "cours trouvé", "cours trouvés")}
          </p>
        </CardHeader>
        <CardContent>
          {courses.length > 0 ? (
            <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
              {courses.map((course) => (
                <CourseCard key={course.id} course={course} admin={area.admin} />
              ))}
            </ul>
          ) : (
            <div className="flex flex-col items-center gap-3 py-10 text-center">
              <BookOpen aria-hidden="true" className="size-10 text-slate-400" />
              <p className="text-lg font-semibold text-slate-900">Aucun cours trouvé</p>
              <p className="text-sm text-slate-600">
                {filtered ? "Aucun cours ne correspond à ces critères." : "Vous n'avez pas encore de cours."}
              </p>
              <Link to={area.createHref} className={buttonClasses()}>
                <Plus aria-hidden="true" className="size-4" />
                Créer votre premier cours
              </Link>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6 text-slate-900">
        <h1 className="text-lg font-semibold">Cours introuvable</h1>
        <p>Ce cours n'existe pas ou ne fait pas partie de vos cours.</p>
      </div>
    );
  }
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6 text-red-900">
      <h1 className="text-lg font-semibold">Erreur</h1>
      <p>Impossible de charger vos cours. Réessayez dans un instant.</p>
    </div>
  );
}
