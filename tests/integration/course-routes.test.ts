/**
 * The course screens through their route modules, as a browser without JavaScript uses them: the
 * course form's buttons and saves, the course lists' status actions, the public course page and
 * its free previews, each for the right and the wrong people.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/.server/auth/actor";
import type { CampusAuth } from "~/.server/auth/express";
import { createCourse } from "~/.server/courses/authoring";
import { changeCourseStatus } from "~/.server/courses/status";
import { getManagedCourseStats, listManagedCourses } from "~/.server/reports";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, lessons } from "~/.server/db/schema";
import { action as formAction, loader as formLoader } from "~/routes/teacher/course-form";
import { loader as lessonPreviewLoader } from "~/routes/public/formation-apercu";
import { loader as coursePageLoader } from "~/routes/public/formation";
import { createSignedInUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
const who: Record<"admin" | "teacher" | "otherTeacher" | "student", { actor: Actor; cookie: string }> = {} as never;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  for (const [key, role] of [
    ["admin", "admin"],
    ["teacher", "teacher"],
    ["otherTeacher", "teacher"],
    ["student", "user"],
  ] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { role });
    who[key] = { actor: user, cookie };
  }
});
afterAll(async () => handle?.close());

type Args = Parameters<typeof formAction>[0];

function args(
  path: string,
  options: { cookie?: string; form?: Record<string, string | string[]>; params?: Record<string, string> } = {},
): Args {
  const headers = new Headers(options.cookie ? { cookie: options.cookie } : {});
  let body: URLSearchParams | undefined;
  if (options.form) {
    body = new URLSearchParams();
    for (const [name, value] of Object.entries(options.form))
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: body ? "POST" : "GET", headers, body });
  return {
    request,
    params: options.params ?? {},
    context: routerContext(handle.db, campus),
    url: new URL(request.url),
    pattern: path,
  } as unknown as Args;
}

const baseForm = {
  title: "Gestion de l'eau",
  description: "Irriguer les cultures maraîchères avec peu d'eau.",
  category: "agriculture",
  level: "debutant",
  durationWeeks: "4",
  priceFcfa: "15 000",
  maxStudents: "",
  liveSessionUrl: "",
  status: "draft",
  tab: "informations",
};

describe("the course form without JavaScript", () => {
  it("adds, moves and removes lessons and list items with its buttons, saving nothing", async () => {
    const before = (await handle.db.select().from(courses)).length;
    const added = await routeOutcome(() =>
      asServer(
        formAction,
        args("/teacher/create-course", {
          cookie: who.teacher.cookie,
          form: { ...baseForm, "lessons[0].title": "Première", intent: "add-lesson", tab: "lecons" },
        }),
      ),
    );
    expect(added.status).toBe(200);
    const addedData = added.data as { values: { lessons: Array<{ title: string }> }; tab: string };
    expect(addedData.values.lessons.map((lesson) => lesson.title)).toEqual(["Première", ""]);
    expect(addedData.tab).toBe("lecons");

    const moved = await routeOutcome(() =>
      asServer(
        formAction,
        args("/teacher/create-course", {
          cookie: who.teacher.cookie,
          form: { ...baseForm, "lessons[0].title": "A", "lessons[1].title": "B", intent: "move-lesson-down:0" },
        }),
      ),
    );
    expect((moved.data as { values: { lessons: Array<{ title: string }> } }).values.lessons.map((lesson) => lesson.title)).toEqual([
      "B",
      "A",
    ]);

    const objective = await routeOutcome(() =>
      asServer(
        formAction,
        args("/teacher/create-course", {
          cookie: who.teacher.cookie,
          form: { ...baseForm, "objectives[0]": "Un", newObjective: "  Deux  ", intent: "add-objective" },
        }),
      ),
    );
    expect((objective.data as { values: { objectives: string[]; newObjective: string } }).values).toMatchObject({
      objectives: ["Un", "Deux"],
      newObjective: "",
    });

    const switched = await routeOutcome(() =>
      asServer(formAction, args("/teacher/create-course", { cookie: who.teacher.cookie, form: { ...baseForm, intent: "tab:parametres" } })),
    );
    expect((switched.data as { tab: string }).tab).toBe("parametres");
    expect((await handle.db.select().from(courses)).length).toBe(before);
  });

  it("gives back everything typed, with French messages beside the fields, when a save fails", async () => {
    const failed = await routeOutcome(() =>
      asServer(
        formAction,
        args("/teacher/create-course", {
          cookie: who.teacher.cookie,
          form: {
            ...baseForm,
            title: "",
            priceFcfa: "douze",
            "lessons[0].title": "",
            "lessons[0].content": "Un long texte tapé.",
            newPrerequisite: "Savoir lire",
            intent: "save",
          },
        }),
      ),
    );
    expect(failed.status).toBe(400);
    const data = failed.data as {
      values: Record<string, unknown> & { lessons: Array<{ content: string }>; prerequisites: string[] };
      ok: boolean;
      message: string | null;
      fieldErrors: Record<string, string>;
      tab: string;
    };
    expect(data).toMatchObject({ ok: false, message: expect.stringMatching(/n'a pas été enregistré/) });
    expect(data.fieldErrors).toMatchObject({
      title: "Le titre est obligatoire.",
      priceFcfa: "Le prix doit être un nombre entier.",
      "lessons.0.title": "Le titre de la leçon est obligatoire.",
    });
    expect(data.tab).toBe("informations");
    expect(data.values).toMatchObject({ description: baseForm.description, priceFcfa: "douze", prerequisites: ["Savoir lire"] });
    expect(data.values.lessons[0]?.content).toBe("Un long texte tapé.");
  });

  it("creates the course, then goes to the course list with the spec's toast", async () => {
    const saved = await routeOutcome(() =>
      asServer(
        formAction,
        args("/teacher/create-course", {
          cookie: who.teacher.cookie,
          form: { ...baseForm, "lessons[0].title": "Le goutte-à-goutte", "lessons[0].durationMinutes": "20", intent: "save" },
        }),
      ),
    );
    expect(saved).toMatchObject({ status: 303, location: "/teacher/courses" });
    const [course] = await handle.db.select().from(courses).where(eq(courses.title, "Gestion de l'eau"));
    expect(course).toMatchObject({ instructorId: who.teacher.actor.id, priceFcfa: 15000, status: "draft" });
    expect(await handle.db.select({ title: lessons.title }).from(lessons).where(eq(lessons.courseId, course!.id))).toEqual([
      { title: "Le goutte-à-goutte" },
    ]);
  });

  it("opens the edit form to the course's teacher and admins only (404 otherwise), with the stored values", async () => {
    const [course] = await handle.db.select().from(courses).where(eq(courses.title, "Gestion de l'eau"));
    const path = `/dashboard/course-creator/${course!.id}`;
    const mine = await routeOutcome(() =>
      asServer(formLoader, args(path, { cookie: who.teacher.cookie, params: { id: String(course!.id) } }) as never),
    );
    expect(mine.status).toBe(200);
    expect((mine.data as { values: { title: string; priceFcfa: string; lessons: Array<{ id: string }> } }).values).toMatchObject({
      title: "Gestion de l'eau",
      priceFcfa: "15000",
    });
    expect(
      (
        await routeOutcome(() =>
          asServer(formLoader, args(path, { cookie: who.admin.cookie, params: { id: String(course!.id) } }) as never),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await routeOutcome(() =>
          asServer(formLoader, args(path, { cookie: who.otherTeacher.cookie, params: { id: String(course!.id) } }) as never),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await routeOutcome(() =>
          asServer(formLoader, args("/dashboard/course-creator/abc", { cookie: who.teacher.cookie, params: { id: "abc" } }) as never),
        )
      ).status,
    ).toBe(404);
    // A forged save against another teacher's course changes nothing.
    const forged = await routeOutcome(() =>
      asServer(
        formAction,
        args(path, {
          cookie: who.otherTeacher.cookie,
          params: { id: String(course!.id) },
          form: { ...baseForm, title: "Volé", intent: "save" },
        }),
      ),
    );
    expect(forged.status).toBe(404);
    const [after] = await handle.db.select().from(courses).where(eq(courses.id, course!.id));
    expect(after?.title).toBe("Gestion de l'eau");
    // Students never reach the form.
    expect(
      await routeOutcome(() => asServer(formLoader, args("/teacher/create-course", { cookie: who.student.cookie }) as never)),
    ).toMatchObject({
      status: 302,
      location: "/dashboard",
    });
  });

  it("updates in place and comes back to the form with a toast; Annuler and the return go to the list the user came from", async () => {
    const [course] = await handle.db.select().from(courses).where(eq(courses.title, "Gestion de l'eau"));
    const [lesson] = await handle.db.select().from(lessons).where(eq(lessons.courseId, course!.id));
    const path = `/dashboard/course-creator/${course!.id}?retour=/admin/my-courses`;
    const saved = await routeOutcome(() =>
      asServer(
        formAction,
        args(path, {
          cookie: who.admin.cookie,
          params: { id: String(course!.id) },
          form: {
            ...baseForm,
            title: "Gestion de l'eau (2e édition)",
            "lessons[0].id": String(lesson!.id),
            "lessons[0].title": "Le goutte-à-goutte, revu",
            intent: "save",
          },
        }),
      ),
    );
    expect(saved).toMatchObject({ status: 303, location: path });
    const [renamed] = await handle.db.select().from(lessons).where(eq(lessons.courseId, course!.id));
    expect(renamed).toMatchObject({ id: lesson!.id, title: "Le goutte-à-goutte, revu" });
    const loaded = await routeOutcome(() =>
      asServer(formLoader, args(path, { cookie: who.admin.cookie, params: { id: String(course!.id) } }) as never),
    );
    expect((loaded.data as { listHref: string }).listHref).toBe("/admin/my-courses");
    // A teacher is never sent to the admin list.
    const forTeacher = await routeOutcome(() =>
      asServer(formLoader, args(path, { cookie: who.teacher.cookie, params: { id: String(course!.id) } }) as never),
    );
    expect((forTeacher.data as { listHref: string }).listHref).toBe("/teacher/courses");
  });
});

describe("course lists and statuses", () => {
  it("lets a teacher publish a draft and archive a published course, nothing else, on their own courses only", async () => {
    const created = await createCourse(handle.db, who.teacher.actor, { ...baseForm, title: "Statuts" });
    const id = created.course.id;
    await expect(changeCourseStatus(handle.db, who.teacher.actor, id, "archived")).rejects.toMatchObject({
      code: "forbidden",
      reason: "status_transition",
    });
    await expect(changeCourseStatus(handle.db, who.otherTeacher.actor, id, "published")).rejects.toMatchObject({ code: "not_found" });
    const published = await changeCourseStatus(handle.db, who.teacher.actor, id, "published", new Date("2026-04-01T09:00:00Z"));
    expect(published.message).toBe("Cours publié avec succès");
    expect(published.course.publishedAt?.toISOString()).toBe("2026-04-01T09:00:00.000Z");
    await expect(changeCourseStatus(handle.db, who.teacher.actor, id, "draft")).rejects.toMatchObject({ code: "forbidden" });
    const archived = await changeCourseStatus(handle.db, who.teacher.actor, id, "archived");
    expect(archived).toMatchObject({ message: "Cours mis à jour avec succès", course: { status: "archived", publishedAt: null } });
    // An admin may set any status on any course.
    const back = await changeCourseStatus(handle.db, who.admin.actor, id, "draft");
    expect(back.course.status).toBe("draft");
  });

  it("lists a teacher's own courses only, with search and filters, and counts them", async () => {
    await createCourse(handle.db, who.otherTeacher.actor, { ...baseForm, title: "Cours d'un collègue" });
    const mine = await listManagedCourses(handle.db, who.teacher.actor);
    expect(mine.every((course) => course.instructorId === who.teacher.actor.id)).toBe(true);
    expect(mine.map((course) => course.title)).not.toContain("Cours d'un collègue");
    expect((await listManagedCourses(handle.db, who.admin.actor)).map((course) => course.title)).toContain("Cours d'un collègue");
    expect(await listManagedCourses(handle.db, who.student.actor)).toEqual([]);
    expect((await listManagedCourses(handle.db, who.teacher.actor, { q: "MARAÎCH" })).map((course) => course.title)).toContain(
      "Gestion de l'eau (2e édition)",
    );
    expect(await listManagedCourses(handle.db, who.teacher.actor, { q: "100%_" })).toEqual([]);
    expect(
      (await listManagedCourses(handle.db, who.teacher.actor, { status: "published" })).every((course) => course.status === "published"),
    ).toBe(true);
    const stats = await getManagedCourseStats(handle.db, who.teacher.actor);
    expect(stats.total).toBe(mine.length);
    expect(stats.published + stats.drafts).toBeLessThanOrEqual(stats.total);
  });
});

describe("public course pages", () => {
  it("hides a draft from visitors and shows it to its teacher as a preview", async () => {
    const created = await createCourse(handle.db, who.teacher.actor, {
      ...baseForm,
      title: "Brouillon secret",
      lessons: [{ title: "Ouverte", isFree: true }, { title: "Réservée" }],
    });
    const { slug } = created.course;
    const page = (cookie?: string) =>
      routeOutcome(() => coursePageLoader(args(`/formations/${slug}`, { cookie, params: { slug } }) as never));
    expect((await page()).status).toBe(404);
    expect((await page(who.student.cookie)).status).toBe(404);
    expect((await page(who.otherTeacher.cookie)).status).toBe(404);
    const preview = await page(who.teacher.cookie);
    expect(preview.status).toBe(200);
    expect((preview.data as { course: { status: string } }).course.status).toBe("draft");
    expect((await page(who.admin.cookie)).status).toBe(200);

    await handle.db.update(courses).set({ status: "published" }).where(eq(courses.id, created.course.id));
    const published = await page();
    expect(published.status).toBe(200);
    const data = published.data as { course: { modules: string[] }; lessons: Array<{ title: string; isFree: boolean }> };
    expect(data.lessons.map((lesson) => [lesson.title, lesson.isFree])).toEqual([
      ["Ouverte", true],
      ["Réservée", false],
    ]);
    // The catalogue card lists the lessons as the course's modules.
    expect(data.course.modules).toEqual(["Ouverte", "Réservée"]);
  });

  it("opens a free lesson of a published course to everyone, other lessons to the course's team only", async () => {
    const [course] = await handle.db.select().from(courses).where(eq(courses.title, "Brouillon secret"));
    const [free, locked] = await handle.db.select().from(lessons).where(eq(lessons.courseId, course!.id)).orderBy(lessons.position);
    const preview = (lessonId: number | string, cookie?: string) =>
      routeOutcome(() =>
        lessonPreviewLoader(
          args(`/formations/${course!.slug}/apercu/${lessonId}`, {
            cookie,
            params: { slug: course!.slug, lessonId: String(lessonId) },
          }) as never,
        ),
      );
    expect((await preview(free!.id)).status).toBe(200);
    expect((await preview(locked!.id)).status).toBe(404);
    expect((await preview(locked!.id, who.student.cookie)).status).toBe(404);
    expect((await preview(locked!.id, who.teacher.cookie)).status).toBe(200);
    expect((await preview("1 or 1=1")).status).toBe(404);
    // A lesson of another course under this course's address: 404.
    const [other] = await handle.db.select().from(lessons).where(eq(lessons.title, "Le goutte-à-goutte, revu"));
    expect((await preview(other!.id, who.admin.cookie)).status).toBe(404);
    await handle.db.update(courses).set({ status: "archived" }).where(eq(courses.id, course!.id));
    expect((await preview(free!.id)).status).toBe(404);
  });
});
