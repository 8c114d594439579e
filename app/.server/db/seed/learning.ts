import { sql } from "drizzle-orm";
import type { Database } from "../client";
import { courseLearnerCounts, lessonProgress } from "../schema";

/** A demo learner's lessons done, each finished (and last touched) on its own day, as the player records them. */
export async function recordLessonsDone(
  db: Database,
  enrolmentId: number,
  done: ReadonlyArray<{ id: number }>,
  doneAt: (index: number) => Date,
): Promise<void> {
  if (!done.length) return;
  await db
    .insert(lessonProgress)
    .values(done.map((lesson, index) => ({ enrolmentId, lessonId: lesson.id, completedAt: doneAt(index), updatedAt: doneAt(index) })));
}

/** More learners on a course's card, as the enrolments opened by the learning capability count them. */
export async function countCourseLearners(db: Database, courseId: number, learners: number): Promise<void> {
  await db
    .insert(courseLearnerCounts)
    .values({ courseId, learners })
    .onConflictDoUpdate({ target: courseLearnerCounts.courseId, set: { learners: sql`${courseLearnerCounts.learners} + ${learners}` } });
}
