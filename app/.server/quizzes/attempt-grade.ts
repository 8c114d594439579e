import { and, eq } from "drizzle-orm";
import { gradeAttempt } from "~/lib/quiz";
import type { Database } from "../db/client";
import { quizAttempts, quizzes } from "../db/schema";
import { requestCompletionCheck } from "../learning";
import type { Attempt } from "./attempt-access";

/** Grades an open attempt from its saved answers and closes it: "submitted", or "expired" at its deadline. */
export async function gradeAndClose(tx: Database, attempt: Attempt, courseId: number, status: "submitted" | "expired", now: Date) {
  const grade = gradeAttempt(attempt.questions, attempt.answers, attempt.passingScore);
  const [closed] = await tx
    .update(quizAttempts)
    .set({
      status,
      submittedAt: status === "expired" && attempt.deadlineAt ? attempt.deadlineAt : now,
      results: grade.results,
      earnedPoints: grade.earnedPoints,
      score: grade.score,
      passed: grade.passed,
      updatedAt: now,
    })
    .where(and(eq(quizAttempts.id, attempt.id), eq(quizAttempts.status, "in_progress")))
    .returning();
  if (closed?.passed) await requestCompletionCheck(tx, { userId: attempt.userId, courseId }, now);
  return closed ?? attempt;
}

export const pastDeadline = (attempt: Pick<Attempt, "deadlineAt">, now: Date) =>
  attempt.deadlineAt !== null && attempt.deadlineAt.getTime() <= now.getTime();

/** The learner's open attempts at this quiz whose time is up, closed now (lazily, besides the deadline job). */
export async function closeOverdue(tx: Database, userId: string, quizId: number, courseId: number, now: Date) {
  const open = await tx
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quizId), eq(quizAttempts.status, "in_progress")))
    .for("update");
  for (const attempt of open) if (pastDeadline(attempt, now)) await gradeAndClose(tx, attempt, courseId, "expired", now);
}

/** The deadline job: closes and grades the attempt if it is still open and its time is up. */
export async function closeAttemptAtDeadline(db: Database, attemptId: number, now = new Date()) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ attempt: quizAttempts, courseId: quizzes.courseId })
      .from(quizAttempts)
      .innerJoin(quizzes, eq(quizAttempts.quizId, quizzes.id))
      .where(eq(quizAttempts.id, attemptId))
      .for("update", { of: quizAttempts });
    if (!row || row.attempt.status !== "in_progress" || !pastDeadline(row.attempt, now)) return null;
    return gradeAndClose(tx, row.attempt, row.courseId, "expired", now);
  });
}
