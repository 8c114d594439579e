import { eq } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { courses } from "../db/schema";
import { canManageCourse } from "./policy";

export type Course = typeof courses.$inferSelect;

/** A course the actor may not see, or that does not exist: both "not found" (404), so ids leak nothing. */
export const courseNotFound = () => AppError.notFound("Cours introuvable.");

/** The course `id` as its manager sees it (any status); "not found" for anyone else. */
export async function getManagedCourse(db: Database, actor: Actor, id: number): Promise<Course> {
  if (!Number.isSafeInteger(id) || id <= 0) throw courseNotFound();
  const [course] = await db.select().from(courses).where(eq(courses.id, id));
  if (!course || !canManageCourse(actor, course)) throw courseNotFound();
  return course;
}
