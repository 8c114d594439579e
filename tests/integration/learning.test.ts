/**
 * Following a course: lessons marked done, progress kept in step (also when the teacher edits the
 * course), "Continuer" resuming at the last lesson and video position, "Mes Formations" and the
 * student dashboard computed from the learner's own records.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateCourse } from "~/.server/courses/authoring";
import type { DatabaseHandle } from "~/.server/db/client";
import { createDiskStorage } from "~/.server/storage/disk";
import { courses, enrolments, lessonProgress, quizAttempts } from "~/.server/db/schema";
import {
  getLearnerCourse,
  getReadableFile,
  getStudentDashboard,
  listAvailableCourses,
  listMyEnrolments,
  openLesson,
  saveVideoPosition,
  setLessonDone,
  startEnrolment,
} from "~/.server/learning";
import type { Role } from "~/lib/roles";
import { startAttempt, saveAnswers, submitAttempt } from "~/.server/quizzes/attempts";
import { createCourse, createQuiz, createStoredFile, createUser, enrol, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let teacher: TestUser;
let otherTeacher: TestUser;

const person = (role: Role) => createUser(handle.db, { role });

/** A free published course of `lessonCount` lessons lasting 10, 20, 30... minutes. */
function freeCourse(title: string, category = "energie", lessonCount = 4) {
  return createCourse(handle.db, {
    instructor: teacher,
    title,
    category,
    priceFcfa: 0,
    lessons: Array.from({ length: lessonCount }, (_, index) => ({ durationMinutes: 10 * (index + 1) })),
  });
}

/** The course form's fields of a course made by `freeCourse`, as its teacher sends them back. */
const courseForm = (course: { title: string; description: string }) => ({
  title: course.title,
  description: course.description,
  category: "energie",
  level: "debutant",
  priceFcfa: "0",
  status: "published",
});

beforeAll(async () => {
  handle = await createTestDatabase();
  teacher = await person("teacher");
  otherTeacher = await person("teacher");
});
afterAll(async () => handle?.close());

describe("progress and resuming", () => {
  it("counts the share of lessons done, resumes at the last lesson and position, and completes the course", async () => {
    const { course, lessons } = await freeCourse("Solaire pas à pas");
    const learner = await person("user");
    await enrol(handle.db, learner, course);

    const first = await getLearnerCourse(handle.db, learner, course.slug);
    expect(first.resume).toEqual({ lessonId: lessons[0]!.id, positionSeconds: 0 });
    expect(first.enrolment?.progress).toBe(0);

    await setLessonDone(handle.db, learner, lessons[0]!.id, true);
    const { enrolment } = await setLessonDone(handle.db, learner, lessons[1]!.id, true);
    expect(enrolment.progress).toBe(50);
    // Marking again changes nothing.
    expect((await setLessonDone(handle.db, learner, lessons[1]!.id, true)).enrolment.progress).toBe(50);

    const opened = await openLesson(handle.db, learner, course.slug, lessons[2]!.id);
    expect(opened.previous?.id).toBe(lessons[1]!.id);
    expect(opened.next?.id).toBe(lessons[3]!.id);
    await saveVideoPosition(handle.db, learner, lessons[2]!.id, 95.7);
    const back = await getLearnerCourse(handle.db, learner, course.slug);
    expect(back.resume).toEqual({ lessonId: lessons[2]!.id, positionSeconds: 95 });
    expect(back.lessons.map((lesson) => lesson.done)).toEqual([true, true, false, false]);

    await setLessonDone(handle.db, learner, lessons[2]!.id, true);
    const done = await setLessonDone(handle.db, learner, lessons[3]!.id, true);
    expect(done.enrolment).toMatchObject({ progress: 100, status: "completed" });
    expect(done.enrolment.completedAt).not.toBeNull();
    // Undoing a lesson reopens the course.
    expect((await setLessonDone(handle.db, learner, lessons[3]!.id, false)).enrolment).toMatchObject({
      progress: 75,
      status: "active",
      completedAt: null,
    });
  });

  it("follows the teacher's edits: a removed lesson no longer counts, an added one does", async () => {
    const { course, lessons } = await freeCourse("Édité en cours de route");
    const learner = await person("user");
    await enrol(handle.db, learner, course);
    await setLessonDone(handle.db, learner, lessons[0]!.id, true);
    expect((await getLearnerCourse(handle.db, learner, course.slug)).enrolment?.progress).toBe(25);
    const base = courseForm(course);
    // Remove the last two lessons: 1 of 2 done.
    await updateCourse(handle.db, teacher, course.id, {
      ...base,
      lessons: lessons.slice(0, 2).map((lesson) => ({ id: lesson.id, title: lesson.title })),
    });
    expect((await getLearnerCourse(handle.db, learner, course.slug)).enrolment?.progress).toBe(50);
    // Add one: 1 of 3.
    await updateCourse(handle.db, teacher, course.id, {
      ...base,
      lessons: [...lessons.slice(0, 2).map((lesson) => ({ id: lesson.id, title: lesson.title })), { title: "Nouvelle" }],
    });
    expect((await getLearnerCourse(handle.db, learner, course.slug)).enrolment?.progress).toBe(33);
  });

  it("keeps the player to the course's learners and team; nobody records progress for a course they do not follow", async () => {
    const { course, lessons } = await freeCourse("Réservé");
    const stranger = await person("user");
    await expect(getLearnerCourse(handle.db, stranger, course.slug)).rejects.toMatchObject({ code: "forbidden", reason: "not_enrolled" });
    await expect(openLesson(handle.db, stranger, course.slug, lessons[0]!.id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(setLessonDone(handle.db, stranger, lessons[0]!.id, true)).rejects.toMatchObject({
      code: "forbidden",
      reason: "not_enrolled",
    });
    await expect(saveVideoPosition(handle.db, stranger, lessons[0]!.id, 10)).rejects.toMatchObject({
      code: "forbidden",
      reason: "not_enrolled",
    });
    await expect(getLearnerCourse(handle.db, stranger, "n-existe-pas")).rejects.toMatchObject({ code: "not_found" });
    // The course's teacher previews it without an enrolment; another teacher may not.
    expect((await getLearnerCourse(handle.db, teacher, course.slug)).enrolment).toBeNull();
    await expect(getLearnerCourse(handle.db, otherTeacher, course.slug)).rejects.toMatchObject({
      code: "forbidden",
      reason: "not_enrolled",
    });
    // A lesson id of another course under this course's address: not found.
    const other = await freeCourse("Autre");
    const learner = await person("user");
    await enrol(handle.db, learner, course);
    await expect(openLesson(handle.db, learner, course.slug, other.lessons[0]!.id)).rejects.toMatchObject({ code: "not_found" });
    expect(
      await handle.db
        .select()
        .from(lessonProgress)
        .innerJoin(enrolments, eq(lessonProgress.enrolmentId, enrolments.id))
        .where(eq(enrolments.userId, stranger.id)),
    ).toEqual([]);
  });
});

describe("one rule for following a course (learning/policy.ts)", () => {
  /** A course with one lesson and its document, and a learner enrolled in it with `status`. */
  async function enrolledWith(status: (typeof enrolments.$inferSelect)["status"]) {
    const { course, lessons } = await freeCourse(`Statut ${status}`, "energie", 1);
    const storage = createDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), "campus-following-")));
    const document = await createStoredFile(handle.db, storage, teacher, { purpose: "lesson_attachment", name: "Fiche.pdf" });
    await updateCourse(handle.db, teacher, course.id, {
      ...courseForm(course),
      lessons: [{ id: lessons[0]!.id, title: lessons[0]!.title, attachmentIds: [document.id] }],
    });
    const learner = await person("user");
    const enrolment = await enrol(handle.db, learner, course);
    await handle.db.update(enrolments).set({ status }).where(eq(enrolments.id, enrolment.id));
    return { course, lesson: lessons[0]!, document, learner };
  }

  it.each(["pending_payment", "paused", "cancelled"] as const)(
    "keeps a %s enrolment out of the course, its lesson, its progress and the lesson's files",
    async (status) => {
      const { course, lesson, document, learner } = await enrolledWith(status);
      await expect(getLearnerCourse(handle.db, learner, course.slug)).rejects.toMatchObject({ code: "forbidden" });
      await expect(openLesson(handle.db, learner, course.slug, lesson.id)).rejects.toMatchObject({ code: "forbidden" });
      await expect(setLessonDone(handle.db, learner, lesson.id, true)).rejects.toMatchObject({ code: "forbidden" });
      await expect(saveVideoPosition(handle.db, learner, lesson.id, 10)).rejects.toMatchObject({ code: "forbidden" });
      // Refused files are "not found": an id tells nothing.
      await expect(getReadableFile(handle.db, learner, document.id)).rejects.toMatchObject({ code: "not_found" });
    },
  );

  it.each(["active", "completed"] as const)("opens the course, its lesson and its files to a %s enrolment", async (status) => {
    const { course, lesson, document, learner } = await enrolledWith(status);
    expect((await getLearnerCourse(handle.db, learner, course.slug)).enrolment?.status).toBe(status);
    expect((await openLesson(handle.db, learner, course.slug, lesson.id)).lesson.id).toBe(lesson.id);
    expect((await getReadableFile(handle.db, learner, document.id)).file.id).toBe(document.id);
  });

  it("freezes a quiz attempt when the enrolment is paused mid-attempt, keeps its answers, and lets it go on once reopened", async () => {
    const { course, learner } = await enrolledWith("active");
    const quiz = await createQuiz(handle.db, teacher, course);
    const { attempt } = await startAttempt(handle.db, learner, course.slug, quiz.id);
    const first = attempt.questions[0]!.id;
    await saveAnswers(handle.db, learner, attempt.id, { [first]: "0" });
    const pause = (status: "paused" | "active") =>
      handle.db
        .update(enrolments)
        .set({ status })
        .where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, course.id)));

    await pause("paused");
    await expect(saveAnswers(handle.db, learner, attempt.id, { [first]: "1" })).rejects.toMatchObject({
      code: "forbidden",
      reason: "paused",
    });
    await expect(submitAttempt(handle.db, learner, attempt.id)).rejects.toMatchObject({ code: "forbidden", reason: "paused" });
    const [frozen] = await handle.db.select().from(quizAttempts).where(eq(quizAttempts.id, attempt.id));
    expect(frozen).toMatchObject({ status: "in_progress", answers: { [first]: "0" } });

    await pause("active");
    expect((await submitAttempt(handle.db, learner, attempt.id)).status).toBe("submitted");
  });
});

describe("a lesson's documents", () => {
  it("lists the lesson's own documents in the order they were added, with their name, size and type", async () => {
    const { course, lessons } = await freeCourse("Avec documents", "energie", 2);
    const storage = createDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), "campus-documents-")));
    const upload = (name: string, bytes?: Buffer) =>
      createStoredFile(handle.db, storage, teacher, { purpose: "lesson_attachment", name, bytes });
    const plan = await upload("Plan du cours.pdf");
    const exercises = await upload("Exercices.txt", Buffer.from("1. Calculez la puissance d'un panneau.\n"));
    const elsewhere = await upload("Autre leçon.pdf");
    await updateCourse(handle.db, teacher, course.id, {
      ...courseForm(course),
      lessons: [
        { id: lessons[0]!.id, title: lessons[0]!.title, attachmentIds: [plan.id, exercises.id] },
        { id: lessons[1]!.id, title: lessons[1]!.title, attachmentIds: [elsewhere.id] },
      ],
    });
    const learner = await person("user");
    await enrol(handle.db, learner, course);
    const opened = await openLesson(handle.db, learner, course.slug, lessons[0]!.id);
    expect(opened.lesson.attachments).toEqual([
      { id: plan.id, name: "Plan du cours.pdf", size: plan.size, contentType: "application/pdf" },
      { id: exercises.id, name: "Exercices.txt", size: exercises.size, contentType: "text/plain" },
    ]);
    expect(opened.lesson.video).toBeNull();
    expect((await openLesson(handle.db, learner, course.slug, lessons[1]!.id)).lesson.attachments.map((file) => file.name)).toEqual([
      "Autre leçon.pdf",
    ]);
    // A lesson without documents has an empty list, not null.
    const bare = await freeCourse("Sans documents", "energie", 1);
    await enrol(handle.db, learner, bare.course);
    expect((await openLesson(handle.db, learner, bare.course.slug, bare.lessons[0]!.id)).lesson.attachments).toEqual([]);
  });
});

describe("progress sent late, twice or out of order (a phone back online)", () => {
  it("keeps the furthest video position and marks a lesson done once, whatever the order of arrival", async () => {
    const { course, lessons } = await freeCourse("Hors ligne puis en ligne", "tech", 2);
    const learner = await person("user");
    await enrol(handle.db, learner, course);
    const lessonId = lessons[0]!.id;
    const position = async () =>
      (await getLearnerCourse(handle.db, learner, course.slug)).lessons.find((lesson) => lesson.id === lessonId)!.positionSeconds;
    // Saves queued offline arrive after a later one, and one of them twice.
    await saveVideoPosition(handle.db, learner, lessonId, 120);
    await saveVideoPosition(handle.db, learner, lessonId, 45);
    await saveVideoPosition(handle.db, learner, lessonId, 45);
    expect(await position()).toBe(120);
    await saveVideoPosition(handle.db, learner, lessonId, 180);
    expect(await position()).toBe(180);

    // "Marquer comme terminé" replayed: one completion, its first date kept, progress counted once.
    const first = await setLessonDone(handle.db, learner, lessonId, true, new Date("2026-11-20T10:00:00Z"));
    const replay = await setLessonDone(handle.db, learner, lessonId, true, new Date("2026-11-22T10:00:00Z"));
    expect([first.enrolment.progress, replay.enrolment.progress]).toEqual([50, 50]);
    const [row] = await handle.db
      .select({ completedAt: lessonProgress.completedAt })
      .from(lessonProgress)
      .where(and(eq(lessonProgress.enrolmentId, first.enrolment.id), eq(lessonProgress.lessonId, lessonId)));
    expect(row!.completedAt).toEqual(new Date("2026-11-20T10:00:00Z"));
  });
});

describe("Mes Formations and the dashboard", () => {
  it("lists the learner's courses and the others, with their enrolment", async () => {
    const learner = await person("user");
    const { course } = await freeCourse("Ma formation", "agriculture", 2);
    await enrol(handle.db, learner, course);
    const mine = await listMyEnrolments(handle.db, learner);
    expect(mine.map((row) => [row.title, row.status, row.lessonCount])).toEqual([["Ma formation", "active", 2]]);
    const available = await listAvailableCourses(handle.db, learner, { q: "formation" });
    expect(available.find((row) => row.slug === course.slug)?.enrolmentStatus).toBe("active");
    expect(available.find((row) => row.slug === "intelligence-artificielle")).toBeUndefined();
    expect(
      (await listAvailableCourses(handle.db, learner)).find((row) => row.slug === "intelligence-artificielle")?.enrolmentStatus,
    ).toBeNull();
    expect(
      (await listAvailableCourses(handle.db, learner, { category: "agriculture" })).every((row) => row.categorySlug === "agriculture"),
    ).toBe(true);
  });

  it("computes the four cards, the monthly progress and the domains from the learner's records", async () => {
    const learner = await person("user");
    const now = new Date("2026-06-20T12:00:00Z");
    const solar = await freeCourse("Tableau solaire", "energie", 4);
    const farm = await freeCourse("Tableau agro", "agriculture", 2);
    await handle.db.transaction((tx) => startEnrolment(tx, learner, solar.course.id, new Date("2026-03-10T08:00:00Z")));
    await handle.db.transaction((tx) => startEnrolment(tx, learner, farm.course.id, new Date("2026-06-02T08:00:00Z")));
    await setLessonDone(handle.db, learner, solar.lessons[0]!.id, true, new Date("2026-04-05T08:00:00Z"));
    await setLessonDone(handle.db, learner, solar.lessons[1]!.id, true, new Date("2026-05-05T08:00:00Z"));
    await setLessonDone(handle.db, learner, farm.lessons[0]!.id, true, new Date("2026-06-10T08:00:00Z"));
    await handle.db
      .update(courses)
      .set({ nextLiveAt: new Date("2026-07-01T17:00:00Z") })
      .where(eq(courses.id, solar.course.id));
    // A classmate on the same course, further on: none of their lessons counts for the learner.
    const classmate = await person("user");
    await handle.db.transaction((tx) => startEnrolment(tx, classmate, solar.course.id, new Date("2026-06-01T08:00:00Z")));
    for (const lesson of solar.lessons.slice(0, 3))
      await setLessonDone(handle.db, classmate, lesson.id, true, new Date("2026-06-03T08:00:00Z"));

    const dashboard = await getStudentDashboard(handle.db, learner, now);
    expect(dashboard).toMatchObject({
      activeCourses: 2,
      startedThisMonth: 1,
      averageProgress: 50,
      studyMinutes: 10 + 20 + 10,
    });
    expect(dashboard.monthly.map((month) => month.month)).toEqual(["janv", "févr", "mars", "avr", "mai", "juin"]);
    // March: solar started, nothing done; April: 1/4; May: 2/4; June: solar 2/4 and farm 1/2.
    expect(dashboard.monthly.map((month) => month.progress)).toEqual([0, 0, 0, 25, 50, 50]);
    expect(dashboard.domains).toEqual([
      { name: "Agriculture", courses: 1, share: 50 },
      { name: "Énergie", courses: 1, share: 50 },
    ]);
    const solarRow = dashboard.inProgress.find((row) => row.slug === solar.course.slug);
    expect(solarRow).toMatchObject({ progress: 50, lessonsDone: 2, lessonCount: 4, nextLiveAt: new Date("2026-07-01T17:00:00Z") });
    expect(dashboard.inProgress.find((row) => row.slug === farm.course.slug)?.nextLiveAt).toBeNull();
    // The classmate's dashboard: their own three lessons, their own month.
    expect(await getStudentDashboard(handle.db, classmate, now)).toMatchObject({
      activeCourses: 1,
      startedThisMonth: 1,
      averageProgress: 75,
      studyMinutes: 10 + 20 + 30,
    });
    // Another learner sees none of it.
    expect(await getStudentDashboard(handle.db, await person("user"), now)).toMatchObject({
      activeCourses: 0,
      averageProgress: 0,
      studyMinutes: 0,
      domains: [],
      inProgress: [],
    });
    const [enrolled] = await handle.db
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, solar.course.id)));
    expect(enrolled?.progress).toBe(50);
  });
});
