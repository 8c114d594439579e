import { eq } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, files, lessons } from "../db/schema";
import { followsCourse } from "../enrolments";
import { FileNotFoundError, type ReadableFile } from "../files/serve";
import { canManageCourse } from "./access";

/**
 * Who may read a file:
 * - not yet attached to a course (just uploaded): its uploader and admins;
 * - a course thumbnail: anyone;
 * - a lesson's video or attachment: the course's teacher and admins, its learners (an active or
 *   completed enrolment), and anyone when the lesson is a free preview of a published course.
 */
export async function getReadableFile(db: Database, actor: Actor | null, id: string): Promise<ReadableFile> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw new FileNotFoundError();
  const [file] = await db.select().from(files).where(eq(files.id, id));
  if (!file) throw new FileNotFoundError();

  const isUploaderOrAdmin = actor !== null && (actor.role === "admin" || (file.uploadedBy !== null && file.uploadedBy === actor.id));
  if (file.courseId === null) {
    if (isUploaderOrAdmin) return { file, visibility: "private" };
    throw new FileNotFoundError();
  }
  if (file.purpose === "thumbnail") return { file, visibility: "public" };

  const [course] = await db.select({ instructorId: courses.instructorId, status: courses.status }).from(courses).where(eq(courses.id, file.courseId));
  if (!course) throw new FileNotFoundError();
  if (actor && canManageCourse(actor, course)) return { file, visibility: "private" };

  const [lesson] =
    file.purpose === "lesson_video"
      ? await db.select({ isFree: lessons.isFree }).from(lessons).where(eq(lessons.videoFileId, file.id)).limit(1)
      : file.lessonId !== null
        ? await db.select({ isFree: lessons.isFree }).from(lessons).where(eq(lessons.id, file.lessonId))
        : [];
  if (!lesson) throw new FileNotFoundError();
  if ((lesson.isFree && course.status === "published") || (await followsCourse(db, actor, file.courseId))) return { file, visibility: "private" };
  throw new FileNotFoundError();
}
