import { and, asc, count, desc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { z } from "zod";
import { formatNumericDate } from "~/lib/dates";
import { searchQuerySchema, wordChoice } from "~/lib/schemas";
import { enrolmentStatusLabels } from "~/lib/learning";
import { enrolmentStatusWords, studentPaymentLabels } from "~/lib/teaching";
import type { Actor } from "../auth/actor";
import { managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import {
  certificates,
  courses,
  enrolments,
  lessonProgress,
  lessons,
  liveSessionAttendance,
  liveSessions,
  payments,
  quizAttemptGrants,
  quizAttempts,
  quizzes,
  users,
} from "../db/schema";
import { AppError } from "../errors";
import { isFollowing } from "../learning";
import { attemptsSpent } from "../quizzes";
import { toCsv } from "../http/csv";

/**
 * "Mes Étudiants": the learners of the courses the actor manages (a teacher's own; every course
 * for an admin), one row per enrolment, with what crosses capabilities: progress and last
 * activity (learning), best quiz score (quizzes), payment (payments), certificate (certificates).
 */

export const studentFiltersSchema = z.object({
  q: searchQuerySchema,
  course: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  status: wordChoice(enrolmentStatusWords, "all"),
});
export type StudentFilters = z.infer<typeof studentFiltersSchema>;

export function parseStudentFilters(searchParams: URLSearchParams): StudentFilters {
  return studentFiltersSchema.parse({
    q: searchParams.get("q") ?? "",
    course: searchParams.get("cours") ?? undefined,
    status: searchParams.get("statut") ?? undefined,
  });
}

/** Per enrolment: the latest lesson activity. */
const lastLessonActivity = (db: Database) =>
  db
    .select({ enrolmentId: lessonProgress.enrolmentId, at: max(lessonProgress.updatedAt).as("last_lesson_at") })
    .from(lessonProgress)
    .groupBy(lessonProgress.enrolmentId)
    .as("last_lesson_activity");

/**
 * Per learner and course, from one pass over the attempts: the best graded score, and how many
 * quizzes they failed with every attempt spent (the teacher may open one more: grantExtraAttempt).
 */
const quizStandings = (db: Database) => {
  const tallies = db
    .select({
      quizId: quizAttempts.quizId,
      userId: quizAttempts.userId,
      used: count(quizAttempts.id).as("used"),
      passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}), false)`.as("passed"),
      best: max(quizAttempts.score).as("best"),
    })
    .from(quizAttempts)
    .groupBy(quizAttempts.quizId, quizAttempts.userId)
    .as("attempt_tallies");
  return db
    .select({
      userId: tallies.userId,
      courseId: quizzes.courseId,
      best: max(tallies.best).as("best_score"),
      spent: sql<number>`count(*) filter (where ${isNull(quizzes.deletedAt)} and ${attemptsSpent(tallies.used, tallies.passed)})`
        .mapWith(Number)
        .as("spent_quizzes"),
    })
    .from(tallies)
    .innerJoin(quizzes, eq(quizzes.id, tallies.quizId))
    .leftJoin(quizAttemptGrants, and(eq(quizAttemptGrants.quizId, tallies.quizId), eq(quizAttemptGrants.userId, tallies.userId)))
    .groupBy(tallies.userId, quizzes.courseId)
    .as("quiz_standings");
};

/** Per enrolment: the status of its latest payment. */
const latestPayments = (db: Database) =>
  db
    .selectDistinctOn([payments.enrolmentId], { enrolmentId: payments.enrolmentId, status: payments.status })
    .from(payments)
    .orderBy(payments.enrolmentId, desc(payments.createdAt), desc(payments.id))
    .as("latest_payments");

export type StudentRow = Awaited<ReturnType<typeof listTeacherStudents>>[number];

export async function listTeacherStudents(db: Database, actor: Actor, filters: Partial<StudentFilters> = {}) {
  const lessonActivity = lastLessonActivity(db);
  const standings = quizStandings(db);
  const paid = latestPayments(db);
  const rows = await db
    .select({
      enrolmentId: enrolments.id,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      courseId: courses.id,
      courseTitle: courses.title,
      priceFcfa: courses.priceFcfa,
      status: enrolments.status,
      progress: enrolments.progress,
      enrolledAt: enrolments.enrolledAt,
      lastActivityAt: sql<Date>`greatest(${enrolments.updatedAt}, ${lessonActivity.at})`.mapWith(enrolments.updatedAt),
      bestScore: standings.best,
      spentQuizzes: standings.spent,
      paymentStatus: paid.status,
      certificateId: certificates.id,
    })
    .from(enrolments)
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .innerJoin(users, eq(users.id, enrolments.userId))
    .leftJoin(lessonActivity, eq(lessonActivity.enrolmentId, enrolments.id))
    .leftJoin(standings, and(eq(standings.userId, enrolments.userId), eq(standings.courseId, enrolments.courseId)))
    .leftJoin(paid, eq(paid.enrolmentId, enrolments.id))
    .leftJoin(
      certificates,
      and(eq(certificates.userId, enrolments.userId), eq(certificates.courseId, enrolments.courseId), eq(certificates.status, "valid")),
    )
    .where(
      and(
        managedCoursesWhere(actor),
        filters.course ? eq(courses.id, filters.course) : undefined,
        filters.status && filters.status !== "all" ? eq(enrolments.status, filters.status) : undefined,
        filters.q ? containsText(filters.q, users.firstName, users.lastName, users.email) : undefined,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(courses.title))
    .limit(1000);
  return rows.map((row) => ({
    ...row,
    name: `${row.firstName} ${row.lastName}`.trim() || row.email,
    bestScore: row.bestScore === null ? null : Math.round(Number(row.bestScore)),
    // As on the learner's page: only while they follow the course.
    spentQuizzes: isFollowing(row.status) ? (row.spentQuizzes ?? 0) : 0,
    // A free course needs no payment.
    paymentStatus: row.paymentStatus ?? (row.priceFcfa > 0 ? null : ("free" as const)),
  }));
}

/** The students of the current filters as CSV. */
export async function exportTeacherStudentsCsv(db: Database, actor: Actor, filters: Partial<StudentFilters>, now = new Date()) {
  const rows = await listTeacherStudents(db, actor, filters);
  const body = toCsv(
    [
      "Nom",
      "E-mail",
      "Cours",
      "Statut",
      "Progression (%)",
      "Meilleur score quiz (%)",
      "Paiement",
      "Certificat",
      "Inscrit le",
      "Dernière activité",
    ],
    rows.map((row) => [
      row.name,
      row.email,
      row.courseTitle,
      enrolmentStatusLabels[row.status],
      row.progress,
      row.bestScore ?? "",
      row.paymentStatus ? studentPaymentLabels[row.paymentStatus] : "",
      row.certificateId ? "Oui" : "Non",
      formatNumericDate(row.enrolledAt),
      formatNumericDate(row.lastActivityAt),
    ]),
  );
  return { filename: `etudiants-${now.toISOString().slice(0, 10)}.csv`, body, count: rows.length };
}

/**
 * One learner as the actor's student: their enrolments in the actor's courses, each with lesson
 * progress, quiz attempts, the quizzes failed with every attempt spent, and live sessions attended.
 * "Not found" when they follow none of them.
 */
export async function getTeacherStudent(db: Database, actor: Actor, userId: string) {
  const enrolled = await listTeacherStudents(db, actor, {}).then((rows) => rows.filter((row) => row.userId === userId));
  if (!enrolled.length) throw AppError.notFound("Étudiant introuvable.");
  const [person] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const courseIds = enrolled.map((row) => row.courseId);
  const enrolmentIds = enrolled.map((row) => row.enrolmentId);
  const [lessonRows, attemptRows, sessionRows, quizRows] = await Promise.all([
    db
      .select({
        courseId: lessons.courseId,
        lessonId: lessons.id,
        title: lessons.title,
        position: lessons.position,
        completedAt: lessonProgress.completedAt,
      })
      .from(lessons)
      .leftJoin(lessonProgress, and(eq(lessonProgress.lessonId, lessons.id), inArray(lessonProgress.enrolmentId, enrolmentIds)))
      .where(inArray(lessons.courseId, courseIds))
      .orderBy(asc(lessons.courseId), asc(lessons.position), asc(lessons.id)),
    db
      .select({
        courseId: quizzes.courseId,
        quizTitle: quizzes.title,
        attemptNumber: quizAttempts.attemptNumber,
        submittedAt: quizAttempts.submittedAt,
        score: quizAttempts.score,
        passed: quizAttempts.passed,
      })
      .from(quizAttempts)
      .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
      .where(and(eq(quizAttempts.userId, userId), inArray(quizzes.courseId, courseIds), sql`${quizAttempts.submittedAt} is not null`))
      .orderBy(desc(quizAttempts.submittedAt)),
    db
      .select({
        courseId: liveSessions.courseId,
        title: liveSessions.title,
        startsAt: liveSessions.startsAt,
        joinedAt: liveSessionAttendance.firstJoinedAt,
      })
      .from(liveSessionAttendance)
      .innerJoin(liveSessions, eq(liveSessions.id, liveSessionAttendance.sessionId))
      .where(and(eq(liveSessionAttendance.userId, userId), inArray(liveSessions.courseId, courseIds)))
      .orderBy(desc(liveSessions.startsAt)),
    // Each quiz with the learner's attempts used, and whether they failed it with all of theirs spent.
    db
      .select({
        courseId: quizzes.courseId,
        quizId: quizzes.id,
        title: quizzes.title,
        used: count(quizAttempts.id),
        spent: attemptsSpent(count(quizAttempts.id), sql`coalesce(bool_or(${quizAttempts.passed}), false)`),
      })
      .from(quizzes)
      .leftJoin(quizAttempts, and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.userId, userId)))
      .leftJoin(quizAttemptGrants, and(eq(quizAttemptGrants.quizId, quizzes.id), eq(quizAttemptGrants.userId, userId)))
      .where(and(inArray(quizzes.courseId, courseIds), isNull(quizzes.deletedAt)))
      .groupBy(quizzes.id, quizAttemptGrants.extraAttempts)
      .orderBy(asc(quizzes.id)),
  ]);
  return {
    person: { ...person!, name: `${person!.firstName} ${person!.lastName}`.trim() || person!.email },
    enrolments: enrolled.map((row) => ({
      ...row,
      lessons: lessonRows
        .filter((lesson) => lesson.courseId === row.courseId)
        .map((lesson) => ({ ...lesson, done: lesson.completedAt !== null })),
      attempts: attemptRows
        .filter((attempt) => attempt.courseId === row.courseId)
        .map((attempt) => ({ ...attempt, score: attempt.score === null ? null : Math.round(Number(attempt.score)) })),
      sessions: sessionRows.filter((session) => session.courseId === row.courseId),
      // Quizzes failed with every attempt spent: the teacher may open one more (quizzes' grantExtraAttempt).
      spentQuizzes: isFollowing(row.status)
        ? quizRows
            .filter((quiz) => quiz.courseId === row.courseId && quiz.spent)
            .map(({ quizId, title, used }) => ({ quizId, title, used }))
        : [],
    })),
  };
}
