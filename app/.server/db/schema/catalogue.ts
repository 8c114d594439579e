import {
  bigint,
  boolean,
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

/** The institute's identity: a single row (id 1) read by the header, footer and contact pages. */
export const institute = pgTable("institute", {
  id: integer("id").primaryKey().default(1),
  name: text("name").notNull(),
  shortName: text("short_name").notNull(),
  chamberName: text("chamber_name").notNull(),
  chamberAcronym: text("chamber_acronym").notNull(),
  tagline: text("tagline").notNull(),
  phones: text("phones").array().notNull(),
  email: text("email").notNull(),
  address: text("address").notNull(),
  openingHours: jsonb("opening_hours").$type<{ days: string; hours: string }[]>().notNull(),
  socialLinks: jsonb("social_links").$type<{ network: string; label: string; url: string }[]>().notNull(),
  mapsUrl: text("maps_url").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const categories = pgTable("categories", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
});

export const levels = pgTable("levels", {
  id: serial("id").primaryKey(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
});

export const courseStatus = pgEnum("course_status", ["draft", "published", "archived"]);

/** The one course model: the public catalogue reads it, course authoring will write it. */
export const courses = pgTable("courses", {
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
  studentCount: integer("student_count").notNull().default(0),
  rating: numeric("rating", { precision: 2, scale: 1, mode: "number" }),
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
  position: integer("position").notNull().default(0),
  instructorId: text("instructor_id").references(() => users.id, { onDelete: "set null" }),
  publishedAt: timestamp("published_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
}, (table) => [index("courses_instructor_idx").on(table.instructorId)]);

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
