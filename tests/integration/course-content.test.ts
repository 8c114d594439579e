/**
 * "Gérer Contenus" (/teacher/content): the files of a teacher's courses, where each is used, and
 * what the teacher does with them (rename, attach, replace everywhere, take off, delete one nothing
 * uses), through the capability and the route module; another teacher and a student refused.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import {
  attachContentFile,
  deleteContentFile,
  detachContentFile,
  listCourseContent,
  renameContentFile,
  replaceContentFile,
} from "~/.server/courses";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, files, lessons } from "~/.server/db/schema";
import { AppError } from "~/.server/errors";
import { createDiskStorage } from "~/.server/storage/disk";
import { action, loader } from "~/routes/teacher/content";
import { createCourse, createSignedInUser, createStoredFile, sampleBytes, testUploadLimits, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let root: string;
let storage: ReturnType<typeof createDiskStorage>;
const who: Record<"admin" | "teacher" | "otherTeacher" | "student", { user: TestUser; cookie: string }> = {} as never;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "campus-content-"));
  storage = createDiskStorage(root);
  for (const [key, role] of [
    ["admin", "admin"],
    ["teacher", "teacher"],
    ["otherTeacher", "teacher"],
    ["student", "user"],
  ] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { role });
    who[key] = { user: user as TestUser, cookie };
  }
});
afterAll(async () => {
  await handle?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const lesson = (id: number) => ({ kind: "lesson" as const, lessonId: id });

/** A course of `teacher` with three lessons: one video on lessons 1 and 2, a PDF on lesson 3, a cover. */
async function courseWithContent(teacher: TestUser) {
  const { course, lessons: courseLessons } = await createCourse(handle.db, { instructor: teacher, lessons: 3 });
  const video = await createStoredFile(handle.db, storage, teacher, { purpose: "lesson_video", name: "Introduction.webm" });
  const pdf = await createStoredFile(handle.db, storage, teacher, { name: "Fiche.pdf" });
  const cover = await createStoredFile(handle.db, storage, teacher, { purpose: "thumbnail" });
  await attachContentFile(handle.db, teacher, video.id, lesson(courseLessons[0]!.id));
  await attachContentFile(handle.db, teacher, video.id, lesson(courseLessons[1]!.id));
  await attachContentFile(handle.db, teacher, pdf.id, lesson(courseLessons[2]!.id));
  await attachContentFile(handle.db, teacher, cover.id, { kind: "cover", courseId: course.id });
  return { course, lessons: courseLessons, video, pdf, cover };
}

const fileRow = async (id: string) => (await handle.db.select().from(files).where(eq(files.id, id)))[0];

async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the list", () => {
  it("shows a teacher their courses' files with where each is used, sizes and the video's versions; not another teacher's", async () => {
    const mine = await courseWithContent(who.teacher.user);
    const theirs = await courseWithContent(who.otherTeacher.user);
    const pending = await createStoredFile(handle.db, storage, who.teacher.user, { name: "brouillon.pdf" });

    const content = await listCourseContent(handle.db, who.teacher.user, { course: null, kind: null });
    const course = content.courses.find((item) => item.id === mine.course.id)!;
    expect(content.courses.some((item) => item.id === theirs.course.id)).toBe(false);
    const video = course.files.find((file) => file.id === mine.video.id)!;
    expect(video.uses.map((use) => use.lessonId)).toEqual([mine.lessons[0]!.id, mine.lessons[1]!.id]);
    expect(video.size).toBe(mine.video.size);
    // Transcoding was asked for at upload; no version is made yet.
    expect(video.transcode).toMatchObject({ status: "pending", progress: 0, versions: [] });
    expect(course.files.find((file) => file.id === mine.pdf.id)!.uses).toEqual([
      { label: expect.stringContaining("Leçon 3"), lessonId: mine.lessons[2]!.id },
    ]);
    expect(course.files.find((file) => file.id === mine.cover.id)!.uses).toEqual([
      { label: "Image de couverture du cours", lessonId: null },
    ]);
    expect(content.unattached.map((file) => file.id)).toContain(pending.id);
    expect(content.unattached.every((file) => file.id !== theirs.pdf.id)).toBe(true);

    // Totals cover every file the teacher manages, whatever the filters.
    const mineIds = [mine.video, mine.pdf, mine.cover].map((file) => file.id);
    const all = (await handle.db.select().from(files)).filter(
      (row) => mineIds.includes(row.id) || (row.courseId === null && row.uploadedBy === who.teacher.user.id),
    );
    expect(content.totals.files).toBe(all.length);
    expect(content.totals.bytes).toBe(all.reduce((sum, row) => sum + row.size, 0));
    expect(content.totals.videos).toBe(all.filter((row) => row.purpose === "lesson_video").length);
    expect(content.totals.unattached).toBe(all.filter((row) => row.courseId === null).length);
    expect(content.totals.videosReady).toBe(0);

    // Filters: a course, a type.
    const videos = await listCourseContent(handle.db, who.teacher.user, { course: mine.course.id, kind: "videos" });
    expect(videos.courses.map((item) => item.id)).toEqual([mine.course.id]);
    expect(videos.courses[0]!.files.map((file) => file.id)).toEqual([mine.video.id]);
    expect(videos.unattached).toEqual([]);

    // An admin sees both teachers' courses.
    const admin = await listCourseContent(handle.db, who.admin.user, { course: null, kind: "documents" });
    const ids = admin.courses.flatMap((item) => item.files.map((file) => file.id));
    expect(ids).toEqual(expect.arrayContaining([mine.pdf.id, theirs.pdf.id]));
  });

  it("refuses a student, through the capability and through the page's guard", async () => {
    const refused = await refusal(() => listCourseContent(handle.db, who.student.user, { course: null, kind: null }));
    expect(refused.code).toBe("not_found");
    const request = new Request(`${TEST_PUBLIC_URL}/teacher/content`, { headers: { cookie: who.student.cookie } });
    const outcome = await routeOutcome(() =>
      asServer(loader, { request, params: {}, context: routerContext(handle.db, campus, { storage }), url: new URL(request.url) } as never),
    );
    expect(outcome).toMatchObject({ status: 302, location: "/dashboard" });
  });
});

describe("another teacher's course", () => {
  it("is out of reach: its files cannot be renamed, moved, replaced, taken off or deleted, nor given one's own file", async () => {
    const theirs = await courseWithContent(who.otherTeacher.user);
    const me = who.teacher.user;
    const mineUnattached = await createStoredFile(handle.db, storage, me);
    const myVideo = await createStoredFile(handle.db, storage, me, { purpose: "lesson_video" });
    for (const run of [
      () => renameContentFile(handle.db, me, theirs.pdf.id, { name: "piraté" }),
      () => attachContentFile(handle.db, me, theirs.pdf.id, lesson(theirs.lessons[0]!.id)),
      () => replaceContentFile(handle.db, me, theirs.video.id, myVideo.id),
      () => detachContentFile(handle.db, me, theirs.pdf.id, null),
      () => deleteContentFile(handle.db, storage, me, theirs.pdf.id),
    ]) {
      expect((await refusal(run)).code).toBe("not_found");
    }
    const intoTheirs = await refusal(() => attachContentFile(handle.db, me, mineUnattached.id, lesson(theirs.lessons[0]!.id)));
    expect(intoTheirs.fieldErrors.target).toBe("Choisissez une leçon de vos cours.");
    expect(await fileRow(theirs.pdf.id)).toMatchObject({ originalName: "Fiche.pdf", lessonId: theirs.lessons[2]!.id });
    expect((await handle.db.select().from(lessons).where(eq(lessons.id, theirs.lessons[0]!.id)))[0]!.videoFileId).toBe(theirs.video.id);
    expect(await storage.stat((await fileRow(theirs.pdf.id))!.storageKey)).not.toBeNull();
  });

  it("cannot use another teacher's unattached upload in its own course", async () => {
    const { lessons: mine } = await createCourse(handle.db, { instructor: who.teacher.user });
    const foreign = await createStoredFile(handle.db, storage, who.otherTeacher.user);
    expect((await refusal(() => attachContentFile(handle.db, who.teacher.user, foreign.id, lesson(mine[0]!.id)))).code).toBe("not_found");
    // As a replacement neither.
    const own = await createStoredFile(handle.db, storage, who.teacher.user);
    await attachContentFile(handle.db, who.teacher.user, own.id, lesson(mine[0]!.id));
    const replaced = await refusal(() => replaceContentFile(handle.db, who.teacher.user, own.id, foreign.id));
    expect(replaced.fieldErrors.replacementId).toMatch(/introuvable/);
  });
});

describe("changing content", () => {
  it("replaces a video in every lesson using it; the old one goes back to the unattached pool", async () => {
    const { lessons: courseLessons, video } = await courseWithContent(who.teacher.user);
    const next = await createStoredFile(handle.db, storage, who.teacher.user, { purpose: "lesson_video", name: "Introduction v2.webm" });
    const { places } = await replaceContentFile(handle.db, who.teacher.user, video.id, next.id);
    expect(places).toBe(2);
    // Without an order PostgreSQL returns updated rows in whatever order its heap holds them.
    const rows = await handle.db.select().from(lessons).where(eq(lessons.courseId, courseLessons[0]!.courseId)).orderBy(asc(lessons.id));
    expect(rows.filter((row) => row.videoFileId === next.id).map((row) => row.id)).toEqual([courseLessons[0]!.id, courseLessons[1]!.id]);
    expect(await fileRow(video.id)).toMatchObject({ courseId: null, lessonId: null });
  });

  it("refuses a replacement of another kind, and one not uploaded", async () => {
    const { video, pdf } = await courseWithContent(who.teacher.user);
    const other = await createStoredFile(handle.db, storage, who.teacher.user);
    const wrongKind = await refusal(() => replaceContentFile(handle.db, who.teacher.user, video.id, other.id));
    expect(wrongKind.fieldErrors.replacementId).toBe("Le nouveau fichier doit être du même type que celui qu'il remplace.");
    expect((await refusal(() => replaceContentFile(handle.db, who.teacher.user, pdf.id, ""))).code).toBe("invalid");
  });

  it("moves a document to another lesson, refuses an image on a lesson and a lesson of another course", async () => {
    const { lessons: courseLessons, pdf, cover } = await courseWithContent(who.teacher.user);
    const { lessons: elsewhere } = await createCourse(handle.db, { instructor: who.teacher.user });
    await attachContentFile(handle.db, who.teacher.user, pdf.id, lesson(courseLessons[0]!.id));
    expect((await fileRow(pdf.id))!.lessonId).toBe(courseLessons[0]!.id);
    expect(
      (await refusal(() => attachContentFile(handle.db, who.teacher.user, cover.id, lesson(courseLessons[0]!.id)))).fieldErrors.target,
    ).toMatch(/couverture/);
    expect(
      (await refusal(() => attachContentFile(handle.db, who.teacher.user, pdf.id, lesson(elsewhere[0]!.id)))).fieldErrors.target,
    ).toMatch(/autre cours/);
  });

  it("renames a file, keeping its extension; an empty name is refused beside the field", async () => {
    const { pdf } = await courseWithContent(who.teacher.user);
    expect(await renameContentFile(handle.db, who.teacher.user, pdf.id, { name: "  Fiche de révision  " })).toEqual({
      name: "Fiche de révision.pdf",
    });
    expect((await fileRow(pdf.id))!.originalName).toBe("Fiche de révision.pdf");
    expect((await refusal(() => renameContentFile(handle.db, who.teacher.user, pdf.id, { name: "   " }))).fieldErrors.name).toBe(
      "Indiquez un nom.",
    );
    expect(
      (await refusal(() => renameContentFile(handle.db, who.teacher.user, pdf.id, { name: "x".repeat(201) }))).fieldErrors.name,
    ).toMatch(/200/);
  });

  it("refuses to delete a file still used; taken off, it is deleted with its bytes; a second delete finds nothing", async () => {
    const { course, video, cover } = await courseWithContent(who.teacher.user);
    const used = await refusal(() => deleteContentFile(handle.db, storage, who.teacher.user, video.id));
    expect(used.code).toBe("conflict");
    expect(used.message).toMatch(/encore utilisé par la leçon « Leçon 1 », la leçon « Leçon 2 »/);

    await detachContentFile(handle.db, who.teacher.user, cover.id, null);
    expect((await handle.db.select().from(courses).where(eq(courses.id, course.id)))[0]!.thumbnailFileId).toBeNull();
    const keys = [(await fileRow(cover.id))!.storageKey, ...Object.values((await fileRow(cover.id))!.variants)];
    await deleteContentFile(handle.db, storage, who.teacher.user, cover.id);
    expect(await fileRow(cover.id)).toBeUndefined();
    for (const key of keys) expect(await storage.stat(key)).toBeNull();
    expect((await refusal(() => deleteContentFile(handle.db, storage, who.teacher.user, cover.id))).code).toBe("not_found");
  });
});

describe("uploads the screen relies on", () => {
  it("refuses a file of the wrong type or over the size limit", async () => {
    const pdfAsVideo = await refusal(() =>
      createStoredFile(handle.db, storage, who.teacher.user, { purpose: "lesson_video", bytes: Buffer.from("%PDF-1.4\n%%EOF\n") }),
    );
    expect(pdfAsVideo.code).toBe("unsupported");
    const tooBig = await refusal(async () =>
      createStoredFile(handle.db, storage, who.teacher.user, {
        bytes: Buffer.concat([await sampleBytes("lesson_attachment"), Buffer.alloc(testUploadLimits.lesson_attachment)]),
      }),
    );
    expect(tooBig.code).toBe("too_large");
  });
});

describe("the route", () => {
  function post(cookie: string, form: Record<string, string>, query = "") {
    const request = new Request(`${TEST_PUBLIC_URL}/teacher/content${query}`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams(form),
    });
    return routeOutcome(() =>
      asServer(action, { request, params: {}, context: routerContext(handle.db, campus, { storage }), url: new URL(request.url) } as never),
    );
  }

  it("deletes with a confirmation, comes back to the filtered list, and answers a second click plainly", async () => {
    const unused = await createStoredFile(handle.db, storage, who.teacher.user, { name: "à jeter.pdf" });
    const get = new Request(`${TEST_PUBLIC_URL}/teacher/content?type=documents&supprimer=${unused.id}`, {
      headers: { cookie: who.teacher.cookie },
    });
    const page = await routeOutcome(() =>
      asServer(loader, {
        request: get,
        params: {},
        context: routerContext(handle.db, campus, { storage }),
        url: new URL(get.url),
      } as never),
    );
    expect((page.data as { deleting: unknown }).deleting).toEqual({ id: unused.id, name: "à jeter.pdf", used: false });

    const first = await post(who.teacher.cookie, { intent: "delete", fileId: unused.id }, `?type=documents&supprimer=${unused.id}`);
    expect(first).toMatchObject({ status: 302, location: "/teacher/content?type=documents" });
    expect(await fileRow(unused.id)).toBeUndefined();
    const second = await post(who.teacher.cookie, { intent: "delete", fileId: unused.id }, "?type=documents");
    expect(second).toMatchObject({ status: 302, location: "/teacher/content?type=documents" });
  });

  it("answers a refusal beside the file, keeping what was typed", async () => {
    const { video } = await courseWithContent(who.teacher.user);
    const used = await post(who.teacher.cookie, { intent: "delete", fileId: video.id });
    expect(used.status).toBe(409);
    expect(used.data).toMatchObject({ ok: false, intent: "delete", values: { fileId: video.id } });
    const empty = await post(who.teacher.cookie, { intent: "rename", fileId: video.id, name: "" });
    expect(empty).toMatchObject({ status: 400, data: { fieldErrors: { name: "Indiquez un nom." }, values: { fileId: video.id } } });
  });

  it("keeps a student out of the actions", async () => {
    const file = await createStoredFile(handle.db, storage, who.teacher.user);
    const outcome = await post(who.student.cookie, { intent: "delete", fileId: file.id });
    expect(outcome).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await fileRow(file.id)).toBeDefined();
  });
});
