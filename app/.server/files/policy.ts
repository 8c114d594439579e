import { and, eq, isNull, type SQL } from "drizzle-orm";
import { isAdmin, isSelf, type Actor } from "../auth/actor";
import { files } from "../db/schema";

/**
 * An uploaded file not yet attached to a course may be used (named in a course form, described
 * back to it) by whoever uploaded it, and by administrators. Once attached, the course's rules
 * apply (app/.server/learning/file-access.ts).
 */
export function canUseUnattachedFile(actor: Actor | null, file: { uploadedBy: string | null }): boolean {
  return isAdmin(actor) || isSelf(actor, file.uploadedBy);
}

/** `canUseUnattachedFile` as SQL, over the files not yet attached. */
export function usableUnattachedFilesWhere(actor: Actor): SQL {
  return isAdmin(actor) ? isNull(files.courseId) : and(isNull(files.courseId), eq(files.uploadedBy, actor.id))!;
}
