/**
 * Quizzes answered offline (issue 13): an untimed quiz's page carries its questions (never their
 * answers) so that a phone without network can answer it; the attempt, named by an id the phone
 * made, is sent when the network returns — twice, at once, late, with someone else's id, for a
 * timed quiz — through the route module as the phone calls it, and recorded once.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, quizAttempts } from "~/.server/db/schema";
import { COMPLETION_CHECK_QUEUE } from "~/.server/learning";
import type { QuestionType } from "~/lib/quiz";
import { recordOfflineAttempt, saveAnswers, startAttempt } from "~/.server/quizzes";
import { loader as planLoader } from "~/routes/dashboard/hors-ligne";
import { loader as quizLoader } from "~/routes/dashboard/quiz";
import { action as offlineAction, loader as offlineLoader } from "~/routes/dashboard/quiz-hors-ligne";
import {
  createCourse,
  createQuiz,
  createUser,
  enrol,
  rightAnswers as answersByType,
  takeQuiz,
  type QuizOverrides,
  type TestUser,
} from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeCaller, routeOutcome } from "../setup/routes";

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

type QuizPage = {
  offlineQuestions: Array<{ id: string; type: QuestionType; question: string; options: string[] }> | null;
  attempts: Array<{ attemptNumber: number; score: number | null; passed: boolean | null }>;
};

/** A free course whose first lesson is followed by a quiz (the factory's three questions, one point each), and a learner. */
async function setting(overrides: QuizOverrides = {}) {
  const { course, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: 2 });
  const quiz = await createQuiz(handle.db, teacher, course, { lessonId: lessons[0]!.id, required: true, ...overrides });
  const learner = await createUser(handle.db);
  await enrol(handle.db, learner, course);
  const base = `/dashboard/formations/${course.slug}/quiz/${quiz.id}`;
  const params = { slug: course.slug, quizId: String(quiz.id) };
  return { course, lessons, quiz, learner, base, params };
}

/** The quiz's page as the learner's phone stored it. */
async function page(learner: TestUser, base: string, params: Record<string, string>) {
  const outcome = await call(quizLoader, learner, base, { params });
  expect(outcome.status).toBe(200);
  return outcome.data as QuizPage;
}

/** What the phone's queue sends for an attempt: its id, when it was answered, and the answers. */
function send(user: TestUser, base: string, params: Record<string, string>, id: string, answers: Record<string, string>, at = new Date()) {
  const form: Record<string, string> = { tentative: id, repondu: at.toISOString() };
  for (const [questionId, answer] of Object.entries(answers)) form[`answers.${questionId}`] = answer;
  return call(offlineAction, user, `${base}/hors-ligne`, { form, params });
}

/** Right answers to the factory's questions, by the ids the page gave. */
function rightAnswers(questions: NonNullable<QuizPage["offlineQuestions"]>): Record<string, string> {
  const [qcm, trueFalse, short] = questions;
  return { [qcm!.id]: "1", [trueFalse!.id]: "true", [short!.id]: " bamako " };
}

async function attemptsOf(userId: string, quizId: number) {
  return handle.db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quizId)));
}

async function completionChecksOf(userId: string) {
  const rows = await handle.db.select().from(jobs).where(eq(jobs.queue, COMPLETION_CHECK_QUEUE));
  return rows.filter((job) => (job.payload as { userId: string }).userId === userId);
}

describe("an untimed quiz's page", () => {
  it("carries its questions for answering offline, never their answers; a timed one does not", async () => {
    const { learner, base, params } = await setting();
    const untimed = await page(learner, base, params);
    expect(untimed.offlineQuestions?.map((question) => question.type)).toEqual(["multiple_choice", "true_false", "short_answer"]);
    const text = JSON.stringify(untimed);
    expect(text).not.toContain("correctAnswer");
    expect(text).not.toContain("Bamako");

    const timed = await setting({ timeLimitMinutes: 10 });
    expect((await page(timed.learner, timed.base, timed.params)).offlineQuestions).toBeNull();
  });

  it("is stored with its lesson when the lesson is downloaded", async () => {
    const { course, lessons, quiz, learner } = await setting();
    const path = `/dashboard/formations/${course.slug}/hors-ligne?lecon=${lessons[0]!.id}`;
    const plan = await call(planLoader, learner, path, { params: { slug: course.slug } });
    expect(JSON.parse(plan.body!)).toMatchObject({
      lessons: [
        { id: lessons[0]!.id, quizzes: [{ id: quiz.id, title: quiz.title, path: `/dashboard/formations/${course.slug}/quiz/${quiz.id}` }] },
      ],
    });
  });
});

describe("an attempt answered offline, sent when the network returns", () => {
  it("is recorded once, graded, dated when answered, however many times and however close together it arrives", async () => {
    const { quiz, learner, base, params } = await setting();
    const questions = (await page(learner, base, params)).offlineQuestions!;
    const id = crypto.randomUUID();
    const answeredAt = new Date(Date.now() - 3 * 60 * 60 * 1000);

    // The queue sends it, the connection drops before the answer, two tabs send it again at once.
    expect(await send(learner, base, params, id, rightAnswers(questions), answeredAt)).toMatchObject({ status: 204 });
    const replays = await Promise.all([1, 2].map(() => send(learner, base, params, id, rightAnswers(questions), answeredAt)));
    expect(replays.map((outcome) => outcome.status)).toEqual([204, 204]);

    const rows = await attemptsOf(learner.id, quiz.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ clientId: id, status: "submitted", attemptNumber: 1, score: 100, passed: true, earnedPoints: 3 });
    expect(rows[0]!.submittedAt!.getTime()).toBe(answeredAt.getTime());
    // One pass, one certificate check (the quiz is required).
    expect(await completionChecksOf(learner.id)).toHaveLength(1);
    // The learner finds it on the quiz's page.
    expect((await page(learner, base, params)).attempts).toEqual([expect.objectContaining({ attemptNumber: 1, score: 100, passed: true })]);
  });

  it("of a quiz drawing from a pool, is the draw the page carried: recorded with those questions, in that order, and graded on them", async () => {
    const { quiz, learner, base, params } = await setting({ drawCount: 2, shuffleQuestions: true, shuffleOptions: true });
    const questions = (await page(learner, base, params)).offlineQuestions!;
    expect(questions).toHaveLength(2);
    // The same page again carries the same draw: the phone may have stored either.
    expect((await page(learner, base, params)).offlineQuestions).toEqual(questions);

    const id = crypto.randomUUID();
    expect(await send(learner, base, params, id, answersByType()(questions))).toMatchObject({ status: 204 });
    const [row] = await attemptsOf(learner.id, quiz.id);
    expect(row!.questions.map(({ id, options }) => ({ id, options }))).toEqual(questions.map(({ id, options }) => ({ id, options })));
    expect(row).toMatchObject({ score: 100, passed: true, earnedPoints: 2, totalPoints: 2 });
  });

  it("counts a wrong choice, or an answer to a question since removed, as no answer; a date in the future as now", async () => {
    const { quiz, learner, base, params } = await setting({ maxAttempts: 2 });
    const [qcm, trueFalse] = (await page(learner, base, params)).offlineQuestions!;
    const before = Date.now();
    const future = new Date(Date.now() + 24 * 60 * 60 * 1000);
    const answers = { [qcm!.id]: "7", [trueFalse!.id]: "true", "question-retiree": "1" };
    expect(await send(learner, base, params, crypto.randomUUID(), answers, future)).toMatchObject({ status: 204 });
    const [row] = await attemptsOf(learner.id, quiz.id);
    expect(row).toMatchObject({ answers: { [trueFalse!.id]: "true" }, earnedPoints: 1, passed: false });
    expect(row!.submittedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row!.submittedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    // A failed attempt asks for no certificate.
    expect(await completionChecksOf(learner.id)).toHaveLength(0);
  });

  it("refuses another learner's attempt id, leaving both learners' attempts as they were", async () => {
    const { course, quiz, learner, base, params } = await setting();
    const other = await createUser(handle.db);
    await enrol(handle.db, other, course);
    const questions = (await page(learner, base, params)).offlineQuestions!;
    const id = crypto.randomUUID();
    expect(await send(learner, base, params, id, rightAnswers(questions))).toMatchObject({ status: 204 });

    // The other learner's phone sends the same id (replayed, forged): not found, nothing written.
    expect(await send(other, base, params, id, {})).toMatchObject({ status: 404 });
    expect(await attemptsOf(other.id, quiz.id)).toHaveLength(0);
    expect(await attemptsOf(learner.id, quiz.id)).toEqual([expect.objectContaining({ clientId: id, score: 100 })]);
    // The same id for another quiz of the learner's is not that attempt either.
    const second = await createQuiz(handle.db, teacher, course, { title: "Quiz deux" });
    const secondParams = { slug: course.slug, quizId: String(second.id) };
    expect(await send(learner, `/dashboard/formations/${course.slug}/quiz/${second.id}`, secondParams, id, {})).toMatchObject({
      status: 404,
    });
    expect(await attemptsOf(learner.id, second.id)).toHaveLength(0);
  });

  it("refuses a timed quiz, a learner with no attempt left, and someone who does not follow the course", async () => {
    const timed = await setting({ timeLimitMinutes: 15 });
    // The phone shows the learner the reason it gets, in French.
    expect(await send(timed.learner, timed.base, timed.params, crypto.randomUUID(), {})).toMatchObject({
      status: 409,
      body: "Ce quiz est chronométré : il demande une connexion.",
    });
    expect(await attemptsOf(timed.learner.id, timed.quiz.id)).toHaveLength(0);
    await expect(
      recordOfflineAttempt(handle.db, timed.learner, timed.course.slug, timed.quiz.id, {
        clientId: crypto.randomUUID(),
        answers: {},
        answeredAt: new Date(),
      }),
    ).rejects.toMatchObject({ code: "conflict", reason: "timed", message: "Ce quiz est chronométré : il demande une connexion." });

    const { course, quiz, learner, base, params } = await setting({ maxAttempts: 1 });
    await takeQuiz(handle.db, learner, course, quiz, () => ({}));
    expect(await send(learner, base, params, crypto.randomUUID(), {})).toMatchObject({
      status: 409,
      body: "Vous avez utilisé toutes vos tentatives pour ce quiz (1 sur 1).",
    });
    expect(await attemptsOf(learner.id, quiz.id)).toHaveLength(1);

    const stranger = await createUser(handle.db);
    expect(await send(stranger, base, params, crypto.randomUUID(), {})).toMatchObject({ status: 404 });
    expect(await attemptsOf(stranger.id, quiz.id)).toHaveLength(0);
  });

  it("refuses a bad body and a GET; a signed-out phone is sent to sign in (and keeps its attempt)", async () => {
    const { quiz, learner, base, params } = await setting();
    expect(await call(offlineAction, learner, `${base}/hors-ligne`, { form: { repondu: new Date().toISOString() }, params })).toMatchObject(
      {
        status: 400,
      },
    );
    expect(await send(learner, base, params, "pas-un-identifiant", {})).toMatchObject({ status: 400 });
    expect(
      await call(offlineAction, learner, `${base}/hors-ligne`, { form: { tentative: crypto.randomUUID(), repondu: "hier" }, params }),
    ).toMatchObject({ status: 400 });
    expect(await routeOutcome(() => offlineLoader())).toMatchObject({ status: 405 });

    const path = `${base}/hors-ligne`;
    const request = new Request(`${TEST_PUBLIC_URL}${path}`, {
      method: "POST",
      body: new URLSearchParams({ tentative: crypto.randomUUID(), repondu: new Date().toISOString() }),
    });
    const args = { request, params, context: routerContext(handle.db, campus), url: new URL(request.url), pattern: path };
    expect((await routeOutcome(() => asServer(offlineAction, args as never))).status).toBe(302);
    expect(await attemptsOf(learner.id, quiz.id)).toHaveLength(0);
  });
});

describe("answers that finish an attempt started online, sent when the network returns", () => {
  it("grade and close that attempt once, completing what was saved, however many times they arrive", async () => {
    const { quiz, learner, base, params } = await setting();
    const { attempt } = await startAttempt(handle.db, learner, params.slug, quiz.id);
    const [qcm, trueFalse, short] = attempt.questions;
    // Saved online before the network went; the rest given offline.
    await saveAnswers(handle.db, learner, attempt.id, { [qcm!.id]: "1" });
    const id = crypto.randomUUID();
    const form = { tentative: id, repondu: new Date().toISOString(), ouverte: String(attempt.id) };
    const offline = { ...form, [`answers.${trueFalse!.id}`]: "true", [`answers.${short!.id}`]: "Bamako" };
    for (let replay = 0; replay < 3; replay += 1)
      expect(await call(offlineAction, learner, `${base}/hors-ligne`, { form: offline, params })).toMatchObject({ status: 204 });

    const rows = await attemptsOf(learner.id, quiz.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: attempt.id, clientId: id, status: "submitted", score: 100, passed: true });
    expect(await completionChecksOf(learner.id)).toHaveLength(1);
  });

  it("refuses someone else's open attempt, and a timed one", async () => {
    const { course, quiz, learner, base, params } = await setting();
    const other = await createUser(handle.db);
    await enrol(handle.db, other, course);
    const { attempt } = await startAttempt(handle.db, learner, params.slug, quiz.id);
    const form = { tentative: crypto.randomUUID(), repondu: new Date().toISOString(), ouverte: String(attempt.id) };
    expect(await call(offlineAction, other, `${base}/hors-ligne`, { form, params })).toMatchObject({ status: 404 });
    expect(await attemptsOf(learner.id, quiz.id)).toEqual([expect.objectContaining({ status: "in_progress", clientId: null })]);
    expect(await attemptsOf(other.id, quiz.id)).toHaveLength(0);

    const timed = await setting({ timeLimitMinutes: 20 });
    const open = (await startAttempt(handle.db, timed.learner, timed.params.slug, timed.quiz.id)).attempt;
    const timedForm = { tentative: crypto.randomUUID(), repondu: new Date().toISOString(), ouverte: String(open.id) };
    expect(await call(offlineAction, timed.learner, `${timed.base}/hors-ligne`, { form: timedForm, params: timed.params })).toMatchObject({
      status: 409,
    });
    expect(await attemptsOf(timed.learner.id, timed.quiz.id)).toEqual([expect.objectContaining({ status: "in_progress" })]);
  });
});
