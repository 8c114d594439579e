/**
 * Learning offline (issue 13): the download plan a phone asks before storing a course or a lesson,
 * and the progress it kept offline, replayed when the network returns — twice, late, out of
 * order, for someone else's lesson — through the route modules as the phone calls them.
 */
import { and, eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { enrolments, jobs, lessonProgress } from "~/.server/db/schema";
import { COMPLETION_CHECK_QUEUE, setLessonDone } from "~/.server/learning";
import { loader as planLoader } from "~/routes/dashboard/hors-ligne";
import { action as progressAction, loader as progressLoader } from "~/routes/dashboard/lecon-progression";
import { createCourse, createQuiz, createSignedInUser, createUser, DEFAULT_QUESTIONS, enrol } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
});
afterAll(async () => handle?.close());

type Args = { request: Request; params: Record<string, string>; context: RouterContextProvider; url: URL; pattern: string };

function args(path: string, options: { cookie?: string; form?: Record<string, string>; params?: Record<string, string> } = {}): Args {
  const headers = new Headers(options.cookie ? { cookie: options.cookie } : {});
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: body ? "POST" : "GET", headers, body });
  return { request, params: options.params ?? {}, context: routerContext(handle.db, campus), url: new URL(request.url), pattern: path };
}

/** A free course of three lessons, a learner following it (signed in), and someone who does not. */
async function setting(title: string) {
  const teacher = await createUser(handle.db, { role: "teacher" });
  const { course, lessons } = await createCourse(handle.db, { instructor: teacher, title, priceFcfa: 0, lessons: 3 });
  const learner = await createSignedInUser(campus, handle.db);
  const stranger = await createSignedInUser(campus, handle.db);
  await enrol(handle.db, learner.user, course);
  return { teacher, course, lessons, learner, stranger };
}

function send(slug: string, lessonId: number, cookie: string | undefined, form: Record<string, string>) {
  const path = `/dashboard/formations/${slug}/lecons/${lessonId}/progression`;
  return routeOutcome(() => asServer(progressAction, args(path, { cookie, form, params: { slug, lessonId: String(lessonId) } }) as never));
}

async function progressRow(userId: string, lessonId: number) {
  const [row] = await handle.db
    .select({ completedAt: lessonProgress.completedAt, positionSeconds: lessonProgress.positionSeconds, progress: enrolments.progress })
    .from(lessonProgress)
    .innerJoin(enrolments, eq(lessonProgress.enrolmentId, enrolments.id))
    .where(and(eq(enrolments.userId, userId), eq(lessonProgress.lessonId, lessonId)));
  return row;
}

describe("progress replayed from a phone that was offline", () => {
  it("keeps the furthest position and the first completion, whatever the order and however many times it arrives", async () => {
    const { course, lessons, learner } = await setting("Froid solaire hors ligne");
    const lesson = lessons[0]!;
    const doneAt = new Date(Date.now() - 2 * 60 * 60 * 1000);

    // The queue flushes, the connection drops before the answer, it flushes again; a stale
    // position (an older beacon) arrives last.
    expect(await send(course.slug, lesson.id, learner.cookie, { secondes: "95", terminee: doneAt.toISOString() })).toMatchObject({
      status: 204,
    });
    expect(await send(course.slug, lesson.id, learner.cookie, { secondes: "95", terminee: doneAt.toISOString() })).toMatchObject({
      status: 204,
    });
    expect(await send(course.slug, lesson.id, learner.cookie, { secondes: "40" })).toMatchObject({ status: 204 });

    const row = await progressRow(learner.user.id, lesson.id);
    expect(row).toMatchObject({ positionSeconds: 95, progress: 33 });
    // Done when it was pressed on the phone, not when it reached the server.
    expect(row!.completedAt!.getTime()).toBe(doneAt.getTime());

    // A later "done" (another device, or the phone's queue sent after the page's own form) keeps
    // the first date; a replay never counts a lesson twice.
    expect(await send(course.slug, lesson.id, learner.cookie, { terminee: new Date().toISOString() })).toMatchObject({ status: 204 });
    expect((await progressRow(learner.user.id, lesson.id))!.completedAt!.getTime()).toBe(doneAt.getTime());
    const rows = await handle.db.select().from(lessonProgress).where(eq(lessonProgress.lessonId, lesson.id));
    expect(rows).toHaveLength(1);
  });

  it("counts a completion dated in the future (a wrong phone clock) as now, and completes the course once", async () => {
    const { course, lessons, learner } = await setting("Pompage hors ligne");
    await setLessonDone(handle.db, learner.user, lessons[0]!.id, true);
    await setLessonDone(handle.db, learner.user, lessons[1]!.id, true);
    const future = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000);
    const before = Date.now();
    for (let replay = 0; replay < 2; replay += 1)
      expect(await send(course.slug, lessons[2]!.id, learner.cookie, { terminee: future.toISOString() })).toMatchObject({ status: 204 });
    const row = await progressRow(learner.user.id, lessons[2]!.id);
    expect(row!.completedAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(row!.completedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    const [enrolment] = await handle.db.select().from(enrolments).where(eq(enrolments.userId, learner.user.id));
    expect(enrolment).toMatchObject({ status: "completed", progress: 100 });
    // The certificate check is asked for (it issues once whatever the number of asks: certificates.test.ts).
    const asked = (await handle.db.select().from(jobs).where(eq(jobs.queue, COMPLETION_CHECK_QUEUE))).filter(
      (job) => (job.payload as { userId: string }).userId === learner.user.id,
    );
    expect(asked.length).toBeGreaterThanOrEqual(1);
  });

  it("refuses someone else's lesson, a bad body, a GET and a signed-out phone, writing nothing", async () => {
    const { course, lessons, learner, stranger } = await setting("Irrigation hors ligne");
    const lesson = lessons[1]!;
    expect(await send(course.slug, lesson.id, stranger.cookie, { secondes: "30", terminee: new Date().toISOString() })).toMatchObject({
      status: 404,
    });
    expect(await send(course.slug, lesson.id, learner.cookie, {})).toMatchObject({ status: 400 });
    expect(await send(course.slug, lesson.id, learner.cookie, { secondes: "-4" })).toMatchObject({ status: 400 });
    expect(await send(course.slug, lesson.id, learner.cookie, { terminee: "hier" })).toMatchObject({ status: 400 });
    expect(await send(course.slug, 0, learner.cookie, { secondes: "10" })).toMatchObject({ status: 400 });
    // Signed out (the session ended while offline): the guard sends to sign in; the phone keeps the entry.
    expect((await send(course.slug, lesson.id, undefined, { secondes: "10" })).status).toBe(302);
    expect(await routeOutcome(() => progressLoader())).toMatchObject({ status: 405 });
    expect(await progressRow(stranger.user.id, lesson.id)).toBeUndefined();
    expect(await progressRow(learner.user.id, lesson.id)).toBeUndefined();
  });
});

describe("the download plan", () => {
  function plan(slug: string, cookie: string, lesson?: number) {
    const path = `/dashboard/formations/${slug}/hors-ligne${lesson === undefined ? "" : `?lecon=${lesson}`}`;
    return routeOutcome(() => asServer(planLoader, args(path, { cookie, params: { slug } }) as never));
  }

  it("lists a course's lessons (or one) with their pages, for its learner only", async () => {
    const { course, lessons, learner, stranger } = await setting("Biogaz hors ligne");
    const whole = await plan(course.slug, learner.cookie);
    expect(whole.status).toBe(200);
    const body = JSON.parse(whole.body!) as {
      course: { slug: string };
      lessons: { id: number; path: string; video: unknown; documents: unknown[] }[];
    };
    expect(body.course.slug).toBe(course.slug);
    expect(body.lessons.map((lesson) => lesson.id)).toEqual(lessons.map((lesson) => lesson.id));
    expect(body.lessons[0]).toMatchObject({
      path: `/dashboard/formations/${course.slug}/lecons/${lessons[0]!.id}`,
      video: null,
      documents: [],
    });

    const one = JSON.parse((await plan(course.slug, learner.cookie, lessons[1]!.id)).body!) as { lessons: { id: number }[] };
    expect(one.lessons.map((lesson) => lesson.id)).toEqual([lessons[1]!.id]);

    expect((await plan(course.slug, learner.cookie, 999_999)).status).toBe(404);
    expect((await plan(course.slug, stranger.cookie)).status).toBe(403);
    expect((await plan("pas-de-formation", learner.cookie)).status).toBe(404);
  });

  it("adds to a whole course its untimed quizzes that follow no lesson, with their weight; not timed ones, nor another course's", async () => {
    const { teacher, course, lessons, learner } = await setting("Solaire fin de formation");
    const other = await createCourse(handle.db, { instructor: teacher, title: "Autre formation", priceFcfa: 0, lessons: 1 });
    const final = await createQuiz(handle.db, teacher, course, { title: "Examen final", lessonId: null });
    const timed = await createQuiz(handle.db, teacher, course, { title: "Examen chronométré", lessonId: null, timeLimitMinutes: 20 });
    const afterLesson = await createQuiz(handle.db, teacher, course, { title: "Quiz de la leçon 1", lessonId: lessons[0]!.id });
    const elsewhere = await createQuiz(handle.db, teacher, other.course, { title: "Quiz d'ailleurs", lessonId: null });

    type Plan = {
      lessons: { id: number; quizzes: { id: number }[] }[];
      quizzes: { id: number; title: string; path: string; textBytes: number }[];
    };
    const whole = JSON.parse((await plan(course.slug, learner.cookie)).body!) as Plan;
    // Only the untimed one that follows no lesson: not the timed one, not another course's.
    expect(whole.quizzes).toEqual([
      { id: final.id, title: "Examen final", path: `/dashboard/formations/${course.slug}/quiz/${final.id}`, textBytes: expect.any(Number) },
    ]);
    expect(whole.quizzes.map((quiz) => quiz.id)).not.toContain(timed.id);
    expect(whole.quizzes.map((quiz) => quiz.id)).not.toContain(elsewhere.id);
    // Its weight: what its page carries, the questions' and choices' texts at least.
    const texts = DEFAULT_QUESTIONS.flatMap((question) => [question.question!, ...(question.options ?? [])]).join("");
    expect(whole.quizzes[0]!.textBytes).toBeGreaterThan(new TextEncoder().encode(`Examen final${texts}`).length);
    // A lesson's quiz stays with its lesson.
    expect(whole.lessons[0]!.quizzes.map((quiz) => quiz.id)).toEqual([afterLesson.id]);

    // One lesson's plan carries no end-of-course quiz.
    const one = JSON.parse((await plan(course.slug, learner.cookie, lessons[0]!.id)).body!) as Plan;
    expect(one.quizzes).toEqual([]);
  });
});
