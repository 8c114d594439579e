import { and, count, eq, isNull, sql, type SQLWrapper } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, enrolments, quizAttemptGrants, quizAttempts, quizzes } from "../db/schema";
import { AppError } from "../errors";
import { followingEnrolment } from "../learning";
import { notifyUser } from "../notifications";
import { canManageQuiz } from "./policy";

/**
 * A learner's attempts limit at a quiz, on a query joined with that learner's quiz_attempt_grants
 * row: the quiz's own, plus the attempts opened to them.
 */
export const learnerAttemptLimit = () =>
  sql<number>`${quizzes.maxAttempts} + coalesce(${quizAttemptGrants.extraAttempts}, 0)`.mapWith(Number);

/**
 * Whether a learner failed a quiz with every attempt spent (the teacher may open one more), from
 * their attempts used and whether one passed, on a query joined as for learnerAttemptLimit.
 */
export const attemptsSpent = (used: SQLWrapper, passed: SQLWrapper) =>
  sql<boolean>`(not ${passed} and ${used} >= ${learnerAttemptLimit()})`;

/** The table's check (quiz_attempt_grants_extra_range) allows no more. */
const MAX_EXTRA_ATTEMPTS = 50;

/**
 * "Accorder une tentative": the quiz's teacher (or an administrator) opens one more attempt to a
 * learner of the course who spent all of theirs without passing. The learner's extra attempts are
 * set to a total (attempts used + 1, beyond the quiz's limit), so a double click or two teachers
 * at once open one attempt, not two; the learner is told once for each attempt opened. A quiz the
 * actor does not manage, or someone who does not follow its course: not found. A learner who
 * passed, or still has an attempt: refused with the reason.
 */
export async function grantExtraAttempt(db: Database, actor: Actor, input: { quizId: number; learnerId: string }, now = new Date()) {
  const notFound = () => AppError.notFound("Quiz ou apprenant introuvable.");
  if (!Number.isSafeInteger(input.quizId) || input.quizId <= 0) throw notFound();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        quiz: { id: quizzes.id, title: quizzes.title, maxAttempts: quizzes.maxAttempts },
        course: { slug: courses.slug, instructorId: courses.instructorId },
        enrolmentId: enrolments.id,
      })
      .from(quizzes)
      .innerJoin(courses, eq(courses.id, quizzes.courseId))
      .innerJoin(enrolments, and(eq(enrolments.courseId, courses.id), eq(enrolments.userId, input.learnerId), followingEnrolment()))
      .where(and(eq(quizzes.id, input.quizId), isNull(quizzes.deletedAt)));
    if (!row || !canManageQuiz(actor, row.course)) throw notFound();
    // The learner's enrolment is locked, as when they start an attempt: the count below holds.
    await tx.select({ id: enrolments.id }).from(enrolments).where(eq(enrolments.id, row.enrolmentId)).for("update");
    const [tally] = await tx
      .select({ attempts: count(), passed: sql<number>`count(*) filter (where ${quizAttempts.passed})`.mapWith(Number) })
      .from(quizAttempts)
      .where(and(eq(quizAttempts.quizId, row.quiz.id), eq(quizAttempts.userId, input.learnerId)));
    const [grant] = await tx
      .select({ extra: quizAttemptGrants.extraAttempts })
      .from(quizAttemptGrants)
      .where(and(eq(quizAttemptGrants.quizId, row.quiz.id), eq(quizAttemptGrants.userId, input.learnerId)));
    if ((tally?.passed ?? 0) > 0) throw AppError.conflict("Cet apprenant a déjà réussi ce quiz.", "passed");
    const attempts = Number(tally?.attempts ?? 0);
    if (attempts < row.quiz.maxAttempts + (grant?.extra ?? 0))
      throw AppError.conflict("Cet apprenant a encore une tentative : il peut la passer dès maintenant.", "attempt_left");
    const extra = attempts + 1 - row.quiz.maxAttempts;
    if (extra > MAX_EXTRA_ATTEMPTS)
      throw AppError.conflict(`Au plus ${MAX_EXTRA_ATTEMPTS} tentatives supplémentaires par apprenant.`, "too_many");
    await tx
      .insert(quizAttemptGrants)
      .values({ quizId: row.quiz.id, userId: input.learnerId, extraAttempts: extra, grantedBy: actor.id, updatedAt: now })
      .onConflictDoUpdate({
        target: [quizAttemptGrants.quizId, quizAttemptGrants.userId],
        set: { extraAttempts: extra, grantedBy: actor.id, updatedAt: now },
      });
    await notifyUser(tx, {
      userId: input.learnerId,
      kind: "quiz_attempt_granted",
      title: "Nouvelle tentative ouverte",
      body: `Une nouvelle tentative vous est ouverte au quiz « ${row.quiz.title} » : vous pouvez le repasser.`,
      link: `/dashboard/formations/${row.course.slug}/quiz/${row.quiz.id}`,
      key: `quiz-attempt:${row.quiz.id}:${attempts + 1}`,
      now,
    });
    return { allowed: attempts + 1, attemptsUsed: attempts };
  });
}
