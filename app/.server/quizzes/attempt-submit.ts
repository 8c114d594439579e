import { and, eq } from "drizzle-orm";
import { gradeAttempt, type AttemptQuestion } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { enrolments, quizAttempts } from "../db/schema";
import { requestCompletionCheck } from "../learning";
import { AppError } from "../errors";
import { answerFor, assertStillFollowing, learnerQuiz, offlineDraw, ownAttempt } from "./attempt-access";
import { gradeAndClose, pastDeadline } from "./attempt-grade";
import { saveAnswers } from "./attempt-save";
import { attemptsLeftOrRefuse } from "./attempt-start";

/**
 * "Terminer et envoyer": the last answers saved (unless the time is up: then only what was saved
 * before the deadline counts), the attempt graded on the server and closed. A second submit, or
 * one racing the deadline job, changes nothing: the attempt row is locked and graded once.
 */
export async function submitAttempt(db: Database, actor: Actor, attemptId: number, answers: Record<string, string> = {}, now = new Date()) {
  if (Object.keys(answers).length > 0) {
    try {
      await saveAnswers(db, actor, attemptId, answers, now);
    } catch (error) {
      // Time up or already closed: grading below goes on with what was saved.
      if (!(error instanceof AppError && error.code === "conflict")) throw error;
    }
  }
  return db.transaction(async (tx) => {
    const own = await ownAttempt(tx, actor, attemptId, true);
    const { attempt, courseId } = own;
    if (attempt.status !== "in_progress") return attempt;
    assertStillFollowing(own);
    return gradeAndClose(tx, attempt, courseId, pastDeadline(attempt, now) ? "expired" : "submitted", now);
  });
}

/**
 * An untimed quiz answered on a phone without network (issue 13), sent by its queue when the
 * network returns (app/lib/offline/outbox.ts): recorded as one submitted, graded attempt, dated
 * when it was answered (a phone clock in the future counts as now). Idempotent on the id the phone
 * gave it: sent twice, or twice at once (the learner's enrolment row is locked meanwhile), it is
 * recorded once, with one score and one completion check. An id already used by someone else, or
 * for another quiz, is refused as not found. A timed quiz needs the network: refused ("timed").
 * The questions are the draw the quiz's page gave the phone (`offlineDraw`), made again from the
 * quiz as it is now: an answer to a question since removed, or to a choice that no longer exists,
 * counts as none.
 * With `openAttemptId`, the answers finish the learner's untimed attempt started online (the
 * network went while it was open): they complete what was saved, and it is graded and closed.
 */
export async function recordOfflineAttempt(
  db: Database,
  actor: Actor,
  slug: string,
  quizId: number,
  input: { clientId: string; answers: Record<string, string>; answeredAt: Date; openAttemptId?: number },
  now = new Date(),
) {
  const { quiz, course, enrolmentId } = await learnerQuiz(db, actor, slug, quizId);
  return db.transaction(async (tx) => {
    await tx.select({ id: enrolments.id }).from(enrolments).where(eq(enrolments.id, enrolmentId)).for("update");
    const [known] = await tx.select().from(quizAttempts).where(eq(quizAttempts.clientId, input.clientId));
    if (known) {
      if (known.userId !== actor.id || known.quizId !== quiz.id) throw AppError.notFound("Tentative introuvable.");
      return { attempt: known, replayed: true };
    }
    const answeredAt = input.answeredAt.getTime() > now.getTime() ? now : input.answeredAt;
    const given = (questions: AttemptQuestion[]) => {
      const answers: Record<string, string> = {};
      for (const question of questions) {
        const answer = input.answers[question.id];
        const value = answer === undefined ? null : answerFor(question, answer);
        if (value) answers[question.id] = value;
      }
      return answers;
    };
    if (input.openAttemptId !== undefined) {
      const [open] = await tx
        .select()
        .from(quizAttempts)
        .where(and(eq(quizAttempts.id, input.openAttemptId), eq(quizAttempts.userId, actor.id), eq(quizAttempts.quizId, quiz.id)))
        .for("update");
      if (!open) throw AppError.notFound("Tentative introuvable.");
      // Sent already (another tab, the page's own form) or closed: nothing changes.
      if (open.status !== "in_progress") return { attempt: open, replayed: true };
      if (open.deadlineAt !== null) throw AppError.conflict("Ce quiz est chronométré : il demande une connexion.", "timed");
      const answers = { ...open.answers, ...given(open.questions) };
      await tx.update(quizAttempts).set({ answers, clientId: input.clientId }).where(eq(quizAttempts.id, open.id));
      const at = answeredAt.getTime() < open.startedAt.getTime() ? open.startedAt : answeredAt;
      return { attempt: await gradeAndClose(tx, { ...open, answers }, course.id, "submitted", at), replayed: false };
    }
    if (quiz.timeLimitMinutes !== null) throw AppError.conflict("Ce quiz est chronométré : il demande une connexion.", "timed");
    const attemptsUsed = await attemptsLeftOrRefuse(tx, actor.id, quiz, now);
    const questions = offlineDraw(quiz, actor.id, attemptsUsed + 1);
    const answers = given(questions);
    const grade = gradeAttempt(questions, answers, quiz.passingScore);
    const [attempt] = await tx
      .insert(quizAttempts)
      .values({
        quizId: quiz.id,
        userId: actor.id,
        attemptNumber: attemptsUsed + 1,
        clientId: input.clientId,
        status: "submitted",
        startedAt: answeredAt,
        submittedAt: answeredAt,
        questions,
        answers,
        results: grade.results,
        totalPoints: questions.reduce((sum, question) => sum + question.points, 0),
        earnedPoints: grade.earnedPoints,
        score: grade.score,
        passingScore: quiz.passingScore,
        passed: grade.passed,
        updatedAt: now,
      })
      .returning();
    if (grade.passed) await requestCompletionCheck(tx, { userId: actor.id, courseId: course.id }, now);
    return { attempt: attempt!, replayed: false };
  });
}
