import { and, eq, isNull } from "drizzle-orm";
import { prepareAttemptQuestions, seededRandom, type AttemptQuestion } from "~/lib/quiz";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, enrolments, quizAttemptGrants, quizAttempts, quizzes } from "../db/schema";
import { isFollowing, type EnrolmentStatus } from "../learning";
import { AppError } from "../errors";
import { learnerAttemptLimit } from "./grants";

/** What every step of an attempt reads first: the learner's quiz, their own attempt, an answer checked. */

export type Attempt = typeof quizAttempts.$inferSelect;
const MAX_ANSWER_LENGTH = 500;
const QUIZ_NOT_FOUND = "Quiz introuvable.";

/**
 * The quiz `quizId` of the course `slug` for a learner: the course and the quiz must exist (a
 * deleted quiz does not), and the actor must follow the course (an active or completed enrolment).
 * Refusals carry a reason the route acts on: "not_enrolled", "pending_payment", "paused".
 */
export async function learnerQuiz(db: Database, actor: Actor, slug: string, quizId: number) {
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
  if (!isFollowing(status)) {
    const reason = status === "pending_payment" || status === "paused" ? status : "not_enrolled";
    throw AppError.forbidden("Ce quiz est réservé aux apprenants de la formation.", reason);
  }
  // This learner's limit: the quiz's, plus the attempts their teacher opened to them.
  const quiz = { ...row.quiz, maxAttempts: row.attemptLimit };
  return { quiz, course: row.course, enrolmentId: row.enrolment!.id };
}

/** The learner's own attempt (anyone else's is a 404), with its quiz's course. */
export async function ownAttempt(db: Database, actor: Actor, attemptId: number, lock = false) {
  if (!Number.isSafeInteger(attemptId) || attemptId <= 0) throw AppError.notFound("Tentative introuvable.");
  const query = db
    .select({ attempt: quizAttempts, courseId: quizzes.courseId, enrolmentStatus: enrolments.status })
    .from(quizAttempts)
    .innerJoin(quizzes, eq(quizAttempts.quizId, quizzes.id))
    .leftJoin(enrolments, and(eq(enrolments.courseId, quizzes.courseId), eq(enrolments.userId, quizAttempts.userId)))
    .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.userId, actor.id)));
  const [row] = lock ? await query.for("update", { of: quizAttempts }) : await query;
  if (!row) throw AppError.notFound("Tentative introuvable.");
  return row;
}

/**
 * Answering or submitting needs the course still followed: an enrolment paused (or cancelled)
 * while an attempt is open freezes it. Its saved answers stay; a timed one is still closed and
 * graded at its deadline by the server; reopened, an untimed one goes on where it was.
 */
export function assertStillFollowing({ enrolmentStatus }: { enrolmentStatus: EnrolmentStatus | null }) {
  if (isFollowing(enrolmentStatus)) return;
  throw AppError.forbidden(
    "Votre inscription à cette formation est suspendue\u00a0: vos réponses enregistrées sont gardées, mais le quiz ne peut pas continuer.",
    enrolmentStatus === "paused" ? "paused" : "not_enrolled",
  );
}

/** An answer as kept for its question ("" for none), or null when it is not one of the choices offered. */
export function answerFor(question: AttemptQuestion, answer: string): string | null {
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

/**
 * The questions an untimed quiz's page carries to be answered offline, and the attempt recorded
 * from them when the network returns: the learner's next attempt, drawn and shuffled as online but
 * from a seed (quiz, learner, attempt number), so that the server draws the same set again.
 */
export function offlineDraw(
  quiz: Pick<typeof quizzes.$inferSelect, "id" | "questions" | "drawCount" | "shuffleQuestions" | "shuffleOptions">,
  userId: string,
  attemptNumber: number,
): AttemptQuestion[] {
  return prepareAttemptQuestions(quiz.questions, quiz, seededRandom(`${quiz.id}:${userId}:${attemptNumber}`));
}
