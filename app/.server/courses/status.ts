import { eq } from "drizzle-orm";
import type { CourseStatus } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses } from "../db/schema";
import { AppError } from "../errors";
import { getManagedCourse } from "./access";
import { canChangeStatus } from "./policy";

/**
 * Sets a course's status: an admin any status on any course; a teacher only draft → published and
 * published → archived on their own courses (another teacher's course: "not found"; another move:
 * "forbidden", reason "status_transition").
 * publishedAt is set on publishing and cleared otherwise. Returns the spec's toast text.
 */
export async function changeCourseStatus(db: Database, actor: Actor, courseId: number, status: CourseStatus, now = new Date()) {
  const course = await getManagedCourse(db, actor, courseId);
  if (!canChangeStatus(actor, course.status, status)) {
    throw AppError.forbidden(
      status === "published"
        ? "Seul un brouillon peut être publié."
        : status === "archived"
          ? "Seul un cours publié peut être archivé."
          : "Seul un administrateur peut remettre un cours en brouillon.",
      "status_transition",
    );
  }
  const [updated] = await db
    .update(courses)
    // Re-applying "published" keeps the original publication date.
    .set({
      status,
      publishedAt: status === "published" ? (course.status === "published" ? (course.publishedAt ?? now) : now) : null,
      updatedAt: now,
    })
    .where(eq(courses.id, course.id))
    .returning({ id: courses.id, status: courses.status, publishedAt: courses.publishedAt });
  return { course: updated!, message: status === "published" ? "Cours publié avec succès" : "Cours mis à jour avec succès" };
}
