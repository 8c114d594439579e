/**
 * Owner: the files capability (app/.server/files): uploads are recorded, attached to a course and
 * released only by it.
 */
import { bigint, index, integer, jsonb, pgEnum, pgTable, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses, lessons } from "./courses";

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

export const transcodeStatus = pgEnum("transcode_status", ["pending", "running", "ready", "failed"]);

/** One low-data version of a lesson video: where it is stored, and what the player shows of it. */
export type VideoRendition = { key: string; size: number; width: number; height: number; bitrateKbps: number };

/**
 * The background transcoding of a lesson video into low-data MP4 versions and a poster
 * (app/.server/files/transcode.ts). Finished renditions are recorded one by one, so a job cut
 * short by a restart resumes at the next one. The versions are also in `files.variants` (name →
 * storage key), where the file route finds them.
 */
export const videoTranscodes = pgTable("video_transcodes", {
  fileId: text("file_id")
    .primaryKey()
    .references(() => files.id, { onDelete: "cascade" }),
  status: transcodeStatus("status").notNull().default("pending"),
  /** 0–100, for the teacher's progress bar. */
  progress: integer("progress").notNull().default(0),
  durationSeconds: integer("duration_seconds"),
  /** "360p", "720p" → the rendition. */
  renditions: jsonb("renditions").$type<Record<string, VideoRendition>>().notNull().default({}),
  posterKey: text("poster_key"),
  error: text("error"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
