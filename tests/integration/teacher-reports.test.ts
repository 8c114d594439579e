/**
 * The teacher's figures on a known data set: the dashboard's cards, course list and activity;
 * teacher B sees none of teacher A's learners; an admin sees every course.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { enrolments } from "~/.server/db/schema";
import { setLessonDone } from "~/.server/learning";
import {
  exportTeacherStudentsCsv,
  getTeacherAnalytics,
  getTeacherDashboard,
  getTeacherStudent,
  listTeacherActivity,
  listTeacherStudents,
} from "~/.server/reports";
import { loader as analyticsLoader } from "~/routes/teacher/analytics";
import { loader as dashboardLoader } from "~/routes/teacher/index";
import { createCourse, createQuiz, createThread, createUser, enrol, takeQuiz, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let teacherA: TestUser;
let teacherB: TestUser;
let admin: TestUser;
let done: TestUser;
let halfway: TestUser;
let pending: TestUser;
let other: TestUser;
let web: { id: number; slug: string };
let solar: { id: number; slug: string };

beforeAll(async () => {
  handle = await createTestDatabase();
  const db = handle.db;
  teacherA = await createUser(db, { role: "teacher" });
  teacherB = await createUser(db, { role: "teacher" });
  admin = await createUser(db, { role: "admin" });
  done = await createUser(db, { firstName: "Awa", lastName: "Diarra" });
  halfway = await createUser(db, { firstName: "Moussa", lastName: "Sidibé" });
  pending = await createUser(db, { firstName: "Kadia", lastName: "Bah" });
  other = await createUser(db, { firstName: "Oumar", lastName: "Cissé" });
  // Teacher A: a web course (2 lessons of 30 min) and a draft (1 lesson of 45 min). Teacher B: solar.
  const webCourse = await createCourse(db, { instructor: teacherA, title: "Développement web", priceFcfa: 0 });
  web = webCourse.course;
  await createCourse(db, { instructor: teacherA, title: "Brouillon", status: "draft", lessons: [{ durationMinutes: 45 }] });
  solar = (await createCourse(db, { instructor: teacherB, title: "Énergie solaire", priceFcfa: 0 })).course;
  await enrol(db, done, web);
  await enrol(db, halfway, web);
  await enrol(db, other, solar);
  const paid = await createCourse(db, { instructor: teacherA, title: "Cybersécurité", priceFcfa: 30_000, lessons: 1 });
  await enrol(db, pending, paid.course);
  for (const lesson of webCourse.lessons) await setLessonDone(db, done, lesson.id, true);
  await setLessonDone(db, halfway, webCourse.lessons[0]!.id, true);
  const quiz = await createQuiz(db, teacherA, web, { questions: [{ type: "true_false", correctAnswer: "true" }] });
  await takeQuiz(db, halfway, web, quiz, (questions) => ({ [questions[0]!.id]: "true" }));
  await createThread(db, done);
  await createThread(db, other);
});
afterAll(async () => handle?.close());

describe("teacher dashboard", () => {
  it("counts the teacher's courses, active students, success rate and course hours", async () => {
    const { cards, courses } = await getTeacherDashboard(handle.db, teacherA);
    expect(cards).toEqual({
      courses: 3,
      publishedCourses: 2,
      // Moussa is following; Awa finished; Kadia has not paid.
      activeStudents: 1,
      learners: 2,
      successRate: 50,
      completed: 1,
      following: 2,
      courseMinutes: 30 + 30 + 45 + 30,
    });
    const webRow = courses.find((course) => course.id === web.id);
    expect(webRow).toMatchObject({ learners: 2, averageProgress: 75 });
    expect(courses.find((course) => course.title === "Brouillon")).toMatchObject({ learners: 0, averageProgress: null });
  });

  it("shows teacher B none of teacher A's learners, and an admin every course", async () => {
    const b = await getTeacherDashboard(handle.db, teacherB);
    expect(b.cards).toMatchObject({ courses: 1, activeStudents: 1, learners: 1 });
    expect(b.courses.map((course) => course.title)).toEqual(["Énergie solaire"]);
    const activity = await listTeacherActivity(handle.db, teacherB, { since: new Date(0) });
    expect(activity.map((row) => row.learner)).not.toContain("Awa Diarra");
    expect(activity.map((row) => row.learner)).not.toContain("Moussa Sidibé");
    expect((await getTeacherDashboard(handle.db, admin)).cards.courses).toBeGreaterThanOrEqual(4);
  });

  it("lists recent activity in the teacher's courses: enrolments, quiz submissions, completions, forum posts", async () => {
    const activity = await listTeacherActivity(handle.db, teacherA, { since: new Date(0), limit: 20 });
    const kinds = activity.map((row) => `${row.kind}:${row.learner}`).sort();
    expect(kinds).toEqual(
      ["completion:Awa Diarra", "enrolment:Awa Diarra", "enrolment:Moussa Sidibé", "forum:Awa Diarra", "quiz:Moussa Sidibé"].sort(),
    );
    expect(activity.find((row) => row.kind === "quiz")?.detail).toBe("Quiz final : 100 % (réussi)");
  });

  it("renders the page from those figures", async () => {
    const request = new Request(`${TEST_PUBLIC_URL}/teacher`);
    const context = routerContext(handle.db, createTestAuth(handle.db), { user: sessionOf(teacherA) });
    const page = (await routeOutcome(() => dashboardLoader({ request, params: {}, context } as never))).data as {
      cards: Record<string, unknown>;
    };
    expect(page.cards).toMatchObject({ courses: 3, activeStudents: 1, successRate: "50 %", courseHours: "2 h 15" });
  });
});

describe("Mes Étudiants", () => {
  it("lists the teacher's learners with progress, best quiz score, payment and status; teacher B sees only theirs", async () => {
    const rows = await listTeacherStudents(handle.db, teacherA);
    expect(rows.map((row) => [row.name, row.courseTitle, row.status, row.progress, row.bestScore, row.paymentStatus])).toEqual([
      ["Kadia Bah", "Cybersécurité", "pending_payment", 0, null, null],
      ["Awa Diarra", "Développement web", "completed", 100, null, "free"],
      ["Moussa Sidibé", "Développement web", "active", 50, 100, "free"],
    ]);
    expect((await listTeacherStudents(handle.db, teacherB)).map((row) => row.name)).toEqual(["Oumar Cissé"]);
    expect((await listTeacherStudents(handle.db, admin)).length).toBe(4);
  });

  it("filters by course, status and name", async () => {
    expect((await listTeacherStudents(handle.db, teacherA, { course: web.id })).map((row) => row.name)).toEqual([
      "Awa Diarra",
      "Moussa Sidibé",
    ]);
    expect((await listTeacherStudents(handle.db, teacherA, { status: "completed" })).map((row) => row.name)).toEqual(["Awa Diarra"]);
    expect((await listTeacherStudents(handle.db, teacherA, { q: "sidibe" })).map((row) => row.name)).toEqual(["Moussa Sidibé"]);
    // Another teacher's course as a filter shows nothing.
    expect(await listTeacherStudents(handle.db, teacherA, { course: solar.id })).toEqual([]);
  });

  it("exports the same rows as CSV", async () => {
    const { body, count } = await exportTeacherStudentsCsv(handle.db, teacherA, { course: web.id });
    expect(count).toBe(2);
    const lines = body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Nom;E-mail;Cours;Statut;Progression (%);Meilleur score quiz (%);Paiement;Certificat;Inscrit le;Dernière activité",
    );
    expect(lines[2]).toContain("Moussa Sidibé");
    expect(lines[2]).toContain(";En cours;50;100;Gratuit;Non;");
  });

  it("opens a learner's page for their teacher, not for another teacher", async () => {
    const student = await getTeacherStudent(handle.db, teacherA, halfway.id);
    expect(student.enrolments).toHaveLength(1);
    expect(student.enrolments[0]!.lessons.map((lesson) => lesson.done)).toEqual([true, false]);
    expect(student.enrolments[0]!.attempts).toEqual([expect.objectContaining({ quizTitle: "Quiz final", score: 100, passed: true })]);
    await expect(getTeacherStudent(handle.db, teacherB, halfway.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("teacher analytics", () => {
  beforeAll(async () => {
    // Awa enrolled 60 days ago: inside 90 j and 1 an, outside 7 j and 30 j.
    await handle.db
      .update(enrolments)
      .set({ activatedAt: new Date(Date.now() - 60 * 24 * 60 * 60 * 1000) })
      .where(and(eq(enrolments.userId, done.id), eq(enrolments.courseId, web.id)));
  });

  it("changes every figure with the range", async () => {
    const week = await getTeacherAnalytics(handle.db, teacherA, { range: "7j" });
    expect(week.totals).toMatchObject({ enrolments: 1, completed: 0, completionRate: 0, averageQuizScore: 100 });
    expect(week.enrolmentsOverTime).toHaveLength(7);
    expect(week.enrolmentsOverTime.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(1);
    expect(week.funnel).toMatchObject({ courseTitle: "Développement web", learners: 1, lessons: [{ share: 100 }, { share: 0 }] });

    const quarter = await getTeacherAnalytics(handle.db, teacherA, { range: "90j" });
    expect(quarter.totals).toMatchObject({ enrolments: 2, completed: 1, completionRate: 50 });
    expect(quarter.enrolmentsOverTime).toHaveLength(6);
    expect(quarter.enrolmentsOverTime.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2);
    expect(quarter.funnel).toMatchObject({
      learners: 2,
      lessons: [
        { reached: 2, share: 100 },
        { reached: 1, share: 50 },
      ],
    });
    expect(quarter.courses.find((course) => course.id === web.id)).toMatchObject({ enrolments: 2, completed: 1, completionRate: 50 });

    const year = await getTeacherAnalytics(handle.db, teacherA, { range: "1an" });
    expect(year.enrolmentsOverTime).toHaveLength(12);
    expect(year.totals.enrolments).toBe(2);
  });

  it("never counts another teacher's courses, and reads the range from the page's address", async () => {
    const b = await getTeacherAnalytics(handle.db, teacherB, { range: "1an" });
    expect(b.courses.map((course) => course.title)).toEqual(["Énergie solaire"]);
    expect(b.totals.enrolments).toBe(1);
    expect((await getTeacherAnalytics(handle.db, teacherB, { range: "1an", course: web.id })).totals.enrolments).toBe(0);
    const request = new Request(`${TEST_PUBLIC_URL}/teacher/analytics?periode=7j`);
    const context = routerContext(handle.db, createTestAuth(handle.db), { user: sessionOf(teacherA) });
    const page = (await routeOutcome(() => analyticsLoader({ request, params: {}, context } as never))).data as {
      range: string;
      totals: { enrolments: number };
    };
    expect(page).toMatchObject({ range: "7j", totals: { enrolments: 1 } });
  });
});
