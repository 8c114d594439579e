import { eq } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { canManageCourse, canReadLesson } from "../courses/policy";
import type { Database } from "../db/client";
import { courses, files, lessons } from "../db/schema";
import { AppError } from "../errors";
import { canUseUnattachedFile, type ReadableFile } from "../files";
import { isTeacherPhoto } from "../teaching";
import { followsCourse } from "./enrolments";

const fileNotFound = () => AppError.notFound("Fichier introuvable.");

/**
 * Who may read a stored file (unknown or refused: both "not found", so an id tells nothing):
 * - a teacher's photo: anyone;
 * - not yet attached to a course (just uploaded): its uploader and admins;
 * - a course thumbnail: anyone;
 * - a lesson's video or document: whoever may read the lesson (canReadLesson: the course's team,
 *   its learners, anyone for a free preview of a published course).
 */
export async function getReadableFile(db: Database, actor: Actor | null, id: string): Promise<ReadableFile> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw fileNotFound();
  const [file] = await db.select().from(files).where(eq(files.id, id));
  if (!file) throw fileNotFound();
  if (file.courseId === null) {
    if (file.purpose === "thumbnail" && (await isTeacherPhoto(db, file.id))) return { file, visibility: "public" };
    if (canUseUnattachedFile(actor, file)) return { file, visibility: "private" };
    throw fileNotFound();
  }
  if (file.purpose === "thumbnail") return { file, visibility: "public" };

  const [course] = await db
    .select({ instructorId: courses.instructorId, status: courses.status })
    .from(courses)
    .where(eq(courses.id, file.courseId));
  const [lesson] =
    file.purpose === "lesson_video"
      ? await db.select({ isFree: lessons.isFree }).from(lessons).where(eq(lessons.videoFileId, file.id)).limit(1)
      : file.lessonId !== null
        ? await db.select({ isFree: lessons.isFree }).from(lessons).where(eq(lessons.id, file.lessonId))
        : [];
  if (!course) throw fileNotFound();
  // A file of the course that no lesson uses (yet): only its team sees it.
  const readable = lesson
    ? canReadLesson(actor, course, lesson, await followsCourse(db, actor, file.courseId))
    : canManageCourse(actor, course);
  if (readable) return { file, visibility: "private" };
  throw fileNotFound();
}
