/**
 * The seed's assessment content: every seeded course has a required final quiz drawing six of its 8
 * to 10 questions of all three types (shuffled, corrections after the last attempt or a pass) (each one's right answer among its options), each lesson a text of
 * its own, and in a trial the demo learners' graded attempts, a pass for each course they finished;
 * running it again changes nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { issueCertificateIfComplete } from "~/.server/certificates";
import { certificates, courses, jobs, lessons, quizAttempts, quizzes, users } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { seedCourses } from "~/.server/db/seed/catalogue-data";
import { COMPLETION_CHECK_QUEUE, type CompletionCheck } from "~/.server/learning";
import { testCertificates } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => handle?.close());

test("each seeded course has a required final quiz of real questions, and its lessons their own texts", async () => {
  const rows = await handle.db
    .select({ slug: courses.slug, quiz: quizzes })
    .from(quizzes)
    .innerJoin(courses, eq(quizzes.courseId, courses.id));
  expect(rows.map((row) => row.slug).sort()).toEqual(seedCourses.map((course) => course.slug).sort());
  for (const { quiz } of rows) {
    expect(quiz.required).toBe(true);
    // A certifying exam: six drawn from a larger pool, shuffled, its correction kept until the last attempt or a pass.
    expect(quiz).toMatchObject({ drawCount: 6, shuffleQuestions: true, shuffleOptions: true, corrections: "after_last_attempt" });
    expect(quiz.questions.length).toBeGreaterThan(quiz.drawCount!);
    expect(quiz.questions.length).toBeGreaterThanOrEqual(8);
    expect(quiz.questions.length).toBeLessThanOrEqual(10);
    expect(new Set(quiz.questions.map((question) => question.type))).toEqual(new Set(["multiple_choice", "true_false", "short_answer"]));
    for (const question of quiz.questions) {
      if (question.type === "multiple_choice") expect(question.options[Number(question.correctAnswer)]).toBeTruthy();
      expect(question.explanation.length).toBeGreaterThan(10);
    }
  }
  const texts = await handle.db.select({ content: lessons.content }).from(lessons);
  expect(new Set(texts.map((lesson) => lesson.content)).size).toBe(texts.length);
  expect(texts.some((lesson) => lesson.content.startsWith("Ce module porte sur"))).toBe(false);
});

test("a trial gives the demo student a failed attempt, and each demo learner who finished a course a pass and a certificate to issue, once", async () => {
  await seedDatabase(handle.db, { demoAccounts: true });
  await seedDatabase(handle.db, { demoAccounts: true });
  const attempts = await handle.db
    .select({ email: users.email, course: courses.slug, attempt: quizAttempts })
    .from(quizAttempts)
    .innerJoin(users, eq(quizAttempts.userId, users.id))
    .innerJoin(quizzes, eq(quizAttempts.quizId, quizzes.id))
    .innerJoin(courses, eq(quizzes.courseId, courses.id))
    .orderBy(users.email, courses.slug);
  expect(attempts.map(({ email, course, attempt }) => [email, course, attempt.status, attempt.score, attempt.passed])).toEqual([
    ["etudiant@campus.test", "energie-solaire", "submitted", 83.33, true],
    ["etudiant@campus.test", "intelligence-artificielle", "submitted", 66.67, false],
    ["moussa.diallo@campus.test", "intelligence-artificielle", "submitted", 83.33, true],
  ]);
  // Each attempt keeps the six questions drawn for it.
  for (const { attempt } of attempts) expect(attempt.questions).toHaveLength(6);
  // Passed the day after the last lesson, as a learner would, never in the future.
  for (const { attempt } of attempts) expect(attempt.submittedAt!.getTime()).toBeLessThan(Date.now());
  expect(await handle.db.$count(quizzes)).toBe(seedCourses.length);

  // The completion checks the passes asked for issue one certificate each, as the app's jobs do.
  const checks = await handle.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.queue, COMPLETION_CHECK_QUEUE));
  expect(checks).toHaveLength(2);
  for (const { payload } of checks) await issueCertificateIfComplete(handle.db, testCertificates, payload as CompletionCheck);
  const issued = await handle.db
    .select({ email: users.email, course: certificates.courseTitle })
    .from(certificates)
    .innerJoin(users, eq(certificates.userId, users.id))
    .orderBy(users.email);
  expect(issued).toEqual([
    { email: "etudiant@campus.test", course: "Énergie Solaire" },
    { email: "moussa.diallo@campus.test", course: "Intelligence Artificielle" },
  ]);
});
