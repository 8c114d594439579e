import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  answerLabel,
  gradeAttempt,
  prepareAttemptQuestions,
  toPublicQuestion,
  type AttemptQuestion,
  type QuestionResult,
} from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { courses, enrolments, quizAttemptGrants, quizAttempts, quizzes } from "../db/schema";
import { FOLLOWING, requestCompletionCheck } from "../learning";
import { learnerAttemptLimit } from "./grants";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs";

/** The queue of the job that closes a timed attempt at its deadline (handled in app/.server/http/app.ts). */
export const CLOSE_ATTEMPT_QUEUE = "quizzes.close-attempt";

type Attempt = typeof quizAttempts.$inferSelect;
const MAX_ANSWER_LENGTH = 500;
const QUIZ_NOT_FOUND = "Quiz introuvable.";

/**
 * The quiz `quizId` of the course `slug` for a learner: the course and the quiz must exist (a
 * deleted quiz does not), and the actor must follow the course (an active or completed enrolment).
 * Refusals carry a reason the route acts on: "not_enrolled", "pending_payment", "paused".
 */
async function learnerQuiz(db: Database, actor: Actor, slug: string, quizId: number) {
  if (!Number.isSafeInteger(quizId) || quizId <= 0) throw AppError.notFound(QUIZ_NOT_FOUND);
  const [row] = await db
    .select({
      quiz: quizzes,
      course: { id: courses.id, slug: courses.slug, title: courses.title, instructorId: courses.instructorId },
      enrolment: enrolments,
      attemptLimit: learnerAttemptLimit(),
    })
    .from(quizzes)
    .innerJoin(courses, eq(quizzes.courseId, courses.id))
    .leftJoin(enrolments, and(eq(enrolments.courseId, courses.id), eq(enrolments.userId, actor.id)))
    .leftJoin(quizAttemptGrants, and(eq(quizAttemptGrants.quizId, quizzes.id), eq(quizAttemptGrants.userId, actor.id)))
    .where(and(eq(quizzes.id, quizId), eq(courses.slug, slug), isNull(quizzes.deletedAt)));
  if (!row) throw AppError.notFound(QUIZ_NOT_FOUND);
  const status = row.enrolment?.status;
  if (!status || !FOLLOWING.includes(status)) {
    const reason = status === "pending_payment" || status === "paused" ? status : "not_enrolled";
    throw AppError.forbidden("Ce quiz est réservé aux apprenants de la formation.", reason);
  }
  // This learner's limit: the quiz's, plus the attempts their teacher opened to them.
  const quiz = { ...row.quiz, maxAttempts: row.attemptLimit };
  return { quiz, course: row.course, enrolmentId: row.enrolment!.id };
}

/** Grades an open attempt from its saved answers and closes it: "submitted", or "expired" at its deadline. */
async function gradeAndClose(tx: Database, attempt: Attempt, courseId: number, status: "submitted" | "expired", now: Date) {
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

const pastDeadline = (attempt: Pick<Attempt, "deadlineAt">, now: Date) =>
  attempt.deadlineAt !== null && attempt.deadlineAt.getTime() <= now.getTime();

/** The learner's open attempts at this quiz whose time is up, closed now (lazily, besides the deadline job). */
async function closeOverdue(tx: Database, userId: string, quizId: number, courseId: number, now: Date) {
  const open = await tx
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quizId), eq(quizAttempts.status, "in_progress")))
    .for("update");
  for (const attempt of open) if (pastDeadline(attempt, now)) await gradeAndClose(tx, attempt, courseId, "expired", now);
}

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
  return {
    course,
    quiz: {
      id: quiz.id,
      title: quiz.title,
      description: quiz.description,
      questionCount: quiz.questions.length,
      totalPoints: quiz.questions.reduce((sum, question) => sum + question.points, 0),
      timeLimitMinutes: quiz.timeLimitMinutes,
      maxAttempts: quiz.maxAttempts,
      passingScore: quiz.passingScore,
      required: quiz.required,
    },
    attempts: attempts.map(attemptSummary),
    // An untimed quiz can be answered on the phone if the network goes (issue 13): its questions,
    // never their answers, come with the page. A timed one needs the network.
    offlineQuestions: quiz.timeLimitMinutes === null ? quiz.questions.map(toPublicQuestion) : null,
    inProgress: attempts.find((attempt) => attempt.status === "in_progress")?.id ?? null,
    attemptsLeft: Math.max(0, quiz.maxAttempts - attempts.length),
    bestScore: best,
    passed: graded.some((attempt) => attempt.passed),
  };
}

/**
 * How many attempts the learner has used, once it is known they may start another: refused when
 * none is left or the quiz has no question yet.
 */
async function attemptsLeftOrRefuse(
  tx: Database,
  userId: string,
  quiz: { id: number; maxAttempts: number; questions: readonly unknown[] },
): Promise<number> {
  const [used] = await tx
    .select({ count: count() })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quiz.id)));
  const attemptsUsed = Number(used?.count ?? 0);
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
 * "Commencer": a new attempt, its start and deadline set by the server, its questions copied (and
 * shuffled if the quiz says so). An attempt already open is resumed instead. The learner's
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
    const attemptsUsed = await attemptsLeftOrRefuse(tx, actor.id, quiz);
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

/** The learner's own attempt (anyone else's is a 404), with its quiz's course. */
async function ownAttempt(db: Database, actor: Actor, attemptId: number, lock = false) {
  if (!Number.isSafeInteger(attemptId) || attemptId <= 0) throw AppError.notFound("Tentative introuvable.");
  const query = db
    .select({ attempt: quizAttempts, courseId: quizzes.courseId, showCorrections: quizzes.showCorrections })
    .from(quizAttempts)
    .innerJoin(quizzes, eq(quizAttempts.quizId, quizzes.id))
    .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.userId, actor.id)));
  const [row] = lock ? await query.for("update", { of: quizAttempts }) : await query;
  if (!row) throw AppError.notFound("Tentative introuvable.");
  return row;
}

/** An answer as kept for its question ("" for none), or null when it is not one of the choices offered. */
function answerFor(question: AttemptQuestion, answer: string): string | null {
  const value = question.type === "short_answer" ? answer.slice(0, MAX_ANSWER_LENGTH) : answer.trim();
  if (value === "") return "";
  const valid =
    question.type === "multiple_choice"
      ? /^\d$/.test(value) && Number(value) < question.options.length
      : question.type === "true_false"
        ? value === "true" || value === "false"
        : true;
  return valid ? value : null;
}

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
  const { attempt, courseId } = await ownAttempt(db, actor, attemptId);
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
    const { attempt, courseId } = await ownAttempt(tx, actor, attemptId, true);
    if (attempt.status !== "in_progress") return attempt;
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
 * The questions are those of the quiz as it is now, in its own order (the phone showed them so):
 * an answer to a question since removed, or to a choice that no longer exists, counts as none.
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
    const attemptsUsed = await attemptsLeftOrRefuse(tx, actor.id, quiz);
    const questions = prepareAttemptQuestions(quiz.questions, { shuffleQuestions: false, shuffleOptions: false });
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

/**
 * One attempt as its learner sees it. Open: the questions without their answers, what was saved,
 * the deadline and the server's clock. Graded: the score, the verdict and, if the quiz shows
 * corrections, each question with the right answer and its explanation.
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
    .select({ count: count() })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, actor.id), eq(quizAttempts.quizId, quiz.id)));
  return {
    ...header,
    state: "graded" as const,
    earnedPoints: attempt.earnedPoints ?? 0,
    totalPoints: attempt.totalPoints,
    attemptsLeft: Math.max(0, quiz.maxAttempts - Number(used?.count ?? 0)),
    corrections: quiz.showCorrections
      ? attempt.questions.map((question) => ({
          id: question.id,
          question: question.question,
          points: question.points,
          correct: results.get(question.id)?.correct ?? false,
          given: answerLabel(question, attempt.answers[question.id]),
          expected: question.type === "short_answer" ? question.correctAnswer : answerLabel(question, question.correctAnswer),
          explanation: question.explanation,
        }))
      : null,
  };
}

const learnerQuizzesQuery = preparedQuery("learner_quizzes", (db) => {
  const graded = sql`${quizAttempts.status} <> 'in_progress'`;
  return db
    .select({
      id: quizzes.id,
      title: quizzes.title,
      lessonId: quizzes.lessonId,
      questionCount: sql<number>`jsonb_array_length(${quizzes.questions})`.mapWith(Number),
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
