import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  announceNewLessons,
  LESSONS_ANNOUNCEMENT_DELAY_MS,
  LESSONS_ANNOUNCEMENT_QUEUE,
  type LessonsAnnouncementJob,
} from "~/.server/courses/announcements";
import { createCourse, getCourseForEditing, listCourseFormOptions, slugify, updateCourse } from "~/.server/courses/authoring";
import { changeCourseStatus } from "~/.server/courses/status";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, files, jobs, lessons, notifications } from "~/.server/db/schema";
import { createUser, enrol, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { refusalOf } from "../setup/refusal";

let handle: DatabaseHandle;
let admin: TestUser;
let teacher: TestUser;
let otherTeacher: TestUser;
let student: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  admin = await createUser(handle.db, { role: "admin", firstName: "Moussa" });
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Fatoumata" });
  otherTeacher = await createUser(handle.db, { role: "teacher", firstName: "Ibrahim" });
  student = await createUser(handle.db, { firstName: "Awa" });
});
afterAll(async () => handle?.close());

const lesson = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  description: "",
  content: "",
  videoUrl: "",
  durationMinutes: "30",
  isFree: false,
  ...extra,
});

function courseInput(extra: Record<string, unknown> = {}) {
  return {
    title: "Énergie Solaire",
    description: "Dimensionner et installer une centrale photovoltaïque.",
    category: "energie",
    level: "debutant",
    durationWeeks: "6",
    priceFcfa: "120 000",
    maxStudents: "",
    liveSessionUrl: "",
    status: "draft",
    objectives: ["  Dimensionner une installation  ", ""],
    prerequisites: [],
    lessons: [lesson("Introduction"), lesson("Les panneaux"), lesson("Les batteries")],
    ...extra,
  };
}

/** The course form's values as a teacher types them (this file tests the form's rules; other tests use the factories). */
const created = (actor: TestUser, extra: Record<string, unknown> = {}) => createCourse(handle.db, actor, courseInput(extra));

const courseCount = async () => (await handle.db.select({ id: courses.id }).from(courses)).length;

describe("slugify", () => {
  it("drops accents and punctuation", () => {
    expect(slugify("Énergie Solaire")).toBe("energie-solaire");
    expect(slugify("  C++ : l'œuvre complète !  ")).toBe("c-l-oeuvre-complete");
    expect(slugify("???")).toBe("cours");
  });
});

describe("createCourse", () => {
  it("creates the course and its lessons, stamping the teacher and a unique slug", async () => {
    // The seed already has "energie-solaire".
    const first = await created(teacher);
    expect(first.course).toMatchObject({
      slug: "energie-solaire-2",
      instructorId: teacher.id,
      status: "draft",
      publishedAt: null,
      priceFcfa: 120000,
      durationWeeks: 6,
      maxStudents: null,
    });
    expect(first.course.objectives).toEqual(["Dimensionner une installation"]);
    expect(first.lessons.map((row) => [row.title, row.position, row.durationMinutes])).toEqual([
      ["Introduction", 0, 30],
      ["Les panneaux", 1, 30],
      ["Les batteries", 2, 30],
    ]);
    const second = await created(teacher);
    expect(second.course.slug).toBe("energie-solaire-3");
  });

  it("keeps the next live session as a Bamako date and time, and refuses a date it cannot read", async () => {
    const result = await created(teacher, { title: "Avec direct", nextLiveAt: "2026-12-01T18:30" });
    expect(result.course.nextLiveAt?.toISOString()).toBe("2026-12-01T18:30:00.000Z");
    const bad = await refusalOf(createCourse(handle.db, teacher, courseInput({ nextLiveAt: "demain soir" })));
    expect(bad).toMatchObject({ code: "invalid", fieldErrors: { nextLiveAt: "Saisissez une date et une heure valides." } });
  });

  it("sets publishedAt when created published", async () => {
    const now = new Date("2026-01-05T10:00:00Z");
    const result = await createCourse(handle.db, teacher, courseInput({ title: "Publié d'emblée", status: "published" }), now);
    expect(result.course.publishedAt?.toISOString()).toBe(now.toISOString());
    expect(result.becamePublished).toBe(true);
  });

  it("refuses bad input with French field errors and writes nothing", async () => {
    const before = await courseCount();
    const result = await refusalOf(
      createCourse(handle.db, teacher, {
        title: "  ",
        description: "",
        category: "",
        level: "",
        durationWeeks: "-2",
        priceFcfa: "12,5",
        maxStudents: "0",
        liveSessionUrl: "javascript:alert(1)",
        lessons: [lesson(""), lesson("Ok", { durationMinutes: "-5", videoUrl: "ftp://x" })],
      }),
    );
    expect(result.code).toBe("invalid");
    expect(result.fieldErrors).toMatchObject({
      title: "Le titre est obligatoire.",
      description: "La description est obligatoire.",
      category: "Choisissez une catégorie.",
      level: "Choisissez un niveau.",
      durationWeeks: "La durée doit valoir au moins 0.",
      priceFcfa: "Le prix doit être un nombre entier.",
      maxStudents: "Le nombre maximum d'étudiants doit valoir au moins 1.",
      liveSessionUrl: "Saisissez un lien valide (http:// ou https://).",
      "lessons.0.title": "Le titre de la leçon est obligatoire.",
      "lessons.1.durationMinutes": "La durée de la leçon doit valoir au moins 0.",
      "lessons.1.videoUrl": "Saisissez un lien vidéo valide (http:// ou https://).",
    });
    expect(result.message).toMatch(/n'a pas été enregistré/);
    expect(await courseCount()).toBe(before);
  });

  it("refuses an unknown category or level, a lesson id, and a missing file, in the transaction", async () => {
    const before = await courseCount();
    const unknown = await refusalOf(createCourse(handle.db, teacher, courseInput({ category: "astrologie", level: "maitre" })));
    expect(unknown).toMatchObject({
      code: "invalid",
      fieldErrors: { category: "Choisissez une catégorie de la liste.", level: "Choisissez un niveau de la liste." },
    });
    const forged = await refusalOf(createCourse(handle.db, teacher, courseInput({ lessons: [lesson("Volée", { id: "1" })] })));
    expect(forged).toMatchObject({ code: "invalid", fieldErrors: { "lessons.0.id": "Cette leçon n'appartient pas à ce cours." } });
    const noFile = await refusalOf(createCourse(handle.db, teacher, courseInput({ thumbnailFileId: "inexistant" })));
    expect(noFile).toMatchObject({ code: "invalid", fieldErrors: { thumbnailFileId: expect.stringMatching(/introuvable/) } });
    expect(await courseCount()).toBe(before);
  });

  it("attaches uploaded files of the right purpose", async () => {
    const thumb = randomUUID();
    const video = randomUUID();
    await handle.db.insert(files).values([
      {
        id: thumb,
        purpose: "thumbnail",
        storageKey: `t/${thumb}`,
        originalName: "a.png",
        contentType: "image/png",
        size: 10,
        uploadedBy: teacher.id,
      },
      {
        id: video,
        purpose: "lesson_video",
        storageKey: `v/${video}`,
        originalName: "a.mp4",
        contentType: "video/mp4",
        size: 10,
        uploadedBy: teacher.id,
      },
    ]);
    expect((await refusalOf(createCourse(handle.db, teacher, courseInput({ thumbnailFileId: video })))).code).toBe("invalid");
    expect((await refusalOf(createCourse(handle.db, otherTeacher, courseInput({ thumbnailFileId: thumb })))).code).toBe("invalid");
    const result = await created(teacher, { thumbnailFileId: thumb, lessons: [lesson("Vidéo", { videoFileId: video })] });
    expect(result.course.thumbnailFileId).toBe(thumb);
    expect(result.lessons[0]?.videoFileId).toBe(video);
    const [row] = await handle.db.select().from(files).where(eq(files.id, video));
    expect(row?.courseId).toBe(result.course.id);
  });

  it("lets an admin assign a teacher, not a student; a teacher cannot assign anyone else", async () => {
    const assigned = await created(admin, { title: "Cours attribué", instructorId: teacher.id });
    expect(assigned.course.instructorId).toBe(teacher.id);
    const toStudent = await refusalOf(createCourse(handle.db, admin, courseInput({ instructorId: student.id })));
    expect(toStudent).toMatchObject({ code: "invalid", fieldErrors: { instructorId: "Choisissez un formateur de la liste." } });
    const byTeacher = await refusalOf(createCourse(handle.db, teacher, courseInput({ instructorId: otherTeacher.id })));
    expect(byTeacher).toMatchObject({ code: "invalid", fieldErrors: { instructorId: expect.stringMatching(/administrateur/) } });
    const adminOwn = await created(admin, { title: "Cours de l'admin" });
    expect(adminOwn.course.instructorId).toBe(admin.id);
  });

  it("is refused to a student", async () => {
    expect((await refusalOf(createCourse(handle.db, student, courseInput()))).code).toBe("not_found");
  });
});

describe("updateCourse", () => {
  it("reorders, renames and removes lessons in place: the others keep their ids", async () => {
    const {
      course,
      lessons: [intro, panels, batteries],
    } = await created(teacher, { title: "Réseaux" });
    const result = await updateCourse(handle.db, teacher, course.id, {
      ...courseInput({ title: "Réseaux avancés" }),
      lessons: [
        lesson("Les batteries (révisé)", { id: String(batteries!.id), isFree: "on" }),
        lesson("Introduction", { id: intro!.id }),
        lesson("Nouvelle leçon", { durationMinutes: "" }),
      ],
    });
    expect(result.course.slug).toBe(course.slug);
    expect(result.course.title).toBe("Réseaux avancés");
    expect(result.lessons.map((row) => [row.id, row.title, row.position, row.isFree, row.durationMinutes])).toEqual([
      [batteries!.id, "Les batteries (révisé)", 0, true, 30],
      [intro!.id, "Introduction", 1, false, 30],
      [expect.any(Number), "Nouvelle leçon", 2, false, 0],
    ]);
    expect(await handle.db.select().from(lessons).where(eq(lessons.id, panels!.id))).toHaveLength(0);
    expect(result.course.updatedAt.getTime()).toBeGreaterThan(course.updatedAt.getTime() - 1);
  });

  it("sets publishedAt on publishing, keeps it while published, clears it on archiving", async () => {
    const { course } = await created(teacher, { title: "Publication" });
    const t1 = new Date("2026-02-01T08:00:00Z");
    const published = await updateCourse(
      handle.db,
      teacher,
      course.id,
      courseInput({ title: "Publication", status: "published", lessons: [] }),
      t1,
    );
    expect(published).toMatchObject({ becamePublished: true });
    expect(published.course.publishedAt?.toISOString()).toBe(t1.toISOString());
    const again = await updateCourse(
      handle.db,
      teacher,
      course.id,
      courseInput({ title: "Publication", status: "published", lessons: [] }),
      new Date("2026-03-01T08:00:00Z"),
    );
    expect(again.becamePublished).toBe(false);
    expect(again.course.publishedAt?.toISOString()).toBe(t1.toISOString());
    const archived = await updateCourse(
      handle.db,
      teacher,
      course.id,
      courseInput({ title: "Publication", status: "archived", lessons: [] }),
    );
    expect(archived.course.publishedAt).toBeNull();
    expect(archived.course.status).toBe("archived");
  });

  it("holds a teacher to the list's status rule: publish a draft, archive a published course, nothing else (issue 9)", async () => {
    // Creating: a draft, or published at once; never archived.
    expect(await refusalOf(created(teacher, { title: "Archivé d'emblée", status: "archived" }))).toMatchObject({
      code: "invalid",
      fieldErrors: { status: "Seul un cours publié peut être archivé." },
    });
    const { course } = await created(teacher, { title: "Allers-retours" });
    const save = (actor: TestUser, status: string) =>
      updateCourse(handle.db, actor, course.id, courseInput({ title: "Allers-retours", status, lessons: [] }));
    // draft → archived: refused, and nothing is written.
    expect(await refusalOf(save(teacher, "archived"))).toMatchObject({
      code: "invalid",
      fieldErrors: { status: "Seul un cours publié peut être archivé." },
    });
    expect((await handle.db.select().from(courses).where(eq(courses.id, course.id)))[0]?.status).toBe("draft");
    await save(teacher, "published");
    // Saving again without changing the status is always allowed.
    await save(teacher, "published");
    expect(await refusalOf(save(teacher, "draft"))).toMatchObject({
      fieldErrors: { status: "Seul un administrateur peut remettre un cours en brouillon." },
    });
    await save(teacher, "archived");
    expect(await refusalOf(save(teacher, "published"))).toMatchObject({ fieldErrors: { status: "Seul un brouillon peut être publié." } });
    // An administrator sets any status.
    expect((await save(admin, "draft")).course.status).toBe("draft");
    expect((await save(admin, "archived")).course.status).toBe("archived");
  });

  it('answers a teacher editing another teacher\'s course with "not found" and changes nothing', async () => {
    const { course } = await created(teacher, { title: "Le mien" });
    expect((await refusalOf(updateCourse(handle.db, otherTeacher, course.id, courseInput({ title: "Volé" })))).code).toBe("not_found");
    expect((await refusalOf(getCourseForEditing(handle.db, otherTeacher, course.id))).code).toBe("not_found");
    expect((await refusalOf(updateCourse(handle.db, teacher, 999999, courseInput()))).code).toBe("not_found");
    const [row] = await handle.db.select().from(courses).where(eq(courses.id, course.id));
    expect(row?.title).toBe("Le mien");
    // An admin may.
    const byAdmin = await updateCourse(handle.db, admin, course.id, courseInput({ title: "Revu par l'admin" }));
    expect(byAdmin.course.instructorId).toBe(teacher.id);
  });

  it("refuses a forged lesson id of another course and rolls everything back", async () => {
    const mine = await created(teacher, { title: "Cours A" });
    const theirs = await created(otherTeacher, { title: "Cours B" });
    const result = await refusalOf(
      updateCourse(handle.db, teacher, mine.course.id, {
        ...courseInput({ title: "Cours A modifié" }),
        lessons: [lesson("Détournée", { id: theirs.lessons[0]!.id })],
      }),
    );
    expect(result).toMatchObject({ code: "invalid", fieldErrors: { "lessons.0.id": "Cette leçon n'appartient pas à ce cours." } });
    const [theirLesson] = await handle.db.select().from(lessons).where(eq(lessons.id, theirs.lessons[0]!.id));
    expect(theirLesson?.title).toBe("Introduction");
    expect(await handle.db.select().from(lessons).where(eq(lessons.courseId, mine.course.id))).toHaveLength(3);
    const [row] = await handle.db.select().from(courses).where(eq(courses.id, mine.course.id));
    expect(row?.title).toBe("Cours A");
  });

  it("lets an admin reassign a course; a teacher cannot give theirs away", async () => {
    const { course } = await created(teacher, { title: "À transmettre" });
    const refused = await refusalOf(
      updateCourse(handle.db, teacher, course.id, courseInput({ title: "À transmettre", instructorId: otherTeacher.id })),
    );
    expect(refused.code).toBe("invalid");
    const reassigned = await updateCourse(
      handle.db,
      admin,
      course.id,
      courseInput({ title: "À transmettre", instructorId: otherTeacher.id }),
    );
    expect(reassigned.course.instructorId).toBe(otherTeacher.id);
  });
});

describe("getCourseForEditing and listCourseFormOptions", () => {
  it("returns the course with its ordered lessons and slugs", async () => {
    const { course } = await created(teacher, { title: "À éditer", category: "tech", level: "expert" });
    const editing = await getCourseForEditing(handle.db, teacher, course.id);
    expect(editing).toMatchObject({ categorySlug: "tech", levelSlug: "expert", course: { id: course.id } });
    expect(editing.lessons.map((row) => row.title)).toEqual(["Introduction", "Les panneaux", "Les batteries"]);
  });

  it("lists categories and levels, and the instructors for admins only", async () => {
    const forAdmin = await listCourseFormOptions(handle.db, admin);
    expect(forAdmin.levels.map((level) => level.slug)).toEqual(["debutant", "intermediaire", "avance", "expert"]);
    expect(forAdmin.categories.map((category) => category.slug)).toContain("energie");
    expect(forAdmin.instructors.map((user) => user.id)).toEqual(expect.arrayContaining([teacher.id, otherTeacher.id, admin.id]));
    expect(forAdmin.instructors.map((user) => user.id)).not.toContain(student.id);
    expect((await listCourseFormOptions(handle.db, teacher)).instructors).toEqual([]);
  });
});

describe("announcing new lessons to the learners", () => {
  const minutes = (from: Date, count: number) => new Date(from.getTime() + count * 60_000);
  const announcements = async (courseId: number) =>
    (await handle.db.select().from(jobs).where(eq(jobs.queue, LESSONS_ANNOUNCEMENT_QUEUE)).orderBy(jobs.id)).filter(
      (job) => (job.payload as LessonsAnnouncementJob).courseId === courseId,
    );
  const lessonNews = (user: TestUser) =>
    handle.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "lessons_added")))
      .orderBy(notifications.id);
  const keep = (saved: { id: number; title: string }[]) => saved.map((row) => lesson(row.title, { id: String(row.id) }));

  it("announces the lessons a published course gains over several saves at once, to each following learner, once", async () => {
    const t0 = new Date("2030-01-06T08:00:00Z");
    const { course, lessons: first } = await createCourse(
      handle.db,
      teacher,
      courseInput({ title: "Solaire pour tous", status: "published" }),
      t0,
    );
    const saveLessons = async (changed: ReturnType<typeof lesson>[], at: number) =>
      (
        await updateCourse(
          handle.db,
          teacher,
          course.id,
          courseInput({ title: "Solaire pour tous", status: "published", lessons: changed }),
          minutes(t0, at),
        )
      ).lessons;
    const follower = await createUser(handle.db, { firstName: "Kadia" });
    const unpaid = await createUser(handle.db, { firstName: "Bakary" });
    await enrol(handle.db, follower, course, { paid: true });
    await enrol(handle.db, unpaid, course);

    // Edits without a new lesson announce nothing.
    await saveLessons(keep(first), 5);
    expect(await announcements(course.id)).toHaveLength(0);

    const second = await saveLessons([...keep(first), lesson("Les onduleurs")], 10);
    const third = await saveLessons([...keep(second), lesson("Le câblage")], 20);
    const queued = await announcements(course.id);
    expect(queued.map((job) => job.runAt.toISOString())).toEqual(
      [10, 20].map((at) => minutes(t0, at + LESSONS_ANNOUNCEMENT_DELAY_MS / 60_000).toISOString()),
    );
    expect(await lessonNews(follower)).toHaveLength(0);

    const payload = queued[0]!.payload as LessonsAnnouncementJob;
    expect(await announceNewLessons(handle.db, payload, minutes(t0, 40))).toBe(1);
    const [news, ...more] = await lessonNews(follower);
    expect(more).toHaveLength(0);
    expect(news).toMatchObject({
      title: "2 nouvelles leçons",
      body: "Dans « Solaire pour tous » : « Les onduleurs », « Le câblage ».",
      link: `/dashboard/formations/${course.slug}`,
    });
    expect(await lessonNews(unpaid)).toHaveLength(0);
    expect(await lessonNews(teacher)).toHaveLength(0);

    // The second save's announcement, and a replay of the first (a retry), tell no one again.
    expect(await announceNewLessons(handle.db, queued[1]!.payload as LessonsAnnouncementJob, minutes(t0, 50))).toBe(0);
    expect(await announceNewLessons(handle.db, payload, minutes(t0, 51))).toBe(0);
    expect(await lessonNews(follower)).toHaveLength(1);

    // A lesson removed before its announcement runs is not announced; the next one added is.
    const fourth = await saveLessons([...keep(third), lesson("Retiré aussitôt")], 60);
    await saveLessons(keep(fourth.filter((row) => row.title !== "Retiré aussitôt")), 65);
    const [, , removed] = await announcements(course.id);
    expect(await announceNewLessons(handle.db, removed!.payload as LessonsAnnouncementJob, minutes(t0, 90))).toBe(0);
    expect(await lessonNews(follower)).toHaveLength(1);
    await saveLessons([...keep(third), lesson("Le stockage")], 100);
    const last = (await announcements(course.id)).at(-1)!;
    expect(await announceNewLessons(handle.db, last.payload as LessonsAnnouncementJob, minutes(t0, 130))).toBe(1);
    expect((await lessonNews(follower)).map((row) => [row.title, row.body])).toEqual([
      ["2 nouvelles leçons", "Dans « Solaire pour tous » : « Les onduleurs », « Le câblage »."],
      ["Nouvelle leçon", "Dans « Solaire pour tous » : « Le stockage »."],
    ]);
  });

  it("announces the lessons added while a course was not published once it is published again from the list", async () => {
    const t0 = new Date("2030-02-03T08:00:00Z");
    const { course, lessons: first } = await createCourse(
      handle.db,
      teacher,
      courseInput({ title: "Retour en ligne", status: "published" }),
      t0,
    );
    const follower = await createUser(handle.db, { firstName: "Fanta" });
    await enrol(handle.db, follower, course, { paid: true });
    await changeCourseStatus(handle.db, admin, course.id, "draft", minutes(t0, 5));
    await updateCourse(
      handle.db,
      teacher,
      course.id,
      courseInput({ title: "Retour en ligne", status: "draft", lessons: [...keep(first), lesson("Remise à niveau")] }),
      minutes(t0, 10),
    );
    expect(await announcements(course.id)).toHaveLength(0);

    await changeCourseStatus(handle.db, teacher, course.id, "published", minutes(t0, 20));
    const [job, ...others] = await announcements(course.id);
    expect(others).toHaveLength(0);
    expect(await announceNewLessons(handle.db, job!.payload as LessonsAnnouncementJob, minutes(t0, 50))).toBe(1);
    expect((await lessonNews(follower)).map((row) => row.body)).toEqual(["Dans « Retour en ligne » : « Remise à niveau »."]);
  });

  it("announces nothing for a draft, nor for the lessons a course is created with", async () => {
    const { course, lessons: first } = await created(teacher, { title: "Brouillon solaire" });
    await updateCourse(
      handle.db,
      teacher,
      course.id,
      courseInput({ title: "Brouillon solaire", lessons: [...keep(first), lesson("En préparation")] }),
    );
    const published = await created(teacher, { title: "Publié d'emblée", status: "published" });
    await updateCourse(
      handle.db,
      teacher,
      published.course.id,
      courseInput({ title: "Publié d'emblée", status: "published", lessons: keep(published.lessons) }),
    );
    expect(await announcements(course.id)).toHaveLength(0);
    expect(await announcements(published.course.id)).toHaveLength(0);
  });
});
