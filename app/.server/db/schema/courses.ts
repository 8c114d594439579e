/**
 * Owner: the courses capability (app/.server/courses): a course and its lessons are written only
 * by course authoring (and the seed); others read them, or call courses. Also here, owned by the
 * files capability (app/.server/files): `files`, which courses and lessons reference and which
 * references them (its other tables are in ./files.ts).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { users } from "./auth";
import { categories, levels } from "./catalogue";

export const courseStatus = pgEnum("course_status", ["draft", "published", "archived"]);

/** The one course model: the public catalogue reads it, course authoring writes it. */
export const courses = pgTable(
  "courses",
  {
    id: serial("id").primaryKey(),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    levelId: integer("level_id")
      .notNull()
      .references(() => levels.id),
    durationWeeks: integer("duration_weeks").notNull(),
    /**
     * The institute's figures from before the platform, imported once and kept apart: its learners,
     * and its reviews (their count and average). The pages add what happens here — the learners
     * enrolled (course_learner_counts) and the reviews written (course_reviews) — never replace them.
     */
    baselineStudentCount: integer("baseline_student_count").notNull().default(0),
    baselineRating: numeric("baseline_rating", { precision: 2, scale: 1, mode: "number" }),
    baselineReviewCount: integer("baseline_review_count").notNull().default(0),
    priceFcfa: integer("price_fcfa").notNull().default(0),
    icon: text("icon").notNull().default("book-open"),
    popular: boolean("popular").notNull().default(false),
    modules: text("modules").array().notNull().default([]),
    prerequisites: text("prerequisites").array().notNull().default([]),
    objectives: text("objectives").array().notNull().default([]),
    maxStudents: integer("max_students"),
    thumbnailUrl: text("thumbnail_url"),
    /** An uploaded thumbnail (files.purpose = "thumbnail"); wins over thumbnailUrl when set. */
    thumbnailFileId: text("thumbnail_file_id").references((): AnyPgColumn => files.id, { onDelete: "set null" }),
    /** Link to the course's live sessions (Zoom, Meet, Jitsi...). */
    liveSessionUrl: text("live_session_url"),
    /** The next live session, shown to enrolled learners. */
    nextLiveAt: timestamp("next_live_at", { withTimezone: true }),
    status: courseStatus("status").notNull().default("draft"),
    /** How long the course's certificates stay valid; null: they do not expire. */
    certificateValidityMonths: integer("certificate_validity_months").default(36),
    position: integer("position").notNull().default(0),
    instructorId: text("instructor_id").references(() => users.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** Lessons created after this have not been announced to the course's learners yet (courses/announcements.ts). */
    lessonsAnnouncedAt: timestamp("lessons_announced_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("courses_instructor_idx").on(table.instructorId),
    // An imported count of reviews comes with its average, and an average within the stars.
    check(
      "courses_baseline_rating",
      sql`(${table.baselineReviewCount} = 0 or ${table.baselineRating} is not null) and ${table.baselineReviewCount} >= 0 and (${table.baselineRating} is null or ${table.baselineRating} between 1 and 5)`,
    ),
  ],
);

/**
 * A course's lessons, in `position` order. Saving a course updates them in place (ids kept, only
 * removed ones deleted): learner progress hangs on these ids.
 */
export const lessons = pgTable(
  "lessons",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    content: text("content").notNull().default(""),
    /** An external video link (YouTube, Vimeo...), when no video file is uploaded. */
    videoUrl: text("video_url"),
    videoFileId: text("video_file_id").references((): AnyPgColumn => files.id, { onDelete: "set null" }),
    durationMinutes: integer("duration_minutes").notNull().default(0),
    position: integer("position").notNull(),
    isFree: boolean("is_free").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("lessons_course_idx").on(table.courseId, table.position)],
);

export const filePurpose = pgEnum("file_purpose", ["thumbnail", "lesson_video", "lesson_attachment"]);

/**
 * Owner: the files capability (app/.server/files): uploads are recorded, attached to a course and
 * released only by it.
 *
 * A stored file (app/.server/storage): its bytes live under `storageKey` on disk or in S3. Who may
 * read it follows from what it belongs to: a thumbnail is public, a lesson's files go to the
 * course's teacher, admins, enrolled learners, or anyone when the lesson is a free preview.
 */
export const files = pgTable(
  "files",
  {
    id: text("id").primaryKey(),
    purpose: filePurpose("purpose").notNull(),
    storageKey: text("storage_key").notNull().unique(),
    originalName: text("original_name").notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    /** Resized images of a thumbnail: width in pixels → storage key. */
    variants: jsonb("variants").$type<Record<string, string>>().notNull().default({}),
    courseId: integer("course_id").references((): AnyPgColumn => courses.id, { onDelete: "cascade" }),
    /**
     * A lesson attachment's lesson (lesson videos are referenced from lessons.video_file_id). Set
     * null when the lesson goes: the file is then unreferenced and removed with its bytes.
     */
    lessonId: integer("lesson_id").references((): AnyPgColumn => lessons.id, { onDelete: "set null" }),
    uploadedBy: text("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("files_course_idx").on(table.courseId), index("files_lesson_idx").on(table.lessonId)],
);
