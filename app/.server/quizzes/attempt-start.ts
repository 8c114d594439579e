import { and, count, eq, sql } from "drizzle-orm";
import { prepareAttemptQuestions } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { enrolments, quizAttempts, type quizzes } from "../db/schema";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs";
import { learnerQuiz } from "./attempt-access";
import { closeOverdue } from "./attempt-grade";
import { closedToAttempts } from "./policy";

type Quiz = typeof quizzes.$inferSelect;

/** The queue of the job that closes a timed attempt at its deadline (handled in app/.server/http/app.ts). */
export const CLOSE_ATTEMPT_QUEUE = "quizzes.close-attempt";

/**
 * How many attempts the learner has used, once it is known they may start another: refused when
 * none is left, when the correction they may already have seen closes the quiz (policy), or when
 * the quiz has no question yet.
 */
export async function attemptsLeftOrRefuse(
  tx: Database,
  userId: string,
  quiz: Pick<Quiz, "id" | "maxAttempts" | "questions" | "corrections" | "correctionsAt">,
  now: Date,
): Promise<number> {
  const [used] = await tx
    .select({ count: count(), passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}), false)` })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quiz.id)));
  const attemptsUsed = Number(used?.count ?? 0);
  const closed = closedToAttempts(quiz, { passed: Boolean(used?.passed) }, now);
  if (closed) throw AppError.conflict(closed, "corrections_open");
  if (attemptsUsed >= quiz.maxAttempts) {
    throw AppError.conflict(
      `Vous avez utilisé toutes vos tentatives pour ce quiz (${quiz.maxAttempts} sur ${quiz.maxAttempts}).`,
      "no_attempts_left",
    );
  }
  if (quiz.questions.length === 0) throw AppError.conflict("Ce quiz n'a pas encore de question.", "empty_quiz");
  return attemptsUsed;
}

/**
 * "Commencer": a new attempt, its start and deadline set by the server, its questions drawn and
 * copied (and shuffled if the quiz says so): `random` is injectable so that tests know the draw. An attempt already open is resumed instead. The learner's
 * enrolment row is locked meanwhile, so two starts at once cannot pass the attempts limit (and
 * the unique attempt number would refuse the second anyway).
 */
export async function startAttempt(db: Database, actor: Actor, slug: string, quizId: number, now = new Date(), random = Math.random) {
  const { quiz, course, enrolmentId } = await learnerQuiz(db, actor, slug, quizId);
  return db.transaction(async (tx) => {
    await tx.select({ id: enrolments.id }).from(enrolments).where(eq(enrolments.id, enrolmentId)).for("update");
    await closeOverdue(tx, actor.id, quiz.id, course.id, now);
    const [open] = await tx
      .select()
      .from(quizAttempts)
      .where(and(eq(quizAttempts.userId, actor.id), eq(quizAttempts.quizId, quiz.id), eq(quizAttempts.status, "in_progress")));
    if (open) return { attempt: open, resumed: true };
    const attemptsUsed = await attemptsLeftOrRefuse(tx, actor.id, quiz, now);
    const questions = prepareAttemptQuestions(quiz.questions, quiz, random);
    const deadlineAt = quiz.timeLimitMinutes === null ? null : new Date(now.getTime() + quiz.timeLimitMinutes * 60_000);
    const [attempt] = await tx
      .insert(quizAttempts)
      .values({
        quizId: quiz.id,
        userId: actor.id,
        attemptNumber: attemptsUsed + 1,
        startedAt: now,
        deadlineAt,
        questions,
        totalPoints: questions.reduce((sum, question) => sum + question.points, 0),
        passingScore: quiz.passingScore,
        updatedAt: now,
      })
      .returning();
    // Closed at its deadline even if the learner never comes back.
    if (deadlineAt)
      await enqueueJob(
        tx,
        CLOSE_ATTEMPT_QUEUE,
        { attemptId: attempt!.id },
        { key: `quiz-attempt:${attempt!.id}:close`, runAt: deadlineAt, now },
      );
    return { attempt: attempt!, resumed: false };
  });
}
