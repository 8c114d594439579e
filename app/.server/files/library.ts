import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { files } from "../db/schema";
import type { FileStorage } from "../storage";
import { cleanFileName } from "./ingest";

/**
 * The files capability's writes for the teacher's content screen ("Gérer Contenus", run by the
 * courses capability, which checks who may touch which file): a new display name, a document
 * moved to another lesson of its course, a file deleted with its bytes.
 */

/** The name a file is shown and downloaded under; its extension is kept if the new name drops it. */
export function renamedFileName(current: string, wanted: string): string {
  const cleaned = cleanFileName(wanted);
  const dot = current.lastIndexOf(".");
  const extension = dot > 0 ? current.slice(dot) : "";
  if (!extension || cleaned.toLowerCase().endsWith(extension.toLowerCase())) return cleaned;
  return `${cleaned}${extension}`.slice(-200);
}

export async function renameFile(tx: Database, fileId: string, name: string) {
  await tx.update(files).set({ originalName: name }).where(eq(files.id, fileId));
}

/** A document of the course (claimed already) hangs on `lessonId` of the same course, or on none. */
export async function setAttachmentLesson(tx: Database, courseId: number, fileId: string, lessonId: number | null) {
  await tx
    .update(files)
    .set({ lessonId })
    .where(and(eq(files.id, fileId), eq(files.courseId, courseId), eq(files.purpose, "lesson_attachment")));
}

/**
 * Deletes a file's row (its transcoding state goes with it) inside the caller's transaction and
 * returns the storage keys of its bytes and versions, to delete once the transaction commits.
 */
export async function deleteFileRow(tx: Database, fileId: string): Promise<string[]> {
  const [removed] = await tx
    .delete(files)
    .where(eq(files.id, fileId))
    .returning({ storageKey: files.storageKey, variants: files.variants });
  return removed ? [...new Set([removed.storageKey, ...Object.values(removed.variants)])] : [];
}

/** The bytes of deleted files; a key already gone is not an error. */
export async function deleteStoredBytes(storage: FileStorage, keys: string[]) {
  await Promise.allSettled(keys.map((key) => storage.delete(key)));
}
