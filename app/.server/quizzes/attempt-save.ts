import { and, eq, sql } from "drizzle-orm";
import type { AttemptQuestion } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { quizAttempts } from "../db/schema";
import { AppError } from "../errors";
import { answerFor, assertStillFollowing, ownAttempt } from "./attempt-access";
import { gradeAndClose, pastDeadline } from "./attempt-grade";

/** An answer checked against its question: an option's index, "true"/"false", or a short text. */
function checkedAnswer(question: AttemptQuestion | undefined, answer: string): string {
  if (!question) throw AppError.invalid({ form: "Cette question ne fait pas partie de la tentative." });
  const value = answerFor(question, answer);
  if (value === null) throw AppError.invalid({ [`answers.${question.id}`]: "Choisissez une des réponses proposées." });
  return value;
}

/**
 * Saves answers as they are given (one at each choice with JavaScript, all at once without), in one
 * statement that also checks the attempt is open and its time not up: an answer after the
 * deadline is not counted (the attempt is closed instead, and says so).
 */
export async function saveAnswers(db: Database, actor: Actor, attemptId: number, answers: Record<string, string>, now = new Date()) {
  const own = await ownAttempt(db, actor, attemptId);
  assertStillFollowing(own);
  const { attempt, courseId } = own;
  const byId = new Map(attempt.questions.map((question) => [question.id, question]));
  const changes: Record<string, string> = {};
  for (const [questionId, answer] of Object.entries(answers)) changes[questionId] = checkedAnswer(byId.get(questionId), answer);
  const cleared = Object.keys(changes).filter((questionId) => changes[questionId] === "");
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== ""));
  const nowIso = now.toISOString();
  const kept = cleared.reduce((answers, questionId) => sql`${answers} - ${questionId}::text`, sql`${quizAttempts.answers}`);
  const [saved] = await db
    .update(quizAttempts)
    .set({
      answers: sql`(${kept}) || ${JSON.stringify(set)}::jsonb`,
      updatedAt: now,
    })
    .where(
      and(
        eq(quizAttempts.id, attempt.id),
        eq(quizAttempts.status, "in_progress"),
        sql`(${quizAttempts.deadlineAt} is null or ${quizAttempts.deadlineAt} > ${nowIso}::timestamptz)`,
      ),
    )
    .returning({ answers: quizAttempts.answers });
  if (saved) return { answers: saved.answers };
  if (attempt.status === "in_progress" && pastDeadline(attempt, now)) {
    await db.transaction(async (tx) => {
      const { attempt: locked } = await ownAttempt(tx, actor, attempt.id, true);
      if (locked.status === "in_progress") await gradeAndClose(tx, locked, courseId, "expired", now);
    });
    throw AppError.conflict("Le temps est écoulé : cette réponse n'a pas été comptée. Votre tentative a été corrigée.", "time_up");
  }
  throw AppError.conflict("Cette tentative est déjà terminée.", "closed");
}

/**
 * Before "Terminer et envoyer" grades an open attempt that has questions left without an answer,
 * the learner confirms (a tap on the wrong button would spend an attempt): the answers given are
 * saved, and this says how many questions are still unanswered. None once the attempt is closed or
 * its time is up, when nothing more can be given and the submit grades what was saved.
 */
export async function unansweredBeforeSubmit(
  db: Database,
  actor: Actor,
  attemptId: number,
  answers: Record<string, string> = {},
  now = new Date(),
): Promise<number> {
  if (Object.keys(answers).length > 0) {
    try {
      await saveAnswers(db, actor, attemptId, answers, now);
    } catch (error) {
      if (error instanceof AppError && error.code === "conflict") return 0;
      throw error;
    }
  }
  const { attempt } = await ownAttempt(db, actor, attemptId);
  if (attempt.status !== "in_progress" || pastDeadline(attempt, now)) return 0;
  return attempt.questions.filter((question) => !attempt.answers[question.id]).length;
}
