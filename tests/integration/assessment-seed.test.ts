/**
 * The seed's assessment content: every seeded course has a required final quiz of 8 to 10
 * questions of all three types (each one's right answer among its options), each lesson a text of
 * its own, and in a trial the demo learner one graded attempt; running it again changes nothing.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, lessons, quizAttempts, quizzes, users } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { seedCourses } from "~/.server/db/seed/catalogue-data";
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

test("a trial gives the demo learner one failed attempt, once", async () => {
  await seedDatabase(handle.db, { demoAccounts: true });
  await seedDatabase(handle.db, { demoAccounts: true });
  const attempts = await handle.db
    .select({ attempt: quizAttempts })
    .from(quizAttempts)
    .innerJoin(users, eq(quizAttempts.userId, users.id))
    .where(eq(users.email, "etudiant@campus.test"));
  expect(attempts).toHaveLength(1);
  expect(attempts[0]!.attempt).toMatchObject({ status: "submitted", score: 62.5, passed: false });
  expect(await handle.db.$count(quizzes)).toBe(seedCourses.length);
});
