import { and, asc, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { categories, courses, institute, levels } from "../db/schema";

export type Institute = typeof institute.$inferSelect;

export async function getInstitute(db: Database): Promise<Institute> {
  const [row] = await db.select().from(institute).where(eq(institute.id, 1));
  if (!row) throw new Error("The institute's settings are missing: the seed has not run.");
  return row;
}

export async function listCategories(db: Database) {
  return db.select({ slug: categories.slug, name: categories.name }).from(categories).orderBy(asc(categories.position));
}

export async function listLevels(db: Database) {
  return db.select({ slug: levels.slug, name: levels.name }).from(levels).orderBy(asc(levels.position));
}

const publicCourseColumns = {
  id: courses.id,
  slug: courses.slug,
  title: courses.title,
  description: courses.description,
  durationWeeks: courses.durationWeeks,
  studentCount: courses.studentCount,
  rating: courses.rating,
  priceFcfa: courses.priceFcfa,
  icon: courses.icon,
  popular: courses.popular,
  modules: courses.modules,
  categorySlug: categories.slug,
  categoryName: categories.name,
  levelSlug: levels.slug,
  levelName: levels.name,
};

export type PublicCourse = Awaited<ReturnType<typeof listPublishedCourses>>[number];

/**
 * Published courses in catalogue order; drafts and archived courses never reach the public site.
 * `categorySlug` keeps one category (the footer's "Formations Tech" column).
 */
export async function listPublishedCourses(db: Database, options: { limit?: number; categorySlug?: string } = {}) {
  const published = eq(courses.status, "published");
  const query = db
    .select(publicCourseColumns)
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .where(options.categorySlug ? and(published, eq(categories.slug, options.categorySlug)) : published)
    .orderBy(asc(courses.position), asc(courses.id));
  return options.limit ? query.limit(options.limit) : query;
}

export async function getPublishedCourse(db: Database, slug: string) {
  const [row] = await db
    .select({
      ...publicCourseColumns,
      prerequisites: courses.prerequisites,
      objectives: courses.objectives,
      maxStudents: courses.maxStudents,
      updatedAt: courses.updatedAt,
    })
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .where(and(eq(courses.slug, slug), eq(courses.status, "published")));
  return row ?? null;
}

/** Slugs and dates for the sitemap. */
export async function listPublishedCourseSlugs(db: Database) {
  return db
    .select({ slug: courses.slug, updatedAt: courses.updatedAt })
    .from(courses)
    .where(eq(courses.status, "published"))
    .orderBy(asc(courses.position), asc(courses.id));
}
