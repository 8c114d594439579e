/**
 * Taking a quiz through its route modules, as a browser does with or without JavaScript: the quiz
 * listed on the course home and the last lesson (and pointed to once every lesson is done),
 * "Commencer" opening an attempt, answers saved one by one (fetch) or all at once (form), a reload
 * that finds them, the deadline enforced, "Terminer et envoyer" (confirmed when questions are left
 * unanswered), the verdict and corrections, nobody else's attempt, and one more attempt opened by
 * the teacher once all are spent.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { issueCertificateIfComplete } from "~/.server/certificates";
import type { DatabaseHandle } from "~/.server/db/client";
import { notifications, quizAttemptGrants, quizAttempts, quizzes } from "~/.server/db/schema";
import { loader as courseLoader } from "~/routes/dashboard/formation";
import { action as lessonAction, loader as lessonLoader } from "~/routes/dashboard/lecon";
import { getToast } from "~/.server/toast";
import { action as quizAction, loader as quizLoader } from "~/routes/dashboard/quiz";
import { action as attemptAction, loader as attemptLoader } from "~/routes/dashboard/quiz-tentative";
import { action as studentAction, loader as studentLoader } from "~/routes/teacher/student";
import { loader as studentsLoader } from "~/routes/teacher/students";
import { createCourse, createQuiz, createUser, enrol, rightAnswers, takeQuiz, type TestUser } from "../factories";
import { createTestAuth, TEST_PUBLIC_URL, testCertificates } from "../setup/auth";
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

type OpenPage = {
  state: "open";
  questions: Array<{ id: string; type: string; options: string[] }>;
  answers: Record<string, string>;
  secondsLeft: number | null;
};
type GradedPage = {
  state: "graded";
  attempt: { score: number; passed: boolean };
  corrections: Array<{ correct: boolean; expected: string; given: string; explanation: string }> | null;
};

async function setting(overrides: Parameters<typeof createQuiz>[3] = {}) {
  const { course, lessons } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 0, lessons: [{}, {}] });
  const quiz = await createQuiz(handle.db, teacher, course, {
    required: true,
    questions: [
      {
        type: "multiple_choice",
        question: "Quelle est l'unité de la puissance ?",
        options: ["Le volt", "Le watt", "L'ampère", "L'ohm"],
        correctAnswer: "1",
        explanation: "La puissance se mesure en watts.",
      },
      { type: "true_false", question: "Le soleil est une énergie renouvelable.", correctAnswer: "true" },
      { type: "short_answer", question: "Quelle est la capitale du Mali ?", correctAnswer: "Tombouctou-secret" },
    ],
    ...overrides,
  });
  const learner = await createUser(handle.db);
  await enrol(handle.db, learner, course);
  const base = `/dashboard/formations/${course.slug}/quiz/${quiz.id}`;
  const params = { slug: course.slug, quizId: String(quiz.id) };
  return { course, lessons, quiz, learner, base, params };
}

async function start(learner: TestUser, base: string, params: Record<string, string>) {
  const started = await call(quizAction, learner, base, { form: {}, params });
  expect(started.status).toBe(303);
  const attemptId = /\/tentatives\/(\d+)$/.exec(started.location ?? "")![1]!;
  return { attemptId, path: `${base}/tentatives/${attemptId}`, attemptParams: { ...params, attemptId } };
}

describe("the way in", () => {
  it("lists the quiz on the course home and under the last lesson, with the learner's standing", async () => {
    const { course, lessons, quiz, learner } = await setting();
    const home = (await call(courseLoader, learner, `/dashboard/formations/${course.slug}`, { params: { slug: course.slug } })).data as {
      quizzes: Array<{ id: number; required: boolean; attemptsUsed: number }>;
    };
    expect(home.quizzes).toEqual([expect.objectContaining({ id: quiz.id, required: true, attemptsUsed: 0 })]);
    const lessonPath = (id: number) => `/dashboard/formations/${course.slug}/lecons/${id}`;
    const first = (
      await call(lessonLoader, learner, lessonPath(lessons[0]!.id), { params: { slug: course.slug, lessonId: String(lessons[0]!.id) } })
    ).data as { quizzes: unknown[] };
    const last = (
      await call(lessonLoader, learner, lessonPath(lessons[1]!.id), { params: { slug: course.slug, lessonId: String(lessons[1]!.id) } })
    ).data as { quizzes: Array<{ id: number }> };
    expect(first.quizzes).toEqual([]);
    expect(last.quizzes.map((item) => item.id)).toEqual([quiz.id]);
  });

  it("sends a learner who has done every lesson to the required quiz: the lesson's toast, then the course home's first button", async () => {
    const { course, lessons, quiz, learner } = await setting();
    const coursePath = `/dashboard/formations/${course.slug}`;
    const home = async () =>
      (await call(courseLoader, learner, coursePath, { params: { slug: course.slug } })).data as {
        nextQuiz?: { title: string; href: string; resume: boolean };
        certified: boolean;
      };
    const markDone = async (lessonId: number) => {
      let response: Response | undefined;
      const params = { slug: course.slug, lessonId: String(lessonId) };
      const outcome = await call(
        async (args: never) => (response = (await lessonAction(args)) as Response),
        learner,
        `${coursePath}/lecons/${lessonId}`,
        { form: { intent: "done" }, params },
      );
      expect(outcome.status).toBe(303);
      const cookie = response!.headers.get("set-cookie")!.split(";")[0]!;
      return (await getToast(new Request(TEST_PUBLIC_URL, { headers: { cookie } }))).toast;
    };

    expect(await markDone(lessons[0]!.id)).toMatchObject({ title: "Leçon terminée", description: "Progression : 50 %" });
    expect((await home()).nextQuiz).toBeUndefined();
    expect(await markDone(lessons[1]!.id)).toMatchObject({
      title: "Toutes les leçons sont terminées !",
      description: `Réussissez « ${quiz.title} » pour obtenir votre certificat.`,
    });
    expect((await home()).nextQuiz).toEqual({ title: quiz.title, href: `${coursePath}/quiz/${quiz.id}`, resume: false });

    // An attempt opened and left: the button resumes it.
    const { attemptId } = await start(learner, `${coursePath}/quiz/${quiz.id}`, { slug: course.slug, quizId: String(quiz.id) });
    expect((await home()).nextQuiz?.resume).toBe(true);
    await handle.db.delete(quizAttempts).where(eq(quizAttempts.id, Number(attemptId)));

    // Passed: nothing waits any more, and marking a lesson done again says the course is finished.
    await takeQuiz(handle.db, learner, course, quiz, rightAnswers("Tombouctou-secret"));
    expect(await home()).toMatchObject({ nextQuiz: undefined, certified: false });
    expect(await markDone(lessons[1]!.id)).toMatchObject({ title: "Formation terminée !" });
    // Once the completion check has issued it, the course home leads to the certificate.
    await issueCertificateIfComplete(handle.db, testCertificates, { userId: learner.id, courseId: course.id });
    expect((await home()).certified).toBe(true);
  });

  it("counts only this learner's attempts at this course's quizzes, and shows none to the teacher's preview", async () => {
    const { course, lessons, learner, base, params } = await setting();
    const other = await setting();
    await enrol(handle.db, learner, other.course);
    const { attemptId } = await start(learner, base, params);
    await start(learner, other.base, other.params);
    await start(other.learner, other.base, other.params);
    const homeOf = async (user: TestUser) =>
      (await call(courseLoader, user, `/dashboard/formations/${course.slug}`, { params: { slug: course.slug } })).data as {
        quizzes: Array<{ attemptsUsed: number; inProgressId: number | null }>;
      };
    expect((await homeOf(learner)).quizzes).toEqual([expect.objectContaining({ attemptsUsed: 1, inProgressId: Number(attemptId) })]);

    const classmate = await createUser(handle.db);
    await enrol(handle.db, classmate, course);
    expect((await homeOf(classmate)).quizzes).toEqual([expect.objectContaining({ attemptsUsed: 0, inProgressId: null })]);

    const last = lessons[1]!.id;
    const preview = await call(lessonLoader, teacher, `/dashboard/formations/${course.slug}/lecons/${last}`, {
      params: { slug: course.slug, lessonId: String(last) },
    });
    expect(preview.status).toBe(200);
    expect((preview.data as { quizzes: unknown[] }).quizzes).toEqual([]);
  });

  it("gives each quiz its question count, and the learner's best score and verdict over graded attempts only", async () => {
    const { course, quiz, learner, base, params } = await setting();
    const standing = async () =>
      (
        (await call(courseLoader, learner, `/dashboard/formations/${course.slug}`, { params: { slug: course.slug } })).data as {
          quizzes: Array<{
            id: number;
            questionCount: number;
            attemptsUsed: number;
            bestScore: number | null;
            passed: boolean;
            inProgressId: number | null;
          }>;
        }
      ).quizzes;
    expect(await standing()).toEqual([
      expect.objectContaining({ id: quiz.id, questionCount: 3, attemptsUsed: 0, bestScore: null, passed: false, inProgressId: null }),
    ]);
    // Sends an attempt with only the true/false answered, or every answer right.
    const sendAttempt = async (allRight: boolean) => {
      const { path, attemptParams } = await start(learner, base, params);
      const [qcm, trueFalse, short] = ((await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage).questions;
      const answers = allRight
        ? { [`answers.${qcm!.id}`]: String(qcm!.options.indexOf("Le watt")), [`answers.${short!.id}`]: "Tombouctou-secret" }
        : {};
      await call(attemptAction, learner, path, {
        form: { intent: "save", [`answers.${trueFalse!.id}`]: "true", ...answers },
        params: attemptParams,
      });
      await call(attemptAction, learner, path, { form: { intent: "submit", confirmed: "yes" }, params: attemptParams });
      return ((await call(attemptLoader, learner, path, { params: attemptParams })).data as GradedPage).attempt;
    };
    const failed = await sendAttempt(false);
    expect(failed.passed).toBe(false);
    expect(await standing()).toEqual([
      expect.objectContaining({ attemptsUsed: 1, bestScore: failed.score, passed: false, inProgressId: null }),
    ]);
    expect(await sendAttempt(true)).toMatchObject({ score: 100, passed: true });
    // A third attempt, still open, counts as used but neither lowers the best score nor the verdict.
    const { attemptId } = await start(learner, base, params);
    expect(await standing()).toEqual([
      expect.objectContaining({ attemptsUsed: 3, bestScore: 100, passed: true, inProgressId: Number(attemptId) }),
    ]);
    // A deleted quiz is no longer listed.
    await handle.db.update(quizzes).set({ deletedAt: new Date() }).where(eq(quizzes.id, quiz.id));
    expect(await standing()).toEqual([]);
  });

  it("sends someone who does not follow the course to its public page", async () => {
    const { base, params, course } = await setting();
    const stranger = await createUser(handle.db);
    expect(await call(quizLoader, stranger, base, { params })).toMatchObject({ status: 302, location: `/formations/${course.slug}` });
    expect(await call(quizAction, stranger, base, { form: {}, params })).toMatchObject({
      status: 302,
      location: `/formations/${course.slug}`,
    });
  });
});

describe("an attempt", () => {
  it("never puts the right answers in the page before it is sent", async () => {
    const { learner, base, params } = await setting();
    const { path, attemptParams } = await start(learner, base, params);
    const page = await call(attemptLoader, learner, path, { params: attemptParams });
    const text = JSON.stringify(page.data);
    expect((page.data as OpenPage).state).toBe("open");
    expect(text).not.toContain("correctAnswer");
    expect(text).not.toContain("Tombouctou-secret");
    expect(text).not.toContain("La puissance se mesure en watts.");
  });

  it("keeps each answer as given (with or without JavaScript), so a reload loses nothing, then grades it on the server", async () => {
    const { learner, base, params } = await setting();
    const { path, attemptParams } = await start(learner, base, params);
    const open = (await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage;
    const [qcm, trueFalse, short] = open.questions;
    // With JavaScript: one answer at a time, no page change.
    const saved = await call(attemptAction, learner, path, {
      form: { intent: "save", js: "1", [`answers.${qcm!.id}`]: String(qcm!.options.indexOf("Le watt")) },
      params: attemptParams,
    });
    expect(saved).toMatchObject({ status: 200, data: { ok: true } });
    // Without JavaScript: the whole form, then back to the page.
    const form = await call(attemptAction, learner, path, {
      form: { intent: "save", [`answers.${trueFalse!.id}`]: "true", [`answers.${short!.id}`]: "  TOMBOUCTOU-secret " },
      params: attemptParams,
    });
    expect(form).toMatchObject({ status: 303, location: path });
    // A refused answer says why and keeps the others.
    const forged = await call(attemptAction, learner, path, {
      form: { intent: "save", js: "1", [`answers.${trueFalse!.id}`]: "peut-être" },
      params: attemptParams,
    });
    expect(forged).toMatchObject({ status: 400, data: { ok: false, message: "Choisissez une des réponses proposées." } });

    const reloaded = (await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage;
    expect(reloaded.answers).toEqual({
      [qcm!.id]: String(qcm!.options.indexOf("Le watt")),
      [trueFalse!.id]: "true",
      [short!.id]: "  TOMBOUCTOU-secret ",
    });

    const sent = await call(attemptAction, learner, path, { form: { intent: "submit" }, params: attemptParams });
    expect(sent).toMatchObject({ status: 303, location: path });
    const graded = (await call(attemptLoader, learner, path, { params: attemptParams })).data as GradedPage;
    expect(graded).toMatchObject({ state: "graded", attempt: { score: 100, passed: true } });
    expect(graded.corrections![0]).toMatchObject({ correct: true, expected: "Le watt", explanation: "La puissance se mesure en watts." });
    // A second submit changes nothing.
    expect(await call(attemptAction, learner, path, { form: { intent: "submit" }, params: attemptParams })).toMatchObject({ status: 303 });
    const after = (await call(attemptLoader, learner, path, { params: attemptParams })).data as GradedPage;
    expect(after.attempt.score).toBe(100);
  });

  it("asks before sending with questions unanswered, keeping the answers given, but not once the time is up", async () => {
    const { learner, base, params } = await setting({ timeLimitMinutes: 5 });
    const { path, attemptParams } = await start(learner, base, params);
    const { questions } = (await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage;
    // Without JavaScript the whole form comes: one answer of three.
    const asked = await call(attemptAction, learner, path, {
      form: { intent: "submit", [`answers.${questions[1]!.id}`]: "true", [`answers.${questions[2]!.id}`]: "" },
      params: attemptParams,
    });
    expect(asked).toMatchObject({ status: 200, data: { unanswered: 2 } });
    const still = (await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage;
    expect(still).toMatchObject({ state: "open", answers: { [questions[1]!.id]: "true" } });
    const page = async () => (await call(quizLoader, learner, base, { params })).data as { attemptsLeft: number };
    expect((await page()).attemptsLeft).toBe(2); // the open attempt counts, nothing more

    // Confirmed, with one more answer given meanwhile: graded on both.
    const sent = await call(attemptAction, learner, path, {
      form: { intent: "submit", confirmed: "yes", [`answers.${questions[0]!.id}`]: "1" },
      params: attemptParams,
    });
    expect(sent).toMatchObject({ status: 303, location: path });
    expect(((await call(attemptLoader, learner, path, { params: attemptParams })).data as GradedPage).attempt.score).toBeCloseTo(66.67, 2);

    // Time up: the countdown's submit is graded at once on what was saved, whatever is unanswered.
    const late = await start(learner, base, params);
    await handle.db
      .update(quizAttempts)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(quizAttempts.id, Number(late.attemptId)));
    expect(await call(attemptAction, learner, late.path, { form: { intent: "submit" }, params: late.attemptParams })).toMatchObject({
      status: 303,
      location: late.path,
    });
    expect(((await call(attemptLoader, learner, late.path, { params: late.attemptParams })).data as GradedPage).state).toBe("graded");
  });

  it("is nobody else's: another learner of the course gets a 404", async () => {
    const { learner, base, params, course } = await setting();
    const { path, attemptParams } = await start(learner, base, params);
    const classmate = await createUser(handle.db);
    await enrol(handle.db, classmate, course);
    expect((await call(attemptLoader, classmate, path, { params: attemptParams })).status).toBe(404);
    expect((await call(attemptAction, classmate, path, { form: { intent: "submit" }, params: attemptParams })).status).toBe(404);
  });

  it("refuses an answer after the deadline and shows the attempt graded on what was saved", async () => {
    const { learner, base, params } = await setting({ timeLimitMinutes: 5 });
    const { path, attemptParams, attemptId } = await start(learner, base, params);
    const open = (await call(attemptLoader, learner, path, { params: attemptParams })).data as OpenPage;
    expect(open.secondsLeft).toBeGreaterThan(290);
    await call(attemptAction, learner, path, {
      form: { intent: "save", js: "1", [`answers.${open.questions[1]!.id}`]: "true" },
      params: attemptParams,
    });
    // The deadline passes (moved into the past, as the clock would).
    await handle.db
      .update(quizAttempts)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(quizAttempts.id, Number(attemptId)));
    const late = await call(attemptAction, learner, path, {
      form: { intent: "save", js: "1", [`answers.${open.questions[0]!.id}`]: "1" },
      params: attemptParams,
    });
    expect(late).toMatchObject({ status: 409, data: { ok: false, closed: true } });
    const graded = (await call(attemptLoader, learner, path, { params: attemptParams })).data as GradedPage;
    expect(graded.state).toBe("graded");
    expect(graded.attempt.score).toBeCloseTo(33.33, 2);
  });

  it("stops at the attempts limit with a clear message", async () => {
    const { learner, base, params } = await setting({ maxAttempts: 1 });
    expect(((await call(quizLoader, learner, base, { params })).data as { askForHelp: unknown }).askForHelp).toBeNull();
    const { path, attemptParams } = await start(learner, base, params);
    await call(attemptAction, learner, path, { form: { intent: "submit", confirmed: "yes" }, params: attemptParams });
    const again = await call(quizAction, learner, base, { form: {}, params });
    expect(again).toMatchObject({ status: 303, location: base });
    const page = (await call(quizLoader, learner, base, { params })).data as {
      attemptsLeft: number;
      askForHelp: { href: string; who: string } | null;
    };
    expect(page.attemptsLeft).toBe(0);
    // Failed with nothing left: the way to the course's teacher, who can talk it through.
    expect(page.askForHelp).toEqual({
      href: `/dashboard/messages/nouveau?avec=${encodeURIComponent(teacher.id)}`,
      who: "votre enseignant",
    });
  });
});

describe("one more attempt", () => {
  type StudentPage = { enrolments: Array<{ spentQuizzes: Array<{ quizId: number; title: string; used: number }> }> };
  type StudentsList = { students: Array<{ userId: string; quizzesSpent: number }> };

  it("is opened by the course's teacher to a learner who failed every attempt: once per click, told, then taken", async () => {
    const { learner, base, params, quiz } = await setting({ maxAttempts: 1 });
    const studentPath = `/teacher/students/${learner.id}`;
    const grant = (who: TestUser) =>
      call(studentAction, who, studentPath, { form: { intent: "grant-attempt", quiz: String(quiz.id) }, params: { id: learner.id } });
    const spent = async () =>
      ((await call(studentLoader, teacher, studentPath, { params: { id: learner.id } })).data as StudentPage).enrolments[0]!.spentQuizzes;
    // « Mes Étudiants » flags the learner's row while they wait for it.
    const flagged = async () =>
      ((await call(studentsLoader, teacher, "/teacher/students", {})).data as StudentsList).students.find(
        (row) => row.userId === learner.id,
      )!.quizzesSpent;

    // An attempt still left: nothing offered, and a forged post is refused with the reason.
    expect(await spent()).toEqual([]);
    expect(await flagged()).toBe(0);
    expect(await grant(teacher)).toMatchObject({
      status: 409,
      data: { message: "Cet apprenant a encore une tentative : il peut la passer dès maintenant." },
    });

    const { path, attemptParams } = await start(learner, base, params);
    await call(attemptAction, learner, path, { form: { intent: "submit", confirmed: "yes" }, params: attemptParams });
    expect(await spent()).toEqual([{ quizId: quiz.id, title: quiz.title, used: 1 }]);
    expect(await flagged()).toBe(1);

    // Neither another teacher nor the learner may open it.
    expect((await grant(await createUser(handle.db, { role: "teacher" }))).status).toBe(404);
    expect((await grant(learner)).status).toBe(404);

    // Two clicks at once (or the teacher and an admin) open one attempt, and the learner is told once.
    const admin = await createUser(handle.db, { role: "admin" });
    const both = await Promise.all([grant(teacher), grant(admin)]);
    expect(both.map((outcome) => outcome.status).sort()).toEqual([302, 409]);
    expect(both.find((outcome) => outcome.status === 302)?.location).toBe(studentPath);
    expect((await grant(teacher)).status).toBe(409);
    expect(await handle.db.select().from(quizAttemptGrants).where(eq(quizAttemptGrants.userId, learner.id))).toEqual([
      expect.objectContaining({ quizId: quiz.id, extraAttempts: 1 }),
    ]);
    const told = await handle.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(told).toEqual([expect.objectContaining({ kind: "quiz_attempt_granted", link: `${base}`, title: "Nouvelle tentative ouverte" })]);
    expect(await spent()).toEqual([]);
    expect(await flagged()).toBe(0);

    // The learner sees it and takes it; after it, none is left again.
    const page = (await call(quizLoader, learner, base, { params })).data as { attemptsLeft: number; quiz: { maxAttempts: number } };
    expect(page).toMatchObject({ attemptsLeft: 1, quiz: { maxAttempts: 2 } });
    const second = await start(learner, base, params);
    expect(second.attemptId).toMatch(/^\d+$/);
    await call(attemptAction, learner, second.path, { form: { intent: "submit", confirmed: "yes" }, params: second.attemptParams });
    expect(await call(quizAction, learner, base, { form: {}, params })).toMatchObject({ status: 303, location: base });
  });
});
