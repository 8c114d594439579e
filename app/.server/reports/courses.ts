import { and, count, desc, eq, sql, sum, type SQL } from "drizzle-orm";
import { z } from "zod";
import { courseStatusLabels, courseStatusWords } from "~/lib/course-status";
import { wordChoice } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import { courseRatingSql } from "../catalogue";
import { managedCoursesScope, managedScopeWhere, type ManagedScope } from "../courses/policy";
import type { Database } from "../db/client";
import { containingPattern, containsText } from "../db/like";
import { preparedQuery } from "../db/prepared";
import { categories, courseLearnerCounts, courses, lessons, levels, payments, users } from "../db/schema";
import { toCsv } from "../http/csv";
import { formatNumericDate } from "~/lib/dates";

/**
 * "Mes Cours" (a teacher's courses) and "Gestion des Cours" (every course, for an admin): the
 * courses with figures that cross capabilities — their lessons (courses), their learners
 * (learning) and what was paid for them and kept (payments). A read model: it reads those tables,
 * writes none, and shows only what the course policy lets the actor manage.
 */

/** Filters of the course lists, read from the query string; anything unknown falls back to "all". */
export const courseFiltersSchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  status: wordChoice(courseStatusWords, "all"),
  category: z
    .string()
    .trim()
    .max(100)
    .regex(/^[a-z0-9-]*$/)
    .catch("")
    .default(""),
});
export type CourseFilters = z.infer<typeof courseFiltersSchema>;

export function parseCourseFilters(searchParams: URLSearchParams): CourseFilters {
  return courseFiltersSchema.parse({
    q: searchParams.get("q") ?? undefined,
    // French query parameters, like the URLs: ?statut=publies&categorie=tech.
    status: searchParams.get("statut") ?? undefined,
    category: searchParams.get("categorie") ?? undefined,
  });
}

/** Per course: its lessons and their total duration. */
function lessonTotals(db: Database) {
  return db
    .select({
      courseId: lessons.courseId,
      lessonCount: count().as("lesson_count"),
      totalMinutes: sum(lessons.durationMinutes).as("total_minutes"),
    })
    .from(lessons)
    .groupBy(lessons.courseId)
    .as("lesson_totals");
}

/**
 * Per course, since it opened: « Revenus nets » of ./revenue.ts over all time (collected minus
 * refunds), which is what was paid and kept: a refunded payment is no longer completed.
 */
function revenueTotals(db: Database) {
  return db
    .select({ courseId: payments.courseId, revenueFcfa: sum(payments.amount).as("revenue_fcfa") })
    .from(payments)
    .where(eq(payments.status, "completed"))
    .groupBy(payments.courseId)
    .as("revenue_totals");
}

/** The shape of a list's statement: the actor's scope and which filters are set. */
function filterShape(scope: Exclude<ManagedScope, "none">, filters: Partial<CourseFilters>) {
  return {
    scope,
    q: Boolean(filters.q?.trim()),
    status: Boolean(filters.status && filters.status !== "all"),
    category: Boolean(filters.category),
  };
}
type FilterShape = ReturnType<typeof filterShape>;

function filterConditions(shape: FilterShape): SQL | undefined {
  const conditions: SQL[] = [managedScopeWhere(shape.scope, sql.placeholder("instructorId"))];
  if (shape.q) conditions.push(containsText(sql.placeholder("pattern"), courses.title, courses.description));
  if (shape.status) conditions.push(eq(courses.status, sql.placeholder("status")));
  if (shape.category) conditions.push(eq(categories.slug, sql.placeholder("category")));
  return and(...conditions);
}

/**
 * Prepared per shape (docs/decisions/0041-prepared-learner-reads.md): with its correlated rating
 * and its totals, this statement took PostgreSQL seven times longer to plan than to run.
 */
const listQueries = new Map<string, ReturnType<typeof listQueryOf>>();
function shapeName(shape: FilterShape) {
  return `managed_courses_${shape.scope}${shape.q ? "_q" : ""}${shape.status ? "_status" : ""}${shape.category ? "_category" : ""}`;
}
function listQueryOf(shape: FilterShape) {
  return preparedQuery(shapeName(shape), (db) => {
    const lessonRows = lessonTotals(db);
    return db
      .select({
        id: courses.id,
        slug: courses.slug,
        title: courses.title,
        description: courses.description,
        status: courses.status,
        priceFcfa: courses.priceFcfa,
        categorySlug: categories.slug,
        categoryName: categories.name,
        levelName: levels.name,
        instructorId: courses.instructorId,
        instructorFirstName: users.firstName,
        instructorLastName: users.lastName,
        publishedAt: courses.publishedAt,
        createdAt: courses.createdAt,
        updatedAt: courses.updatedAt,
        lessonCount: lessonRows.lessonCount,
        totalMinutes: lessonRows.totalMinutes,
        // Learners who paid (or needed not to) and follow, followed or paused the course.
        enrolmentCount: courseLearnerCounts.learners,
        // The public rating (imported and written reviews), and the imported part of its count.
        ...courseRatingSql(courses.id),
        baselineReviewCount: courses.baselineReviewCount,
      })
      .from(courses)
      .innerJoin(categories, eq(courses.categoryId, categories.id))
      .innerJoin(levels, eq(courses.levelId, levels.id))
      .leftJoin(users, eq(courses.instructorId, users.id))
      .leftJoin(lessonRows, eq(lessonRows.courseId, courses.id))
      .leftJoin(courseLearnerCounts, eq(courseLearnerCounts.courseId, courses.id))
      .where(filterConditions(shape))
      .orderBy(desc(courses.createdAt), desc(courses.id));
  });
}

export type ManagedCourse = Awaited<ReturnType<typeof listManagedCourses>>[number];

/** The course list of "Mes Cours" / "Gestion des Cours", newest first. */
export async function listManagedCourses(db: Database, actor: Actor, filters: Partial<CourseFilters> = {}) {
  const scope = managedCoursesScope(actor);
  if (scope === "none") return [];
  const shape = filterShape(scope, filters);
  const name = shapeName(shape);
  let query = listQueries.get(name);
  if (!query) listQueries.set(name, (query = listQueryOf(shape)));
  const rows = await query(db).execute({
    instructorId: actor.id,
    pattern: containingPattern(filters.q?.trim() ?? ""),
    status: filters.status,
    category: filters.category,
  });
  return rows.map(({ instructorFirstName, instructorLastName, lessonCount, totalMinutes, enrolmentCount, ...row }) => ({
    ...row,
    lessonCount: Number(lessonCount ?? 0),
    totalMinutes: Number(totalMinutes ?? 0),
    enrolmentCount: Number(enrolmentCount ?? 0),
    instructorName: instructorFirstName || instructorLastName ? `${instructorFirstName ?? ""} ${instructorLastName ?? ""}`.trim() : null,
  }));
}

export type ManagedCourseStats = { total: number; published: number; drafts: number; enrolments: number; revenueFcfa: number };

function statsQueryOf(scope: Exclude<ManagedScope, "none">) {
  return preparedQuery(`managed_course_stats_${scope}`, (db) => {
    const revenueRows = revenueTotals(db);
    return db
      .select({
        total: count(),
        published: count(sql`case when ${eq(courses.status, "published")} then 1 end`),
        drafts: count(sql`case when ${eq(courses.status, "draft")} then 1 end`),
        enrolments: sum(courseLearnerCounts.learners),
        revenueFcfa: sum(revenueRows.revenueFcfa),
      })
      .from(courses)
      .leftJoin(courseLearnerCounts, eq(courseLearnerCounts.courseId, courses.id))
      .leftJoin(revenueRows, eq(revenueRows.courseId, courses.id))
      .where(managedScopeWhere(scope, sql.placeholder("instructorId")));
  });
}
const statsQueries = { all: statsQueryOf("all"), own: statsQueryOf("own") };

/** The five stat cards, over the courses the actor manages: revenue is what was paid and kept (refunds out). */
export async function getManagedCourseStats(db: Database, actor: Actor): Promise<ManagedCourseStats> {
  const scope = managedCoursesScope(actor);
  const [row] = scope === "none" ? [] : await statsQueries[scope](db).execute({ instructorId: actor.id });
  return {
    total: Number(row?.total ?? 0),
    published: Number(row?.published ?? 0),
    drafts: Number(row?.drafts ?? 0),
    enrolments: Number(row?.enrolments ?? 0),
    revenueFcfa: Number(row?.revenueFcfa ?? 0),
  };
}

const CSV_HEADER = [
  "Titre",
  "Catégorie",
  "Niveau",
  "Statut",
  "Prix (FCFA)",
  "Leçons",
  "Durée totale (min)",
  "Inscriptions",
  "Enseignant",
  "Mis à jour le",
] as const;

/** The courses of the current search and filters, as the list shows them, in a CSV document. */
export async function exportCoursesCsv(db: Database, actor: Actor, filters: Partial<CourseFilters> = {}, now = new Date()) {
  const rows = await listManagedCourses(db, actor, filters);
  const body = toCsv(
    CSV_HEADER,
    rows.map((row) => [
      row.title,
      row.categoryName,
      row.levelName,
      courseStatusLabels[row.status],
      row.priceFcfa,
      row.lessonCount,
      row.totalMinutes,
      row.enrolmentCount,
      row.instructorName ?? "",
      formatNumericDate(row.updatedAt),
    ]),
  );
  return { filename: `cours-${now.toISOString().slice(0, 10)}.csv`, body, count: rows.length };
}
