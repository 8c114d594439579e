/**
 * Live sessions through their route modules: "Planifier Session", the teacher's list and detail
 * (edit, cancel), the learner's registration, "Rejoindre" (a redirect to the room, or a refusal),
 * the .ics file and the private calendar feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { liveSessions } from "~/.server/db/schema";
import { getToast } from "~/.server/toast";
import { toDateTimeLocal } from "~/lib/dates";
import { SHORT_NOTICE_REMINDER } from "~/lib/live-sessions";
import { loader as dashboardLoader } from "~/routes/dashboard/index";
import { loader as icsLoader } from "~/routes/dashboard/session-ics";
import { action as joinAction } from "~/routes/dashboard/session-join";
import { action as learnerAction, loader as learnerLoader } from "~/routes/dashboard/sessions";
import { loader as feedLoader } from "~/routes/public/calendar-feed";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/teacher/schedule";
import { action as sessionAction, loader as sessionLoader } from "~/routes/teacher/session";
import { loader as sessionsLoader } from "~/routes/teacher/sessions";
import { createCourse, createUser, enrol, type TestUser } from "../factories";
import { cookieFrom, createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeCaller, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;
let pending: TestUser;
let course: { id: number; slug: string };

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher" });
  otherTeacher = await createUser(handle.db, { role: "teacher" });
  learner = await createUser(handle.db);
  pending = await createUser(handle.db);
  ({ course } = await createCourse(handle.db, { instructor: teacher, priceFcfa: 20_000 }));
  await enrol(handle.db, learner, course, { paid: true });
  await enrol(handle.db, pending, course);
});
afterAll(async () => handle?.close());

const call = routeCaller(() => ({ db: handle.db, campus }));

const inMinutes = (minutes: number) => toDateTimeLocal(new Date(Date.now() + minutes * 60_000));

async function schedule(form: Record<string, string>) {
  return call(scheduleAction, teacher, "/teacher/schedule", {
    form: { courseId: String(course.id), durationMinutes: "60", room: "link", joinUrl: "https://meet.example.org/salle", ...form },
  });
}

describe("the teacher's screens", () => {
  it("offers the teacher's own courses, preselects ?cours=, and schedules a session", async () => {
    const page = (await call(scheduleLoader, teacher, `/teacher/schedule?cours=${course.id}`)).data as {
      courses: Array<{ id: number }>;
      values: { courseId: string };
    };
    expect(page.courses.map((row) => row.id)).toEqual([course.id]);
    expect(page.values.courseId).toBe(String(course.id));
    const other = (await call(scheduleLoader, otherTeacher, "/teacher/schedule")).data as { courses: unknown[] };
    expect(other.courses).toEqual([]);

    const done = await schedule({ title: "Atelier pratique", startsAt: inMinutes(5) });
    expect(done).toMatchObject({ status: 303, location: "/teacher/sessions" });
    const list = (await call(sessionsLoader, teacher, "/teacher/sessions")).data as {
      upcoming: Array<{ title: string; joinOpen: boolean }>;
    };
    expect(list.upcoming).toEqual([expect.objectContaining({ title: "Atelier pratique", joinOpen: true })]);
    expect(((await call(sessionsLoader, otherTeacher, "/teacher/sessions")).data as { upcoming: unknown[] }).upcoming).toEqual([]);
  });

  it("tells the teacher that the 1 h reminder leaves at once for a session less than an hour ahead", async () => {
    const toastAfter = async (startsAt: string) => {
      const request = new Request(`${TEST_PUBLIC_URL}/teacher/schedule`, {
        method: "POST",
        body: new URLSearchParams({
          courseId: String(course.id),
          title: "Rappel",
          startsAt,
          durationMinutes: "60",
          room: "link",
          joinUrl: "https://meet.example.org/salle",
        }),
      });
      const context = routerContext(handle.db, campus, { user: sessionOf(teacher) });
      const response = (await scheduleAction({ request, params: {}, context } as never)) as Response;
      const cookie = cookieFrom(response.headers.getSetCookie());
      return (await getToast(new Request(TEST_PUBLIC_URL, { headers: { Cookie: cookie } }))).toast;
    };
    expect((await toastAfter(inMinutes(30)))?.description).toContain(SHORT_NOTICE_REMINDER);
    expect((await toastAfter(inMinutes(180)))?.description).not.toContain("moins d'une heure");
  });

  it("keeps what was typed and says what is wrong beside the field", async () => {
    const refused = await schedule({ title: "", startsAt: "demain", joinUrl: "pas un lien" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      intent: "schedule",
      values: { joinUrl: "pas un lien" },
      fieldErrors: { title: "Le titre est obligatoire.", startsAt: "Saisissez une date et une heure valides." },
    });
    const forged = await call(scheduleAction, otherTeacher, "/teacher/schedule", {
      form: { courseId: String(course.id), title: "Intrus", startsAt: inMinutes(600), durationMinutes: "60", joinUrl: "https://x.example" },
    });
    expect(forged).toMatchObject({ status: 400, data: { fieldErrors: { courseId: "Choisissez un de vos cours." } } });
  });

  it("edits and cancels from the detail page; another teacher gets a 404", async () => {
    await schedule({ title: "À modifier", startsAt: inMinutes(600) });
    const [row] = (await handle.db.select().from(liveSessions)).filter((session) => session.title === "À modifier");
    const id = String(row!.id);
    expect((await call(sessionLoader, otherTeacher, `/teacher/sessions/${id}`, { params: { id } })).status).toBe(404);
    const detail = (await call(sessionLoader, teacher, `/teacher/sessions/${id}`, { params: { id } })).data as { changeable: boolean };
    expect(detail.changeable).toBe(true);
    const edited = await call(sessionAction, teacher, `/teacher/sessions/${id}`, {
      params: { id },
      form: {
        intent: "update",
        courseId: String(course.id),
        title: "Modifiée",
        startsAt: inMinutes(700),
        durationMinutes: "90",
        room: "link",
        joinUrl: "https://meet.example.org/autre",
      },
    });
    expect(edited).toMatchObject({ status: 303, location: `/teacher/sessions/${id}` });
    // Without the confirmation box, nothing is cancelled.
    await call(sessionAction, teacher, `/teacher/sessions/${id}`, { params: { id }, form: { intent: "cancel" } });
    expect((await call(sessionLoader, teacher, `/teacher/sessions/${id}`, { params: { id } })).data).toMatchObject({
      session: { status: "scheduled" },
    });
    expect(
      (await call(sessionAction, otherTeacher, `/teacher/sessions/${id}`, { params: { id }, form: { intent: "cancel", confirm: "oui" } }))
        .status,
    ).toBe(404);
    await call(sessionAction, teacher, `/teacher/sessions/${id}`, { params: { id }, form: { intent: "cancel", confirm: "oui" } });
    expect((await call(sessionLoader, teacher, `/teacher/sessions/${id}`, { params: { id } })).data).toMatchObject({
      session: { status: "cancelled", title: "Modifiée", duration: "1 h 30" },
      changeable: false,
    });
  });
});

describe("the learner's side", () => {
  it("shows the coming sessions on the dashboard; registers; joins (a redirect to the room) and is counted present", async () => {
    await schedule({ title: "Direct du jour", startsAt: inMinutes(8) });
    const [row] = (await handle.db.select().from(liveSessions)).filter((session) => session.title === "Direct du jour");
    const id = String(row!.id);
    const dashboard = (await call(dashboardLoader, learner, "/dashboard")).data as {
      sessions: Array<{ id: number; joinOpen: boolean; registered: boolean }>;
    };
    expect(dashboard.sessions).toContainEqual(expect.objectContaining({ id: row!.id, joinOpen: true, registered: false }));
    expect(((await call(dashboardLoader, pending, "/dashboard")).data as { sessions: unknown[] }).sessions).toEqual([]);

    const registered = await call(learnerAction, learner, "/dashboard/sessions", {
      form: { intent: "register", sessionId: id, retour: "/dashboard" },
    });
    expect(registered).toMatchObject({ status: 303, location: "/dashboard" });
    const page = (await call(learnerLoader, learner, "/dashboard/sessions")).data as {
      sessions: Array<{ id: number; registered: boolean }>;
      feedUrl: string;
    };
    expect(page.sessions.find((session) => session.id === row!.id)?.registered).toBe(true);
    // A forged return address stays on the site.
    const forged = await call(learnerAction, learner, "/dashboard/sessions", {
      form: { intent: "register", sessionId: id, retour: "//evil.example" },
    });
    expect(forged.location).toBe("/dashboard/sessions");

    expect(await call(joinAction, learner, `/dashboard/sessions/${id}/rejoindre`, { params: { id }, form: {} })).toMatchObject({
      status: 303,
      location: "https://meet.example.org/salle",
    });
    // A pending payment and another teacher: no link, nothing said about the session.
    expect((await call(joinAction, pending, `/dashboard/sessions/${id}/rejoindre`, { params: { id }, form: {} })).status).toBe(404);
    expect((await call(joinAction, otherTeacher, `/dashboard/sessions/${id}/rejoindre`, { params: { id }, form: {} })).status).toBe(404);
    const detail = (await call(sessionLoader, teacher, `/teacher/sessions/${id}`, { params: { id } })).data as {
      attended: Array<{ email: string }>;
    };
    expect(detail.attended.map((person) => person.email)).toEqual([learner.email]);
  });

  it("sends back with the reason when the room is not open yet", async () => {
    await schedule({ title: "Plus tard", startsAt: inMinutes(120) });
    const [row] = (await handle.db.select().from(liveSessions)).filter((session) => session.title === "Plus tard");
    const id = String(row!.id);
    const early = await call(joinAction, learner, `/dashboard/sessions/${id}/rejoindre`, { params: { id }, form: {} });
    expect(early).toMatchObject({ status: 303, location: "/dashboard/sessions" });
  });

  it("serves the .ics to the learner, and the feed by its secret address until it is replaced", async () => {
    const [row] = await handle.db.select().from(liveSessions).limit(1);
    const id = String(row!.id);
    const ics = await call(icsLoader, learner, `/dashboard/sessions/${id}/calendrier.ics`, { params: { id } });
    expect(ics.status).toBe(200);
    expect(ics.body).toContain("BEGIN:VEVENT");
    expect((await call(icsLoader, pending, `/dashboard/sessions/${id}/calendrier.ics`, { params: { id } })).status).toBe(404);

    const { feedUrl } = (await call(learnerLoader, learner, "/dashboard/sessions")).data as { feedUrl: string };
    const feed = feedUrl.split("/").pop()!;
    const served = await call(feedLoader, null, `/calendrier/${feed}`, { params: { feed } });
    expect(served.status).toBe(200);
    expect(served.body).toContain(`UID:live-session-${row!.id}@`);
    await call(learnerAction, learner, "/dashboard/sessions", { form: { intent: "revoke-feed" } });
    expect((await call(feedLoader, null, `/calendrier/${feed}`, { params: { feed } })).status).toBe(404);
  });
});
