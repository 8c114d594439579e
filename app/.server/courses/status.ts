import { eq } from "drizzle-orm";
import type { CourseStatus } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses } from "../db/schema";
import { getManagedCourse } from "./access";

/** A status change the actor may not make on a course they do manage (a teacher's rule). */
export class CourseStatusError extends Error {
  readonly status = 403;
  constructor(message: string) {
    super(message);
    this.name = "CourseStatusError";
  }
}

/** A teacher's only moves: "Publier" a draft, "Archiver" a published course. */
const teacherTransitions: Partial<Record<CourseStatus, CourseStatus>> = { draft: "published", published: "archived" };

/**
 * Sets a course's status: an admin any status on any course; a teacher only draft → published and
 * published → archived on their own courses (another teacher's course: CourseNotFoundError).
 * publishedAt is set on publishing and cleared otherwise. Returns the spec's toast text.
 */
export async function changeCourseStatus(db: Database, actor: Actor, courseId: number, status: CourseStatus, now = new Date()) {
  const course = await getManagedCourse(db, actor, courseId);
  if (actor.role !== "admin" && teacherTransitions[course.status] !== status) {
    throw new CourseStatusError(
      status === "published" ? "Seul un brouillon peut être publié." : status === "archived" ? "Seul un cours publié peut être archivé." : "Seul un administrateur peut remettre un cours en brouillon.",
    );
  }
  const [updated] = await db
    .update(courses)
    // Re-applying "published" keeps the original publication date.
    .set({ status, publishedAt: status === "published" ? (course.status === "published" ? (course.publishedAt ?? now) : now) : null, updatedAt: now })
    .where(eq(courses.id, course.id))
    .returning({ id: courses.id, status: courses.status, publishedAt: courses.publishedAt });
  return { course: updated!, message: status === "published" ? "Cours publié avec succès" : "Cours mis à jour avec succès" };
}
