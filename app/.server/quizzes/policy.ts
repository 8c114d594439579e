import type { SQL } from "drizzle-orm";
import type { CorrectionMode } from "~/lib/quiz";
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

type CorrectionSettings = { corrections: CorrectionMode; correctionsAt: Date | null };

/**
 * Whether a learner sees the expected answers and explanations of their graded attempts: after
 * each submit; once they have no attempt left or have passed; from the quiz's date; or never.
 * Evaluated at each reading: an attempt opened to them later by their teacher hides it again.
 */
export function correctionsOpen(quiz: CorrectionSettings, learner: { attemptsLeft: number; passed: boolean }, now: Date): boolean {
  switch (quiz.corrections) {
    case "after_submit":
      return true;
    case "after_last_attempt":
      return learner.attemptsLeft === 0 || learner.passed;
    case "after_date":
      return quiz.correctionsAt !== null && quiz.correctionsAt.getTime() <= now.getTime();
    case "never":
      return false;
  }
}

/**
 * Why a learner may not start another attempt although one is left: the correction they would
 * then have seen gives the answers away. A practice quiz (corrections after each submit) or one
 * that never shows them stays open. Null: they may.
 */
export function closedToAttempts(quiz: CorrectionSettings, learner: { passed: boolean }, now: Date): string | null {
  if (quiz.corrections === "after_last_attempt" && learner.passed) {
    return "Vous avez réussi ce quiz et sa correction vous est ouverte : il ne se repasse plus.";
  }
  if (quiz.corrections === "after_date" && correctionsOpen(quiz, { attemptsLeft: 1, passed: false }, now)) {
    return "La correction de ce quiz est publiée : il n'accepte plus de tentative.";
  }
  return null;
}
