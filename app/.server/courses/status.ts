import { and, desc, eq, gt } from "drizzle-orm";
import type { CourseStatus } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, lessons } from "../db/schema";
import { AppError } from "../errors";
import { getManagedCourse } from "./access";
import { queueLessonsAnnouncement } from "./announcements";
import { canChangeStatus } from "./policy";

/**
 * Sets a course's status: an admin any status on any course; a teacher only draft → published and
 * published → archived on their own courses (another teacher's course: "not found"; another move:
 * "forbidden", reason "status_transition").
 * publishedAt is set on publishing and cleared otherwise; the lessons added while the course was
 * not published are announced to its learners. Returns the spec's toast text.
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
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(courses)
      // Re-applying "published" keeps the original publication date.
      .set({
        status,
        publishedAt: status === "published" ? (course.status === "published" ? (course.publishedAt ?? now) : now) : null,
        updatedAt: now,
      })
      .where(eq(courses.id, course.id))
      .returning({ id: courses.id, status: courses.status, publishedAt: courses.publishedAt });
    if (status === "published" && course.status !== "published") {
      const [newest] = await tx
        .select({ id: lessons.id })
        .from(lessons)
        .where(and(eq(lessons.courseId, course.id), gt(lessons.createdAt, course.lessonsAnnouncedAt)))
        .orderBy(desc(lessons.id))
        .limit(1);
      if (newest) await queueLessonsAnnouncement(tx, course, newest.id, now);
    }
    return row;
  });
  return { course: updated!, message: status === "published" ? "Cours publié avec succès" : "Cours mis à jour avec succès" };
}
