import { and, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { files } from "../db/schema";
import type { FileStorage } from "../storage";
import { notATeacherPhoto } from "./policy";

/** An upload not claimed by a course form within this delay is abandoned. */
export const UNATTACHED_FILE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes files attached to no course (uploaded for a form never saved, or released by a course
 * that stopped using them) that are older than `olderThan`: rows first (a row claimed meanwhile
 * stays), then their bytes. Returns how many were removed.
 */
export async function deleteUnattachedFiles(db: Database, storage: FileStorage, olderThan: Date, batch = 200): Promise<number> {
  const candidates = await db
    .select({ id: files.id })
    .from(files)
    .where(and(isNull(files.courseId), lt(files.createdAt, olderThan), notATeacherPhoto))
    .limit(batch);
  if (!candidates.length) return 0;
  const removed = await db
    .delete(files)
    .where(
      and(
        inArray(
          files.id,
          candidates.map((row) => row.id),
        ),
        isNull(files.courseId),
        notATeacherPhoto,
      ),
    )
    .returning({ storageKey: files.storageKey, variants: files.variants });
  const keys = new Set(removed.flatMap((row) => [row.storageKey, ...Object.values(row.variants)]));
  await Promise.allSettled([...keys].map((key) => storage.delete(key)));
  return removed.length;
}
