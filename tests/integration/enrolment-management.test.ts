/**
 * The administrators' enrolment management, through its route module: enrol a learner by hand
 * (once, whatever is clicked twice), pause (the lessons close), resume, cancel (the seat is freed),
 * every action in the audit log, bad input beside its field, and nobody but an administrator.
 */
import { and, eq, like } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { auditLog, courseLearnerCounts, enrolments, jobs, notifications } from "~/.server/db/schema";
import { followsCourse } from "~/.server/learning";
import { listOutbox } from "~/.server/mail";
import { NOTIFICATION_EMAIL_QUEUE, sendNotificationEmail } from "~/.server/notifications";
import { action, loader } from "~/routes/admin/enrolments";
import { createCourse, createSignedInUser, createUser, enrol, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
const cookies: Record<"admin" | "learner" | "teacher", string> = {} as never;
let learner: TestUser;
let courseId = 0;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  for (const role of ["admin", "learner", "teacher"] as const) {
    cookies[role] = (await createSignedInUser(campus, handle.db, { role: role === "learner" ? "user" : role })).cookie;
  }
  const teacher = await createUser(handle.db, { role: "teacher" });
  courseId = (await createCourse(handle.db, { instructor: teacher, title: "Énergie solaire", priceFcfa: 75_000 })).course.id;
  learner = await createUser(handle.db, { firstName: "Boubacar", lastName: "Sidibé" });
}, 180_000);
afterAll(async () => handle?.close());

function args(path: string, options: { cookie?: string; form?: Record<string, string> } = {}) {
  const headers = new Headers(options.cookie ? { cookie: options.cookie } : {});
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: body ? "POST" : "GET", headers, body });
  const context: RouterContextProvider = routerContext(handle.db, campus);
  return { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
}

const path = () => `/admin/inscriptions?cours=${courseId}`;
const postAs = (cookie: string | undefined, form: Record<string, string>) =>
  routeOutcome(() => asServer(action, args(path(), { cookie, form })));
const post = (form: Record<string, string>) => postAs(cookies.admin, form);
const rows = () =>
  handle.db
    .select()
    .from(enrolments)
    .where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, courseId)));
const learners = async () =>
  (await handle.db.select().from(courseLearnerCounts).where(eq(courseLearnerCounts.courseId, courseId)))[0]?.learners ?? 0;

describe("enrolment management", () => {
  it("enrols a learner by hand once, however often the form is sent, with its reason in the audit log", async () => {
    const form = { intent: "enrol", email: learner.email, kind: "scholarship", reason: "Bourse de la Chambre de commerce" };
    const [first, second] = await Promise.all([post(form), post(form)]);
    expect(first).toMatchObject({ status: 303, location: path() });
    expect(second).toMatchObject({ status: 303, location: path() });
    expect(await rows()).toEqual([expect.objectContaining({ status: "active" })]);
    expect(await learners()).toBe(1);
    expect(await followsCourse(handle.db, learner, courseId)).toBe(true);
    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.action, "enrolment_granted"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      targetUserId: learner.id,
      details: { courseId, kind: "scholarship", reason: "Bourse de la Chambre de commerce" },
    });

    const page = await routeOutcome(() => asServer(loader, args(path(), { cookie: cookies.admin })));
    expect((page.data as { enrolments: Array<{ email: string; status: string }> }).enrolments).toEqual([
      expect.objectContaining({ email: learner.email, status: "active" }),
    ]);
  });

  it("refuses bad input beside its field", async () => {
    const unknown = await post({ intent: "enrol", email: "personne@exemple.ml", kind: "free_place", reason: "Essai" });
    expect(unknown).toMatchObject({
      status: 400,
      data: { intent: "enrol", fieldErrors: { email: "Aucun compte n'a cette adresse e-mail." } },
    });
    const noReason = await post({ intent: "enrol", email: learner.email, kind: "gift", reason: " " });
    expect(noReason.status).toBe(400);
    expect((noReason.data as { fieldErrors: Record<string, string> }).fieldErrors).toMatchObject({
      kind: "Choisissez place gratuite ou bourse.",
      reason: "Le motif est obligatoire.",
    });
  });

  it("pauses (the lessons close), resumes and cancels (the seat is freed), each in the audit log", async () => {
    const [row] = await rows();
    const id = String(row!.id);
    expect(await post({ intent: "pause", enrolmentId: id })).toMatchObject({ status: 303 });
    expect(await followsCourse(handle.db, learner, courseId)).toBe(false);
    expect((await post({ intent: "pause", enrolmentId: id })).status).toBe(409);
    expect(await post({ intent: "resume", enrolmentId: id })).toMatchObject({ status: 303 });
    expect(await followsCourse(handle.db, learner, courseId)).toBe(true);
    expect(await post({ intent: "cancel", enrolmentId: id })).toMatchObject({ status: 303 });
    expect((await rows())[0]!.status).toBe("cancelled");
    expect(await learners()).toBe(0);
    expect((await post({ intent: "cancel", enrolmentId: id })).status).toBe(409);
    const actions = (await handle.db.select().from(auditLog).where(like(auditLog.action, "enrolment_%"))).map((entry) => entry.action);
    expect(actions).toEqual(["enrolment_granted", "enrolment_paused", "enrolment_resumed", "enrolment_cancelled"]);

    // Enrolled by hand again after a cancellation: the same row reopens.
    await post({ intent: "enrol", email: learner.email, kind: "free_place", reason: "Réintégré" });
    expect(await rows()).toEqual([expect.objectContaining({ id: row!.id, status: "active" })]);
    expect(await learners()).toBe(1);
  });

  it("tells the learner of each change by hand (notification and e-mail), and no other learner", async () => {
    const { course } = await createCourse(handle.db, { title: "Agroécologie", priceFcfa: 50_000 });
    const told = await createUser(handle.db, { firstName: "Fanta", lastName: "Camara" });
    const other = await createUser(handle.db, { firstName: "Adama", lastName: "Cissé" });
    const at = `/admin/inscriptions?cours=${course.id}`;
    const send = (form: Record<string, string>) => routeOutcome(() => asServer(action, args(at, { cookie: cookies.admin, form })));
    await send({ intent: "enrol", email: other.email, kind: "free_place", reason: "Place offerte" });
    const otherBefore = await handle.db.$count(notifications, eq(notifications.userId, other.id));

    await send({ intent: "enrol", email: told.email, kind: "scholarship", reason: "Bourse" });
    const [row] = await handle.db
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, told.id), eq(enrolments.courseId, course.id)));
    for (const intent of ["pause", "resume", "cancel"]) await send({ intent, enrolmentId: String(row!.id) });
    // A refused change (already cancelled) tells nothing.
    expect((await send({ intent: "cancel", enrolmentId: String(row!.id) })).status).toBe(409);

    const mine = await handle.db.select().from(notifications).where(eq(notifications.userId, told.id)).orderBy(notifications.id);
    expect(mine.map((notification) => [notification.kind, notification.title, notification.link])).toEqual([
      ["enrolment_changed", "Inscription ouverte", "/dashboard/formations"],
      ["enrolment_changed", "Inscription suspendue", "/dashboard/formations"],
      ["enrolment_changed", "Inscription reprise", "/dashboard/formations"],
      ["enrolment_changed", "Inscription annulée", "/dashboard/formations"],
    ]);
    expect(mine.every((notification) => notification.body.includes("« Agroécologie »"))).toBe(true);
    expect(await handle.db.$count(notifications, eq(notifications.userId, other.id))).toBe(otherBefore);

    // Each goes by e-mail too, through the outbox.
    const queued = (await handle.db.select().from(jobs).where(eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE))).map(
      (job) => (job.payload as { notificationId: number }).notificationId,
    );
    expect(mine.every((notification) => queued.includes(notification.id))).toBe(true);
    const services = { mailEnv: { LOG_LEVEL: "silent" }, publicUrl: TEST_PUBLIC_URL };
    for (const notification of mine) await sendNotificationEmail(handle.db, services, { notificationId: notification.id });
    const mails = await listOutbox(handle.db, told.email, 10);
    expect(mails.map((mail) => mail.subject.split(" – ")[0]).sort()).toEqual(
      ["Inscription annulée", "Inscription ouverte", "Inscription reprise", "Inscription suspendue"].sort(),
    );
    expect(await listOutbox(handle.db, other.email, 10)).toHaveLength(0);
  });

  it("shows a course's enrolments by pages of 50, newest first, with the whole count", async () => {
    const { course } = await createCourse(handle.db, { title: "Comptabilité", priceFcfa: 0 });
    const people: TestUser[] = [];
    for (let index = 0; index < 51; index += 1) {
      const person = await createUser(handle.db);
      await enrol(handle.db, person, course);
      people.push(person);
    }
    type Page = { total: number; page: number; pageCount: number; enrolments: Array<{ email: string }> };
    const pageOf = async (query: string) =>
      (await routeOutcome(() => asServer(loader, args(`/admin/inscriptions?cours=${course.id}${query}`, { cookie: cookies.admin }))))
        .data as Page;
    const first = await pageOf("");
    expect(first).toMatchObject({ total: 51, page: 1, pageCount: 2 });
    expect(first.enrolments).toHaveLength(50);
    const second = await pageOf("&page=2");
    expect(second).toMatchObject({ page: 2, enrolments: [{ email: people[0]!.email }] });
    expect(new Set([...first.enrolments, ...second.enrolments].map((row) => row.email)).size).toBe(51);
    // Past the last page (a link kept after cancellations...): the last one.
    expect(await pageOf("&page=9")).toMatchObject({ page: 2, enrolments: [{ email: people[0]!.email }] });
    expect(await pageOf("&page=abc")).toMatchObject({ page: 1 });

    // A change made on page 2 comes back to page 2, as the form was sent from there.
    const [onSecondPage] = await handle.db
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, people[0]!.id), eq(enrolments.courseId, course.id)));
    const paused = await routeOutcome(() =>
      asServer(
        action,
        args(`/admin/inscriptions?cours=${course.id}&page=2`, {
          cookie: cookies.admin,
          form: { intent: "pause", enrolmentId: String(onSecondPage!.id) },
        }),
      ),
    );
    expect(paused.status).toBe(303);
    expect(paused.location).toBe(`/admin/inscriptions?cours=${course.id}&page=2`);
  });

  it("lets no one but an administrator see or change enrolments", async () => {
    const [row] = await rows();
    for (const cookie of [cookies.learner, cookies.teacher, undefined]) {
      expect((await routeOutcome(() => asServer(loader, args(path(), { cookie })))).status).toBe(302);
      expect((await postAs(cookie, { intent: "cancel", enrolmentId: String(row!.id) })).status).toBe(302);
      expect((await postAs(cookie, { intent: "enrol", email: learner.email, kind: "free_place", reason: "x" })).status).toBe(302);
    }
    expect((await rows())[0]!.status).toBe("active");
  });
});
