import { eq } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses } from "../db/schema";

export type Course = typeof courses.$inferSelect;

/** A course the actor may not see, or that does not exist: both answer 404, so ids leak nothing. */
export class CourseNotFoundError extends Error {
  readonly status = 404;
  constructor() {
    super("Cours introuvable.");
    this.name = "CourseNotFoundError";
  }
}

/** Teachers author courses; admins oversee every course. */
export function canAuthorCourses(actor: Actor): boolean {
  return actor.role === "teacher" || actor.role === "admin";
}

/** An admin manages every course; a teacher only the courses whose instructor they are. */
export function canManageCourse(actor: Actor, course: Pick<Course, "instructorId">): boolean {
  if (actor.role === "admin") return true;
  return actor.role === "teacher" && course.instructorId === actor.id;
}

/** A published course is public; a draft or archived one is seen only by those who manage it. */
export function canViewCourse(actor: Actor | null, course: Pick<Course, "instructorId" | "status">): boolean {
  return course.status === "published" || (actor !== null && canManageCourse(actor, course));
}

/** The course `id` as its manager sees it (any status); a CourseNotFoundError for anyone else. */
export async function getManagedCourse(db: Database, actor: Actor, id: number): Promise<Course> {
  if (!Number.isSafeInteger(id) || id <= 0) throw new CourseNotFoundError();
  const [course] = await db.select().from(courses).where(eq(courses.id, id));
  if (!course || !canManageCourse(actor, course)) throw new CourseNotFoundError();
  return course;
}
