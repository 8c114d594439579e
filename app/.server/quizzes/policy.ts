import type { SQL } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { canAuthor, canManageCourse, managedCoursesWhere } from "../courses/policy";

/**
 * Who may do what with quizzes: a quiz belongs to its course, so whoever manages the course
 * (its teacher, an administrator) writes its quizzes and reads their results, and nobody else.
 * A leaf module: any capability may import it.
 */

/** Teachers and administrators open the quiz screens. */
export function canAuthorQuizzes(actor: Actor | null): boolean {
  return canAuthor(actor);
}

/** Writes the quiz and reads its results (learners' names, e-mails and scores included). */
export function canManageQuiz(actor: Actor | null, course: { instructorId: string | null }): boolean {
  return canManageCourse(actor, course);
}

/** `canManageQuiz` as SQL, on a query joined with `courses`. */
export function managedQuizzesWhere(actor: Actor | null): SQL {
  return managedCoursesWhere(actor);
}
