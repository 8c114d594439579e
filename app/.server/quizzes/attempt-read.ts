import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { answerLabel, toPublicQuestion, type AttemptQuestion, type QuestionResult } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { courses, quizAttemptGrants, quizAttempts, quizzes } from "../db/schema";
import { AppError } from "../errors";
import { learnerAttemptLimit } from "./grants";
import { learnerQuiz, offlineDraw, ownAttempt, type Attempt } from "./attempt-access";
import { closeOverdue, gradeAndClose, pastDeadline } from "./attempt-grade";
import { closedToAttempts, correctionsOpen } from "./policy";

/** How many questions an attempt asks: the quiz's draw, or all of them. */
const askedCount = (quiz: { questions: readonly unknown[]; drawCount: number | null }) =>
  Math.min(quiz.drawCount ?? quiz.questions.length, quiz.questions.length);

/** What a quiz's page shows of each attempt (and its deadline, to close it once past). */
const summaryColumns = {
  id: quizAttempts.id,
  attemptNumber: quizAttempts.attemptNumber,
  status: quizAttempts.status,
  startedAt: quizAttempts.startedAt,
  deadlineAt: quizAttempts.deadlineAt,
  submittedAt: quizAttempts.submittedAt,
  score: quizAttempts.score,
  passed: quizAttempts.passed,
};

function attemptSummary(attempt: Pick<Attempt, keyof typeof summaryColumns>) {
  return {
    id: attempt.id,
    attemptNumber: attempt.attemptNumber,
    status: attempt.status,
    startedAt: attempt.startedAt,
    submittedAt: attempt.submittedAt,
    score: attempt.score,
    passed: attempt.passed,
  };
}

/**
 * A quiz's page for its learner: what it asks (never the answers), the learner's attempts, the one
 * in progress if any, and how many are left; for an untimed quiz, its questions to answer offline.
 */
export async function getLearnerQuiz(db: Database, actor: Actor, slug: string, quizId: number, now = new Date()) {
  // Not the attempts' questions and answers: a page lists them, and those weigh.
  const readAttempts = () =>
    db
      .select(summaryColumns)
      .from(quizAttempts)
      .where(and(eq(quizAttempts.userId, actor.id), eq(quizAttempts.quizId, quizId)))
      .orderBy(asc(quizAttempts.attemptNumber));
  // The quiz and the learner's own attempts at it in one round trip (a class opens it at once:
  // every round trip waiting on another puts the page behind the others); the attempts are only
  // shown once the learner is let in.
  const [{ quiz, course }, read] = await Promise.all([learnerQuiz(db, actor, slug, quizId), readAttempts()]);
  // An open attempt whose time ran out is closed now (lazily, besides the deadline job).
  const overdue = read.some((attempt) => attempt.status === "in_progress" && pastDeadline(attempt, now));
  if (overdue) await db.transaction((tx) => closeOverdue(tx, actor.id, quiz.id, course.id, now));
  const attempts = overdue ? await readAttempts() : read;
  const graded = attempts.filter((attempt) => attempt.status !== "in_progress");
  const best = graded.reduce<number | null>(
    (top, attempt) => (top === null || (attempt.score ?? 0) > top ? (attempt.score ?? 0) : top),
    null,
  );
  const passed = graded.some((attempt) => attempt.passed);
  const closed = closedToAttempts(quiz, { passed }, now);
  return {
    course,
    quiz: {
      id: quiz.id,
      title: quiz.title,
      description: quiz.description,
      questionCount: askedCount(quiz),
      // Drawn from a pool, each attempt's points may differ: said only when every question is asked.
      totalPoints: askedCount(quiz) < quiz.questions.length ? null : quiz.questions.reduce((sum, question) => sum + question.points, 0),
      timeLimitMinutes: quiz.timeLimitMinutes,
      maxAttempts: quiz.maxAttempts,
      passingScore: quiz.passingScore,
      required: quiz.required,
    },
    attempts: attempts.map(attemptSummary),
    // An untimed quiz can be answered on the phone if the network goes (issue 13): the questions
    // of the learner's next attempt, drawn as the server will draw them again, never their
    // answers, come with the page. A timed one needs the network.
    offlineQuestions:
      quiz.timeLimitMinutes === null && !closed ? offlineDraw(quiz, actor.id, attempts.length + 1).map(toPublicQuestion) : null,
    inProgress: attempts.find((attempt) => attempt.status === "in_progress")?.id ?? null,
    attemptsLeft: Math.max(0, quiz.maxAttempts - attempts.length),
    bestScore: best,
    passed,
    /** Why no attempt may start although some are left (the correction is open), or null. */
    closed,
  };
}

/**
 * One attempt as its learner sees it. Open: the questions without their answers, what was saved,
 * the deadline and the server's clock. Graded: the score, the verdict, which questions were
 * right; and once the quiz's policy opens the correction to this learner (`correctionsOpen`), each
 * question with the right answer and its explanation. Only the attempt's snapshot is read.
 */
export async function getLearnerAttempt(db: Database, actor: Actor, slug: string, quizId: number, attemptId: number, now = new Date()) {
  // Both at once; whether the learner follows the course is answered first.
  const own = ownAttempt(db, actor, attemptId);
  own.catch(() => {});
  const { quiz, course } = await learnerQuiz(db, actor, slug, quizId);
  let { attempt } = await own;
  if (attempt.quizId !== quiz.id) throw AppError.notFound("Tentative introuvable.");
  if (attempt.status === "in_progress" && pastDeadline(attempt, now)) {
    attempt = await db.transaction(async (tx) => {
      const { attempt: locked } = await ownAttempt(tx, actor, attemptId, true);
      return locked.status === "in_progress" ? gradeAndClose(tx, locked, course.id, "expired", now) : locked;
    });
  }
  const header = {
    course,
    quiz: { id: quiz.id, title: quiz.title, passingScore: attempt.passingScore, maxAttempts: quiz.maxAttempts, required: quiz.required },
    attempt: attemptSummary(attempt),
  };
  if (attempt.status === "in_progress") {
    return {
      ...header,
      state: "open" as const,
      questions: attempt.questions.map(toPublicQuestion),
      answers: attempt.answers,
      deadlineAt: attempt.deadlineAt,
      now,
    };
  }
  const results = new Map((attempt.results ?? []).map((result: QuestionResult) => [result.questionId, result]));
  const [used] = await db
    .select({ count: count(), passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}), false)` })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, actor.id), eq(quizAttempts.quizId, quiz.id)));
  const attemptsLeft = Math.max(0, quiz.maxAttempts - Number(used?.count ?? 0));
  const open = correctionsOpen(quiz, { attemptsLeft, passed: Boolean(used?.passed) }, now);
  const correct = (question: AttemptQuestion) => results.get(question.id)?.correct ?? false;
  return {
    ...header,
    state: "graded" as const,
    earnedPoints: attempt.earnedPoints ?? 0,
    totalPoints: attempt.totalPoints,
    attemptsLeft,
    // Withheld: which of the questions drawn for the attempt were right, nothing that gives the answers away.
    outcomes: attempt.questions.map((question) => ({ id: question.id, question: question.question, correct: correct(question) })),
    corrections: open
      ? attempt.questions.map((question) => ({
          id: question.id,
          question: question.question,
          correct: correct(question),
          given: answerLabel(question, attempt.answers[question.id]),
          expected: question.type === "short_answer" ? question.correctAnswer : answerLabel(question, question.correctAnswer),
          explanation: question.explanation,
        }))
      : null,
    /** When the withheld correction opens: "never", after the last attempt or a pass, or at a date. */
    correctionsLater: open ? null : { mode: quiz.corrections, at: quiz.correctionsAt },
  };
}

const learnerQuizzesQuery = preparedQuery("learner_quizzes", (db) => {
  const graded = sql`${quizAttempts.status} <> 'in_progress'`;
  const questionCount = sql`jsonb_array_length(${quizzes.questions})`;
  return db
    .select({
      id: quizzes.id,
      title: quizzes.title,
      lessonId: quizzes.lessonId,
      // Asked per attempt: the draw, if the quiz sets one below its number of questions.
      questionCount: sql<number>`least(coalesce(${quizzes.drawCount}, ${questionCount}), ${questionCount})`.mapWith(Number),
      timeLimitMinutes: quizzes.timeLimitMinutes,
      // The learner's limit: the quiz's, plus the attempts their teacher opened to them.
      maxAttempts: learnerAttemptLimit(),
      passingScore: quizzes.passingScore,
      required: quizzes.required,
      attemptsUsed: count(quizAttempts.id),
      bestScore: sql<number | null>`max(coalesce(${quizAttempts.score}, 0)) filter (where ${graded})`.mapWith(Number),
      passed: sql<boolean>`coalesce(bool_or(${quizAttempts.passed}) filter (where ${graded}), false)`,
      inProgressId: sql<
        number | null
      >`(array_agg(${quizAttempts.id} order by ${quizAttempts.attemptNumber} desc) filter (where ${quizAttempts.status} = 'in_progress'))[1]`,
    })
    .from(quizzes)
    .leftJoin(quizAttempts, and(eq(quizAttempts.quizId, quizzes.id), eq(quizAttempts.userId, sql.placeholder("userId"))))
    .leftJoin(quizAttemptGrants, and(eq(quizAttemptGrants.quizId, quizzes.id), eq(quizAttemptGrants.userId, sql.placeholder("userId"))))
    .where(
      and(
        inArray(
          quizzes.courseId,
          db
            .select({ id: courses.id })
            .from(courses)
            .where(eq(courses.slug, sql.placeholder("courseSlug"))),
        ),
        isNull(quizzes.deletedAt),
      ),
    )
    .groupBy(quizzes.id, quizAttemptGrants.extraAttempts)
    .orderBy(asc(quizzes.createdAt), asc(quizzes.id));
});

/**
 * The quizzes of a course as its learner sees them (course home, lesson player): each with the
 * learner's attempts used, best score and verdict, and the attempt in progress if any. By the
 * course's slug, so that the pages read it along with the course (the caller checks that the
 * actor follows it). One statement: each one a page sends costs it and the database a wake-up.
 */
export async function listLearnerQuizzes(db: Database, actor: Actor, courseSlug: string) {
  return learnerQuizzesQuery(db).execute({ userId: actor.id, courseSlug });
}
