import { and, asc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { thumbnailImage } from "~/lib/uploads";
import type { Actor } from "../auth/actor";
import { cachedRead } from "../cache";
import { canViewCourse } from "../courses/policy";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { AppError } from "../errors";
import { categories, courseLearnerCounts, courses, files, institute, lessons, levels, videoTranscodes } from "../db/schema";

export type Institute = typeof institute.$inferSelect;

/**
 * Reads shared by every visitor, kept in memory between changes (app/.server/cache): callers
 * treat what they get as read-only, since the next caller gets the same objects.
 */
const CATALOGUE_TABLES = ["courses", "categories", "levels", "files", "lessons", "course_learner_counts", "course_reviews"] as const;

export async function getInstitute(db: Database): Promise<Institute> {
  return cachedRead(db, "institute", ["institute"], async () => {
    const [row] = await db.select().from(institute).where(eq(institute.id, 1));
    if (!row) throw new Error("The institute's settings are missing: the seed has not run.");
    return row;
  });
}

export async function listCategories(db: Database) {
  return cachedRead(db, "categories", ["categories"], () =>
    db.select({ slug: categories.slug, name: categories.name }).from(categories).orderBy(asc(categories.position)),
  );
}

export async function listLevels(db: Database) {
  return cachedRead(db, "levels", ["levels"], () =>
    db.select({ slug: levels.slug, name: levels.name }).from(levels).orderBy(asc(levels.position)),
  );
}

/**
 * "N étudiants" on a course: its learners here (course_learner_counts, kept by learning in the
 * transaction that opens or closes an enrolment: active, completed or paused, not pending or
 * cancelled). The imported figure (courses.baseline_student_count) is never added to it; the course
 * page states it apart (docs/decisions/0044-public-student-counts.md).
 */
export const publicStudentCount =
  sql<number>`coalesce((select ${courseLearnerCounts.learners} from ${courseLearnerCounts} where ${courseLearnerCounts.courseId} = ${courses.id}), 0)`.mapWith(
    Number,
  );

/**
 * A course's rating as every page and report shows it: the institute's imported reviews
 * (courses.baseline_rating over baseline_review_count) combined with the reviews written here and
 * not hidden (course_reviews, kept by the reviews capability). `rating`: the average, one
 * decimal, null when the course has no review at all; `reviewCount`: both counts added.
 * `courseId` is the course's id column (`courses.id`) or any SQL naming it (sql`c.id` in a raw
 * query); both are scalar subqueries on their own aliases, usable in a select, an order by or a where.
 */
export function courseRatingSql(courseId: SQLWrapper) {
  // The id is read in a derived table of its own (k), where the inner tables' columns are out of
  // reach: an unqualified "id" (Drizzle leaves a one-table select unqualified) names the caller's row.
  const course = sql`(select ${courseId} as course_id) k join courses rc on rc.id = k.course_id`;
  const reviewed = sql`(select count(*) from course_reviews rr where rr.course_id = rc.id and rr.hidden_at is null)`;
  const stars = sql`(select coalesce(sum(rr.rating), 0) from course_reviews rr where rr.course_id = rc.id and rr.hidden_at is null)`;
  return {
    rating: sql<number | null>`(select case when rc.baseline_review_count + ${reviewed} = 0 then null
      else round((coalesce(rc.baseline_rating, 0) * rc.baseline_review_count + ${stars}) / (rc.baseline_review_count + ${reviewed})::numeric, 1)::float8 end
      from ${course})`.mapWith(Number),
    reviewCount: sql<number>`(select rc.baseline_review_count + ${reviewed} from ${course})`.mapWith(Number),
  };
}

const publicRating = courseRatingSql(courses.id);

const publicCourseColumns = {
  id: courses.id,
  slug: courses.slug,
  title: courses.title,
  description: courses.description,
  durationWeeks: courses.durationWeeks,
  studentCount: publicStudentCount,
  rating: publicRating.rating,
  reviewCount: publicRating.reviewCount,
  priceFcfa: courses.priceFcfa,
  icon: courses.icon,
  popular: courses.popular,
  // A course written in the course form lists its lessons, the seeded catalogue its modules.
  modules: sql<string[]>`case when cardinality(${courses.modules}) > 0 then ${courses.modules}
    else array(select ${lessons.title} from ${lessons} where ${lessons.courseId} = ${courses.id} order by ${lessons.position}, ${lessons.id}) end`,
  thumbnailFileId: courses.thumbnailFileId,
  thumbnailVariants: files.variants,
  categorySlug: categories.slug,
  categoryName: categories.name,
  levelSlug: levels.slug,
  levelName: levels.name,
};

export type PublicCourse = Awaited<ReturnType<typeof listPublishedCourses>>[number];

/** A row's cover image as pages show it (the file's id and widths stay on the server). */
function withThumbnail<T extends { thumbnailFileId: string | null; thumbnailVariants: Record<string, string> | null }>(row: T) {
  const { thumbnailFileId, thumbnailVariants, ...rest } = row;
  return { ...rest, thumbnail: thumbnailImage(thumbnailFileId, thumbnailVariants) };
}

/**
 * Published courses in catalogue order; drafts and archived courses never reach the public site.
 * `categorySlug` keeps one category (the footer's "Formations Tech" column).
 */
export async function listPublishedCourses(db: Database, options: { limit?: number; categorySlug?: string } = {}) {
  return cachedRead(db, `published-courses:${options.limit ?? ""}:${options.categorySlug ?? ""}`, CATALOGUE_TABLES, () =>
    readPublishedCourses(db, options),
  );
}

async function readPublishedCourses(db: Database, options: { limit?: number; categorySlug?: string }) {
  const published = eq(courses.status, "published");
  const query = db
    .select(publicCourseColumns)
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .leftJoin(files, eq(courses.thumbnailFileId, files.id))
    .where(options.categorySlug ? and(published, eq(categories.slug, options.categorySlug)) : published)
    .orderBy(asc(courses.position), asc(courses.id));
  return (await (options.limit ? query.limit(options.limit) : query)).map(withThumbnail);
}

/**
 * A course's public page as `viewer` may see it (canViewCourse: published for everyone, a draft or
 * an archived course for those who manage it, as a preview); "not found" otherwise.
 */
export async function getCourseForViewer(db: Database, viewer: Actor | null, slug: string) {
  const course = await getCourseBySlug(db, slug);
  if (!course || !canViewCourse(viewer, course)) throw AppError.notFound("Formation introuvable.");
  return course;
}

/** A course by its slug, whatever its status: for readers that apply the course policy themselves. */
export async function getCourseBySlug(db: Database, slug: string) {
  return cachedRead(db, `course:${slug}`, CATALOGUE_TABLES, () => readCourseBySlug(db, slug));
}

async function readCourseBySlug(db: Database, slug: string) {
  const [row] = await db
    .select({
      ...publicCourseColumns,
      status: courses.status,
      instructorId: courses.instructorId,
      prerequisites: courses.prerequisites,
      objectives: courses.objectives,
      maxStudents: courses.maxStudents,
      baselineReviewCount: courses.baselineReviewCount,
      baselineStudentCount: courses.baselineStudentCount,
      updatedAt: courses.updatedAt,
    })
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .leftJoin(files, eq(courses.thumbnailFileId, files.id))
    .where(eq(courses.slug, slug));
  return row ? withThumbnail(row) : null;
}

/** A course's lessons as its public page lists them: titles, durations, free previews. */
export async function listLessonOutline(db: Database, courseId: number) {
  return cachedRead(db, `lesson-outline:${courseId}`, ["lessons"], () =>
    db
      .select({ id: lessons.id, title: lessons.title, durationMinutes: lessons.durationMinutes, isFree: lessons.isFree })
      .from(lessons)
      .where(eq(lessons.courseId, courseId))
      .orderBy(asc(lessons.position), asc(lessons.id)),
  );
}

/** A lesson's document, as the player lists it. */
type Attachment = { id: string; name: string; size: number; contentType: string };

/**
 * The lesson with its uploaded video and its attachments in one statement (each one a page sends
 * costs it and the database a wake-up), its course given by id or by slug.
 */
function lessonContentQuery(courseGiven: "id" | "slug", name: string) {
  return preparedQuery(name, (db) => {
    const fileColumns = { id: files.id, name: files.originalName, size: files.size, contentType: files.contentType };
    const attachment = alias(files, "attachment");
    const attachmentList = db
      .select({
        list: sql`json_agg(json_build_object('id', ${attachment.id}, 'name', ${attachment.originalName}, 'size', ${attachment.size}, 'contentType', ${attachment.contentType}) order by ${attachment.createdAt}, ${attachment.id})`,
      })
      .from(attachment)
      .where(and(eq(attachment.lessonId, lessons.id), eq(attachment.purpose, "lesson_attachment")));
    return db
      .select({
        lesson: lessons,
        video: fileColumns,
        renditions: videoTranscodes.renditions,
        posterKey: videoTranscodes.posterKey,
        attachments: sql<Attachment[]>`coalesce((${attachmentList}), '[]')`,
      })
      .from(lessons)
      .leftJoin(files, eq(files.id, lessons.videoFileId))
      .leftJoin(videoTranscodes, eq(videoTranscodes.fileId, files.id))
      .where(
        and(
          eq(lessons.id, sql.placeholder("lessonId")),
          courseGiven === "id"
            ? eq(lessons.courseId, sql.placeholder("course"))
            : inArray(
                lessons.courseId,
                db
                  .select({ id: courses.id })
                  .from(courses)
                  .where(eq(courses.slug, sql.placeholder("course"))),
              ),
        ),
      );
  });
}
const lessonContentByCourseId = lessonContentQuery("id", "lesson_content_by_course_id");
const lessonContentByCourseSlug = lessonContentQuery("slug", "lesson_content_by_course_slug");

/** One lesson of a course (named by its id or its slug) with its video and documents (the caller checks who may follow it). */
export async function getLessonContent(db: Database, course: { id: number } | { slug: string }, lessonId: number) {
  const [found] = await ("id" in course
    ? lessonContentByCourseId(db).execute({ lessonId, course: course.id })
    : lessonContentByCourseSlug(db).execute({ lessonId, course: course.slug }));
  if (!found) return null;
  const { lesson, video: stored, renditions, posterKey, attachments } = found;
  // The low-data versions made so far (app/.server/files/transcode.ts): the player offers them with their sizes.
  const video = stored && {
    ...stored,
    versions: (["low", "high"] as const).flatMap((name) => {
      const rendition = renditions?.[name];
      return rendition ? [{ name, size: rendition.size, height: rendition.height }] : [];
    }),
    poster: Boolean(posterKey),
  };
  return { ...lesson, video: video ?? null, attachments };
}

/** Slugs and dates for the sitemap. */
export async function listPublishedCourseSlugs(db: Database) {
  return db
    .select({ slug: courses.slug, updatedAt: courses.updatedAt })
    .from(courses)
    .where(eq(courses.status, "published"))
    .orderBy(asc(courses.position), asc(courses.id));
}
