/**
 * Exams that certify (issue 38): when a learner sees the correction of a graded attempt (after
 * each submit, after the last attempt or a pass, from a date, never), what they see until then
 * (their score and which questions were right, never the expected answers), questions drawn from
 * a pool per attempt and kept in the attempt's snapshot, and grading from that snapshot only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { isAppError } from "~/.server/errors";
import { getLearnerAttempt, getLearnerQuiz, quizFormValuesOf, startAttempt, submitAttempt, updateQuiz } from "~/.server/quizzes";
import { seededRandom } from "~/lib/quiz";
import { loader as attemptLoader } from "~/routes/dashboard/quiz-tentative";
import { createCourse, createQuiz, createUser, enrol, type QuizOverrides, type TestUser } from "../factories";
import { createTestAuth } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeCaller } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher" });
});
afterAll(async () => handle?.close());

const call = routeCaller(() => ({ db: handle.db, campus }));

/** Ten Vrai/Faux questions, « Affirmation n » whose right answer is "true", each with an explanation that gives it away. */
const POOL = Array.from({ length: 10 }, (_, index) => ({
  type: "true_false" as const,
  question: `Affirmation ${index + 1}`,
  correctAnswer: "true",
  explanation: `Secret ${index + 1} : c'était vrai.`,
}));

async function setting(overrides: QuizOverrides = {}) {
  const { course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 1 });
  const quiz = await createQuiz(handle.db, teacher, course, { required: true, questions: POOL, ...overrides });
  const learner = await createUser(handle.db);
  await enrol(handle.db, learner, course);
  return { course, quiz, learner };
}

type Setting = Awaited<ReturnType<typeof setting>>;

/** One attempt: right on the first `right` questions drawn, wrong on the rest. */
async function attempt({ course, quiz, learner }: Setting, right: number, now = new Date()) {
  const { attempt: started } = await startAttempt(handle.db, learner, course.slug, quiz.id, now);
  const answers = Object.fromEntries(started.questions.map((question, index) => [question.id, index < right ? "true" : "false"]));
  return submitAttempt(handle.db, learner, started.id, answers, now);
}

const view = (s: Setting, attemptId: number, now = new Date()) =>
  getLearnerAttempt(handle.db, s.learner, s.course.slug, s.quiz.id, attemptId, now);

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("corrections after the last attempt or a pass", () => {
  it("shows a failed learner with attempts left their score and which questions were wrong, never the expected answers", async () => {
    const s = await setting({ corrections: "after_last_attempt", maxAttempts: 3, passingScore: 70 });
    const failed = await attempt(s, 6);
    expect(failed).toMatchObject({ score: 60, passed: false });

    const seen = await view(s, failed.id);
    if (seen.state !== "graded") throw new Error("graded expected");
    expect(seen).toMatchObject({ attemptsLeft: 2, corrections: null, correctionsLater: { mode: "after_last_attempt" } });
    expect(seen.outcomes.map((outcome) => outcome.correct)).toEqual([true, true, true, true, true, true, false, false, false, false]);

    // The page as the browser gets it: the score, which were wrong, when the correction opens; no answer, no explanation.
    const path = `/dashboard/formations/${s.course.slug}/quiz/${s.quiz.id}/tentatives/${failed.id}`;
    const page = await call(attemptLoader, s.learner, path, {
      params: { slug: s.course.slug, quizId: String(s.quiz.id), attemptId: String(failed.id) },
    });
    expect(page.status).toBe(200);
    const data = page.data as {
      attempt: { score: number };
      corrections: null;
      outcomes: Array<{ correct: boolean }>;
      correctionsLater: string;
    };
    expect(data.attempt.score).toBe(60);
    expect(data.corrections).toBeNull();
    expect(data.outcomes.filter((outcome) => !outcome.correct)).toHaveLength(4);
    expect(data.correctionsLater).toBe(
      "La correction (réponses attendues et explications) sera disponible après votre dernière tentative, ou dès que vous aurez réussi le quiz.",
    );
    const sent = JSON.stringify(page.data);
    expect(sent).not.toMatch(/Secret|expected|explanation|correctAnswer|Réponse attendue/);
  });

  it("shows the correction once the last attempt is spent, and after a pass, which closes the quiz to new attempts", async () => {
    const spent = await setting({ corrections: "after_last_attempt", maxAttempts: 2 });
    const first = await attempt(spent, 2);
    expect(await view(spent, first.id)).toMatchObject({ attemptsLeft: 1, corrections: null });
    await attempt(spent, 3);
    const afterLast = await view(spent, first.id);
    if (afterLast.state !== "graded") throw new Error("graded expected");
    expect(afterLast.correctionsLater).toBeNull();
    expect(afterLast.corrections).toHaveLength(10);
    expect(afterLast.corrections![9]).toMatchObject({
      correct: false,
      given: "Faux",
      expected: "Vrai",
      explanation: expect.stringMatching(/^Secret/),
    });

    const passed = await setting({ corrections: "after_last_attempt", maxAttempts: 3 });
    const pass = await attempt(passed, 8);
    expect(pass.passed).toBe(true);
    const afterPass = await view(passed, pass.id);
    expect(afterPass.state === "graded" && afterPass.corrections).toHaveLength(10);
    // Seen the answers, the learner could score 100 % on a retake: none is opened.
    expect(await refusal(startAttempt(handle.db, passed.learner, passed.course.slug, passed.quiz.id))).toMatchObject({
      code: "conflict",
      reason: "corrections_open",
    });
    const page = await getLearnerQuiz(handle.db, passed.learner, passed.course.slug, passed.quiz.id);
    expect(page).toMatchObject({ attemptsLeft: 2, closed: expect.stringContaining("ne se repasse plus"), offlineQuestions: null });
  });
});

describe("corrections never, or from a date", () => {
  it("never shows the correction of a quiz set to « Jamais », even with every attempt spent", async () => {
    const s = await setting({ corrections: "never", maxAttempts: 1 });
    const only = await attempt(s, 3);
    const seen = await view(s, only.id);
    if (seen.state !== "graded") throw new Error("graded expected");
    expect(seen).toMatchObject({ attemptsLeft: 0, corrections: null, correctionsLater: { mode: "never" } });
    expect(JSON.stringify(seen.outcomes)).not.toContain("Secret");
  });

  it("opens the correction at its date and then takes no new attempt", async () => {
    const opensAt = new Date("2026-12-20T18:00:00Z");
    const before = new Date("2026-12-20T17:59:00Z");
    const after = new Date("2026-12-20T18:00:00Z");
    const s = await setting({ corrections: "after_date", correctionsAt: opensAt, maxAttempts: 3 });
    const failed = await attempt(s, 2, new Date("2026-12-19T10:00:00Z"));
    const early = await view(s, failed.id, before);
    expect(early).toMatchObject({ corrections: null, correctionsLater: { mode: "after_date", at: opensAt } });
    const late = await view(s, failed.id, after);
    expect(late.state === "graded" && late.corrections).toHaveLength(10);
    expect(await refusal(startAttempt(handle.db, s.learner, s.course.slug, s.quiz.id, after))).toMatchObject({
      reason: "corrections_open",
    });
  });
});

describe("questions drawn from a pool", () => {
  it("draws the quiz's number of questions per attempt, a different set at each, kept by the attempt", async () => {
    const s = await setting({ drawCount: 3, corrections: "after_submit", maxAttempts: 3 });
    const first = await startAttempt(handle.db, s.learner, s.course.slug, s.quiz.id, new Date(), seededRandom("première"));
    await submitAttempt(handle.db, s.learner, first.attempt.id, {});
    const second = await startAttempt(handle.db, s.learner, s.course.slug, s.quiz.id, new Date(), seededRandom("deuxième"));
    const drawn = (questions: Array<{ question: string }>) => questions.map((question) => question.question).sort();
    expect(first.attempt.questions).toHaveLength(3);
    expect(second.attempt.questions).toHaveLength(3);
    expect(first.attempt.totalPoints).toBe(3);
    expect(drawn(second.attempt.questions)).not.toEqual(drawn(first.attempt.questions));
    for (const question of [...first.attempt.questions, ...second.attempt.questions])
      expect(POOL.map((item) => item.question)).toContain(question.question);

    // The learner's page says how many are asked, not the pool.
    const page = await getLearnerQuiz(handle.db, s.learner, s.course.slug, s.quiz.id);
    expect(page.quiz).toMatchObject({ questionCount: 3, totalPoints: null });
  });

  it("grades from the attempt's snapshot: a question edited or deleted after the start changes nothing", async () => {
    const s = await setting({ drawCount: 4, shuffleQuestions: true, corrections: "after_submit" });
    const { attempt: started } = await startAttempt(handle.db, s.learner, s.course.slug, s.quiz.id);
    const [edited, deleted] = started.questions;
    // The teacher turns the first drawn question's answer to "false" and deletes the second one.
    const values = quizFormValuesOf(s.quiz);
    values.questions = values.questions
      .filter((question) => question.id !== deleted!.id)
      .map((question) => (question.id === edited!.id ? { ...question, correctAnswer: "false" } : question));
    await updateQuiz(handle.db, teacher, s.quiz.id, values);

    const answers = Object.fromEntries(started.questions.map((question) => [question.id, "true"]));
    const graded = await submitAttempt(handle.db, s.learner, started.id, answers);
    expect(graded).toMatchObject({ score: 100, passed: true, earnedPoints: 4, totalPoints: 4 });
    expect(graded.results!.map((result) => result.questionId)).toEqual(started.questions.map((question) => question.id));
  });
});
