import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { courseStatuses } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { categories, courses, levels, users } from "../db/schema";

/** Filters of the course lists, read from the query string; anything unknown falls back to "all". */
export const courseFiltersSchema = z.object({
  q: z.string().trim().max(100).catch("").default(""),
  status: z.enum(["all", ...courseStatuses]).catch("all").default("all"),
  category: z.string().trim().max(100).regex(/^[a-z0-9-]*$/).catch("").default(""),
});
export type CourseFilters = z.infer<typeof courseFiltersSchema>;

export function parseCourseFilters(searchParams: URLSearchParams): CourseFilters {
  return courseFiltersSchema.parse({
    q: searchParams.get("q") ?? undefined,
    status: searchParams.get("status") ?? undefined,
    category: searchParams.get("category") ?? undefined,
  });
}

/** The courses an actor manages: every course for an admin, their own for a teacher, none otherwise. */
export function managedScope(actor: Actor): SQL {
  if (actor.role === "admin") return sql`true`;
  if (actor.role === "teacher") return eq(courses.instructorId, actor.id);
  return sql`false`;
}

function filterConditions(actor: Actor, filters: Partial<CourseFilters>): SQL | undefined {
  const conditions: SQL[] = [managedScope(actor)];
  const q = filters.q?.trim();
  if (q) {
    conditions.push(containsText(q, courses.title, courses.description));
  }
  if (filters.status && filters.status !== "all") conditions.push(eq(courses.status, filters.status));
  if (filters.category) conditions.push(eq(categories.slug, filters.category));
  return and(...conditions);
}

// Correlated subqueries name their tables in full: Drizzle leaves columns unqualified in a query
// on one table, where "course_id" = "id" would compare the inner table with itself.
const lessonCount = sql<number>`(select count(*) from "lessons" where "lessons"."course_id" = "courses"."id")`.mapWith(Number);
const totalMinutes = sql<number>`(select coalesce(sum("lessons"."duration_minutes"), 0) from "lessons" where "lessons"."course_id" = "courses"."id")`.mapWith(Number);
/** Learners who paid (or needed not to) and follow, followed or paused the course. */
const enrolmentCount = sql<number>`(select count(*) from "enrolments" where "enrolments"."course_id" = "courses"."id" and "enrolments"."status" in ('active', 'completed', 'paused'))`.mapWith(Number);
/** What was paid for the course and kept (a refunded payment is no longer completed). */
const revenue = sql<number>`(select coalesce(sum("payments"."amount"), 0) from "payments" where "payments"."course_id" = "courses"."id" and "payments"."status" = 'completed')`.mapWith(Number);

export type ManagedCourse = Awaited<ReturnType<typeof listManagedCourses>>[number];

/** The course list of "Mes Cours" / "Gestion des Cours", newest first. */
export async function listManagedCourses(db: Database, actor: Actor, filters: Partial<CourseFilters> = {}) {
  const rows = await db
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
      lessonCount,
      totalMinutes,
      enrolmentCount,
    })
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .leftJoin(users, eq(courses.instructorId, users.id))
    .where(filterConditions(actor, filters))
    .orderBy(desc(courses.createdAt), desc(courses.id));
  return rows.map(({ instructorFirstName, instructorLastName, ...row }) => ({
    ...row,
    instructorName: instructorFirstName || instructorLastName ? `${instructorFirstName ?? ""} ${instructorLastName ?? ""}`.trim() : null,
  }));
}

export type ManagedCourseStats = { total: number; published: number; drafts: number; enrolments: number; revenueFcfa: number };

/** The five stat cards, over the courses the actor manages: revenue is what was paid and kept (refunds out). */
export async function getManagedCourseStats(db: Database, actor: Actor): Promise<ManagedCourseStats> {
  const [row] = await db
    .select({
      total: count(),
      published: count(sql`case when ${courses.status} = 'published' then 1 end`),
      drafts: count(sql`case when ${courses.status} = 'draft' then 1 end`),
      enrolments: sql<number>`coalesce(sum(${enrolmentCount}), 0)`.mapWith(Number),
      revenueFcfa: sql<number>`coalesce(sum(${revenue}), 0)`.mapWith(Number),
    })
    .from(courses)
    .where(managedScope(actor));
  return {
    total: Number(row?.total ?? 0),
    published: Number(row?.published ?? 0),
    drafts: Number(row?.drafts ?? 0),
    enrolments: row?.enrolments ?? 0,
    revenueFcfa: row?.revenueFcfa ?? 0,
  };
}
