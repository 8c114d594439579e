import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { questionAnalysis, quizStats, scoreDistribution } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import { slugify } from "../courses";
import type { Database } from "../db/client";
import { quizAttempts, quizzes, users } from "../db/schema";
import { toCsv } from "../http/csv";
import { getManagedQuiz } from "./authoring";
import { formatNumericDateTime } from "~/lib/dates";

/** The results view's filter and sort, read from the query string; anything unknown falls back to the default. */
export const resultFiltersSchema = z.object({
  statut: z.enum(["tous", "reussi", "echoue"]).catch("tous").default("tous"),
  tri: z.enum(["date", "score", "tentative"]).catch("date").default("date"),
});
export type ResultFilters = z.infer<typeof resultFiltersSchema>;

export function parseResultFilters(searchParams: URLSearchParams): ResultFilters {
  return resultFiltersSchema.parse({ statut: searchParams.get("statut") ?? undefined, tri: searchParams.get("tri") ?? undefined });
}

const gradedStatuses = ["submitted", "expired"] as const;

/**
 * A quiz's graded attempts for whoever manages it (the course's teacher, an admin; anyone else a
 * 404): the learners' names and e-mails, filtered (passed, failed) and sorted (score, date,
 * attempt number), newest first by default.
 */
export async function listQuizResults(db: Database, actor: Actor, quizId: number, filters: ResultFilters = resultFiltersSchema.parse({})) {
  const quiz = await getManagedQuiz(db, actor, quizId);
  const conditions = [eq(quizAttempts.quizId, quiz.id), inArray(quizAttempts.status, gradedStatuses)];
  if (filters.statut === "reussi") conditions.push(eq(quizAttempts.passed, true));
  if (filters.statut === "echoue") conditions.push(eq(quizAttempts.passed, false));
  const order =
    filters.tri === "score"
      ? [desc(quizAttempts.score), desc(quizAttempts.submittedAt)]
      : filters.tri === "tentative"
        ? [desc(quizAttempts.attemptNumber), desc(quizAttempts.submittedAt)]
        : [desc(quizAttempts.submittedAt), desc(quizAttempts.id)];
  const rows = await db
    .select({
      id: quizAttempts.id,
      userId: quizAttempts.userId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      attemptNumber: quizAttempts.attemptNumber,
      status: quizAttempts.status,
      score: quizAttempts.score,
      passed: quizAttempts.passed,
      submittedAt: quizAttempts.submittedAt,
    })
    .from(quizAttempts)
    .innerJoin(users, eq(quizAttempts.userId, users.id))
    .where(and(...conditions))
    .orderBy(...order);
  return {
    quiz,
    results: rows.map((row) => ({ ...row, score: row.score ?? 0, passed: row.passed ?? false, submittedAt: row.submittedAt! })),
  };
}

/**
 * The Analytics tab: the statistics (attempts, unique students, average, attempt and student pass
 * rates), the five score buckets, and each question's success rate, on every graded attempt.
 */
export async function getQuizAnalytics(db: Database, actor: Actor, quizId: number) {
  const quiz = await getManagedQuiz(db, actor, quizId);
  const attempts = await db
    .select({
      userId: quizAttempts.userId,
      score: quizAttempts.score,
      passed: quizAttempts.passed,
      questions: quizAttempts.questions,
      results: quizAttempts.results,
    })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.quizId, quiz.id), inArray(quizAttempts.status, gradedStatuses)))
    .orderBy(asc(quizAttempts.id));
  const graded = attempts.map((attempt) => ({ userId: attempt.userId, score: attempt.score ?? 0, passed: attempt.passed ?? false }));
  return {
    quiz,
    stats: quizStats(graded),
    distribution: scoreDistribution(graded.map((attempt) => attempt.score)),
    questions: questionAnalysis(quiz.questions, attempts),
  };
}

const CSV_HEADER = ["Nom", "Prénom", "E-mail", "Score", "Statut", "Tentative", "Date"] as const;

/** The results as filtered and sorted on screen, as a CSV named after the quiz plus "-resultats". */
export async function exportQuizResultsCsv(db: Database, actor: Actor, quizId: number, filters?: ResultFilters) {
  const { quiz, results } = await listQuizResults(db, actor, quizId, filters);
  const body = toCsv(
    CSV_HEADER,
    results.map((row) => [
      row.lastName,
      row.firstName,
      row.email,
      row.score.toLocaleString("fr-FR", { maximumFractionDigits: 2 }),
      row.passed ? "Réussi" : "Échoué",
      row.attemptNumber,
      formatNumericDateTime(row.submittedAt),
    ]),
  );
  return { filename: `${slugify(quiz.title) || "quiz"}-resultats.csv`, body, count: results.length };
}

/**
 * For the reports read model (teacher's students, admin reports): each learner's best graded score
 * and verdict per quiz (not deleted) of the given courses.
 */
export async function bestQuizScores(db: Database, courseIds: number[]) {
  if (courseIds.length === 0) return [];
  return db
    .select({
      courseId: quizzes.courseId,
      quizId: quizzes.id,
      quizTitle: quizzes.title,
      required: quizzes.required,
      userId: quizAttempts.userId,
      bestScore: sql<number>`max(${quizAttempts.score})`.mapWith(Number),
      passed: sql<boolean>`bool_or(${quizAttempts.passed})`,
      attempts: sql<number>`count(*)`.mapWith(Number),
    })
    .from(quizAttempts)
    .innerJoin(quizzes, eq(quizAttempts.quizId, quizzes.id))
    .where(and(inArray(quizzes.courseId, courseIds), isNull(quizzes.deletedAt), inArray(quizAttempts.status, gradedStatuses)))
    .groupBy(quizzes.id, quizAttempts.userId);
}
