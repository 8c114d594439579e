import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { isAdmin, isSelf, type Actor } from "../auth/actor";
import { files, teacherProfiles } from "../db/schema";

/**
 * An uploaded file not yet attached to a course may be used (named in a course form, described
 * back to it) by whoever uploaded it, and by administrators. Once attached, the course's rules
 * apply (app/.server/learning/file-access.ts).
 */
export function canUseUnattachedFile(actor: Actor | null, file: { uploadedBy: string | null }): boolean {
  return isAdmin(actor) || isSelf(actor, file.uploadedBy);
}

/**
 * A teacher's photo belongs to no course but is in use: no course form or content screen may take
 * it, and the maintenance job keeps it. Read from the table here (the teaching capability builds on
 * this one) so that the rule stays one SQL clause.
 */
export const notATeacherPhoto: SQL = sql`not exists (select 1 from ${teacherProfiles} where ${teacherProfiles.photoFileId} = ${files.id})`;

/** `canUseUnattachedFile` as SQL, over the files not yet attached (teachers' photos left out). */
export function usableUnattachedFilesWhere(actor: Actor): SQL {
  return isAdmin(actor)
    ? and(isNull(files.courseId), notATeacherPhoto)!
    : and(isNull(files.courseId), eq(files.uploadedBy, actor.id), notATeacherPhoto)!;
}
