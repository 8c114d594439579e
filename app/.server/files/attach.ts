import { and, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { UploadPurpose } from "~/lib/uploads";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, files, lessons } from "../db/schema";
import { AppError } from "../errors";
import { canUseUnattachedFile } from "./policy";

/**
 * Attaching uploaded files to a course and its lessons, and letting go of those nothing uses:
 * the files capability's writes, called by the course form's save inside its transaction.
 */

/** A file a form names, and the field its message goes beside. */
export type WantedFile = { field: string; id: string; purpose: UploadPurpose };

const missingFileMessage: Record<UploadPurpose, string> = {
  thumbnail: "Cette image est introuvable : envoyez-la de nouveau.",
  lesson_video: "Cette vidéo est introuvable : envoyez-la de nouveau.",
  lesson_attachment: "Un document est introuvable : envoyez-le de nouveau.",
};

/**
 * Uploaded files named by a course form must exist with the right purpose, and belong to this
 * course or to nobody yet (then only to whoever may use them: their uploader, or an admin): a
 * teacher cannot borrow another course's private video. Unattached ones are attached to the
 * course. Otherwise an AppError "invalid" with a message beside each field at fault.
 */
export async function claimFiles(tx: Database, actor: Actor, courseId: number, wanted: WantedFile[], message?: string) {
  if (!wanted.length) return;
  const rows = await tx
    .select({ id: files.id, purpose: files.purpose, courseId: files.courseId, uploadedBy: files.uploadedBy })
    .from(files)
    .where(inArray(files.id, [...new Set(wanted.map((item) => item.id))]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const errors: Record<string, string> = {};
  const toClaim: string[] = [];
  for (const item of wanted) {
    const row = byId.get(item.id);
    const usable =
      row && row.purpose === item.purpose && (row.courseId === courseId || (row.courseId === null && canUseUnattachedFile(actor, row)));
    if (!usable) errors[item.field] = missingFileMessage[item.purpose];
    else if (row.courseId === null) toClaim.push(row.id);
  }
  if (Object.keys(errors).length) throw AppError.invalid(errors, message);
  if (toClaim.length) await tx.update(files).set({ courseId }).where(inArray(files.id, toClaim));
}

/** Exactly these documents (already claimed for the course) hang on the lesson, no others. */
export async function setLessonAttachments(tx: Database, courseId: number, lessonId: number, attachmentIds: string[]) {
  const kept = attachmentIds.length ? notInArray(files.id, attachmentIds) : undefined;
  await tx
    .update(files)
    .set({ lessonId: null })
    .where(and(eq(files.lessonId, lessonId), kept));
  if (attachmentIds.length) {
    await tx
      .update(files)
      .set({ lessonId })
      .where(and(inArray(files.id, attachmentIds), eq(files.courseId, courseId), eq(files.purpose, "lesson_attachment")));
  }
}

/**
 * Files of the course that nothing uses any more (a replaced thumbnail or video, a removed
 * document or lesson) go back to the unattached pool, whose bytes the maintenance job deletes.
 */
export async function releaseUnusedCourseFiles(tx: Database, courseId: number) {
  await tx
    .update(files)
    .set({ courseId: null, lessonId: null })
    .where(
      and(
        eq(files.courseId, courseId),
        isNull(files.lessonId),
        sql`${files.id} is distinct from (select ${courses.thumbnailFileId} from ${courses} where ${courses.id} = ${courseId})`,
        sql`not exists (select 1 from ${lessons} where ${lessons.courseId} = ${courseId} and ${lessons.videoFileId} = ${files.id})`,
      ),
    );
}
