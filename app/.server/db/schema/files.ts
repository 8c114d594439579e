/**
 * Owner: the files capability (app/.server/files). The `files` table itself is in ./courses.ts:
 * courses and lessons point at their files and files at their course, and one module holds
 * tables that reference each other (no import cycle).
 */
import { integer, jsonb, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { files } from "./courses";

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
