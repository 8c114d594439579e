import { formatNumber } from "~/lib/format";
import { and, asc, count, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { REVIEW_LIMITS } from "~/lib/reviews";
import { MAX_SERIAL_ID } from "~/lib/limits";
import type { Actor } from "../auth/actor";
import { courseRatingSql } from "../catalogue";
import { managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import { readPage } from "../db/paging";
import { courseReviews, courses, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { followsCourse } from "../learning";
import { canModerateReviews, canReadCourseReviews, canReviewCourse } from "./policy";

/**
 * Course reviews: a learner who follows a course rates it (1 to 5) with a short text, once — a
 * second submit edits the first (one row per learner and course); the public pages list the
 * latest; the course's teacher and administrators read them all; administrators hide an abusive
 * one. The figures (average, count) combine these with the institute's imported baseline: see
 * courseRatingSql in the catalogue. Owns the course_reviews table.
 */

export const REVIEWS_PAGE_SIZE = 20;

const reviewInput = z.object({
  rating: z.coerce
    .number({ error: "Choisissez une note de 1 à 5 étoiles." })
    .int("Choisissez une note de 1 à 5 étoiles.")
    .min(REVIEW_LIMITS.minRating, "Choisissez une note de 1 à 5 étoiles.")
    .max(REVIEW_LIMITS.maxRating, "Choisissez une note de 1 à 5 étoiles."),
  body: z
    .string({ error: "Votre avis est obligatoire." })
    .trim()
    .normalize("NFC")
    .min(1, "Votre avis est obligatoire.")
    .min(REVIEW_LIMITS.minBody, `Votre avis doit compter au moins ${REVIEW_LIMITS.minBody} caractères.`)
    .max(REVIEW_LIMITS.maxBody, `Votre avis ne doit pas dépasser ${formatNumber(REVIEW_LIMITS.maxBody)} caractères.`),
});
export type ReviewInput = z.input<typeof reviewInput>;

/** "Aminata T.": the first name and the initial of the last, as the public pages sign a review. */
const publicName = sql<string>`trim(${users.firstName} || ' ' || coalesce(left(nullif(${users.lastName}, ''), 1) || '.', ''))`;
const fullName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

export type MyReview = { id: number; rating: number; body: string; createdAt: Date; updatedAt: Date; hidden: boolean };

/** The actor's review of the course, if they wrote one (hidden or not: it is theirs). */
export async function getMyReview(db: Database, actor: Actor, courseId: number): Promise<MyReview | null> {
  const [row] = await db
    .select()
    .from(courseReviews)
    .where(and(eq(courseReviews.courseId, courseId), eq(courseReviews.userId, actor.id)));
  return row
    ? { id: row.id, rating: row.rating, body: row.body, createdAt: row.createdAt, updatedAt: row.updatedAt, hidden: row.hiddenAt !== null }
    : null;
}

/**
 * Writes the actor's review of the course, or edits it: only a learner who follows the course
 * (refused: "forbidden"). One row per learner and course, whatever is clicked twice; a review an
 * administrator hid stays hidden when edited.
 */
export async function saveReview(db: Database, actor: Actor, courseId: number, input: unknown, now = new Date()) {
  const data = validate(reviewInput, input);
  if (!canReviewCourse(actor, await followsCourse(db, actor, courseId))) {
    throw AppError.forbidden("Seuls les apprenants inscrits à cette formation peuvent la noter.", "not_enrolled");
  }
  const [row] = await db
    .insert(courseReviews)
    .values({ courseId, userId: actor.id, rating: data.rating, body: data.body, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [courseReviews.courseId, courseReviews.userId],
      set: { rating: data.rating, body: data.body, updatedAt: now },
    })
    // xmax is 0 on a row this statement inserted, set on one it updated.
    .returning({ id: courseReviews.id, created: sql<boolean>`(xmax = 0)` });
  return { id: row!.id, created: Boolean(row!.created) };
}

export type PublicReview = { id: number; name: string; rating: number; body: string; createdAt: Date };

/** The latest reviews of a course that anyone may read (not hidden), newest first. */
export async function listPublicReviews(db: Database, courseId: number, limit = 6): Promise<PublicReview[]> {
  return db
    .select({
      id: courseReviews.id,
      name: publicName,
      rating: courseReviews.rating,
      body: courseReviews.body,
      createdAt: courseReviews.createdAt,
    })
    .from(courseReviews)
    .innerJoin(users, eq(courseReviews.userId, users.id))
    .where(and(eq(courseReviews.courseId, courseId), isNull(courseReviews.hiddenAt)))
    .orderBy(desc(courseReviews.createdAt), desc(courseReviews.id))
    .limit(limit);
}

export type StaffReviewFilters = { courseId?: number | null; hidden?: "all" | "visible" | "hidden"; page?: number };

/**
 * The reviews of the courses the actor manages (a teacher's own, every course for an
 * administrator), hidden ones included and marked, newest first, one page at a time.
 */
export async function listCourseReviews(db: Database, actor: Actor, filters: StaffReviewFilters = {}) {
  const where: SQL | undefined = and(
    managedCoursesWhere(actor),
    filters.courseId ? eq(courseReviews.courseId, filters.courseId) : undefined,
    filters.hidden === "hidden"
      ? sql`${courseReviews.hiddenAt} is not null`
      : filters.hidden === "visible"
        ? isNull(courseReviews.hiddenAt)
        : undefined,
  );
  const { rows, total, page, pageCount } = await readPage({
    asked: filters.page,
    size: REVIEWS_PAGE_SIZE,
    count: () => db.select({ total: count() }).from(courseReviews).innerJoin(courses, eq(courseReviews.courseId, courses.id)).where(where),
    rows: (offset) =>
      db
        .select({
          id: courseReviews.id,
          courseId: courses.id,
          courseTitle: courses.title,
          courseSlug: courses.slug,
          author: fullName,
          rating: courseReviews.rating,
          body: courseReviews.body,
          createdAt: courseReviews.createdAt,
          updatedAt: courseReviews.updatedAt,
          hiddenAt: courseReviews.hiddenAt,
        })
        .from(courseReviews)
        .innerJoin(courses, eq(courseReviews.courseId, courses.id))
        .innerJoin(users, eq(courseReviews.userId, users.id))
        .where(where)
        .orderBy(desc(courseReviews.createdAt), desc(courseReviews.id))
        .limit(REVIEWS_PAGE_SIZE)
        .offset(offset),
  });
  return { reviews: rows, total, page, pageCount };
}

export type CourseRatingParts = Awaited<ReturnType<typeof listCourseRatings>>[number];

/**
 * The rating of each course the actor manages, in its two parts: the institute's imported
 * baseline (average and count) and the reviews written here and not hidden (average and count),
 * with the figure the public pages show (courseRatingSql) and the reviews hidden.
 */
export async function listCourseRatings(db: Database, actor: Actor) {
  // Qualified by hand: Drizzle writes a one-table select's columns bare, and "id" would name rr's.
  const courseId = sql`${courses}."id"`;
  const visible = sql`rr.course_id = ${courseId} and rr.hidden_at is null`;
  const rows = await db
    .select({
      id: courses.id,
      title: courses.title,
      slug: courses.slug,
      baselineRating: courses.baselineRating,
      baselineReviewCount: courses.baselineReviewCount,
      platformRating: sql<number | null>`(select round(avg(rr.rating), 1)::float8 from course_reviews rr where ${visible})`.mapWith(Number),
      platformReviewCount: sql<number>`(select count(*) from course_reviews rr where ${visible})`.mapWith(Number),
      hiddenCount:
        sql<number>`(select count(*) from course_reviews rr where rr.course_id = ${courseId} and rr.hidden_at is not null)`.mapWith(Number),
      ...courseRatingSql(courses.id),
    })
    .from(courses)
    .where(managedCoursesWhere(actor))
    .orderBy(asc(courses.position), asc(courses.title), asc(courses.id));
  return rows;
}

/** Hides an abusive review from the public pages and the figures, or shows it again: administrators only. */
export async function setReviewHidden(db: Database, actor: Actor, reviewId: number, hidden: boolean, now = new Date()) {
  if (!canModerateReviews(actor)) throw AppError.forbidden("Seuls les administrateurs modèrent les avis.");
  if (!Number.isInteger(reviewId) || reviewId < 1 || reviewId > MAX_SERIAL_ID) throw AppError.notFound("Avis introuvable.");
  const [row] = await db
    .update(courseReviews)
    .set(hidden ? { hiddenAt: now, hiddenById: actor.id } : { hiddenAt: null, hiddenById: null })
    .where(eq(courseReviews.id, reviewId))
    .returning({ id: courseReviews.id });
  if (!row) throw AppError.notFound("Avis introuvable.");
}

export { canModerateReviews, canReadCourseReviews, canReviewCourse };
