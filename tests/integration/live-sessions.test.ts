/**
 * Live sessions through the capability: who gets a join link, the join window, BigBlueButton's
 * signed calls (against the local fake), reminders sent once by two job services and never after a
 * cancellation, and the calendars (per session, the private feed and its revocation).
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, liveSessionAttendance, notifications } from "~/.server/db/schema";
import { createJobService } from "~/.server/jobs";
import {
  calendarFeedIcs,
  cancelSession,
  createBigBlueButton,
  getCalendarFeedToken,
  getManagedSession,
  joinSession,
  listLearnerSessions,
  listManagedSessions,
  remindsAtOnce,
  revokeCalendarFeed,
  scheduleSession,
  sendSessionReminder,
  SESSION_REMINDER_QUEUE,
  sessionIcs,
  setSessionRegistration,
  updateSession,
  type LiveRooms,
  type SessionReminderJob,
} from "~/.server/live-sessions";
import { listOutbox, type MailEnv } from "~/.server/mail";
import { NOTIFICATION_EMAIL_QUEUE, sendNotificationEmail, type NotificationEmailJob } from "~/.server/notifications";
import { toDateTimeLocal } from "~/lib/dates";
import { startFakeBigBlueButton, type FakeBigBlueButton } from "../fakes/bigbluebutton";
import { createCourse, createUser, enrol, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

const PUBLIC_URL = "http://campus.test";
const HOUR = 60 * 60 * 1000;
const T0 = new Date("2026-12-01T09:00:00Z");

let handle: DatabaseHandle;
let bbb: FakeBigBlueButton;
let teacher: TestUser;
let otherTeacher: TestUser;
let admin: TestUser;
let learner: TestUser;
let pending: TestUser;
let outsider: TestUser;
let course: { id: number; title: string };
let otherCourse: { id: number };
const linkRooms: LiveRooms = { bigBlueButton: null, publicUrl: PUBLIC_URL };
let bbbRooms: LiveRooms;

beforeAll(async () => {
  handle = await createTestDatabase();
  bbb = await startFakeBigBlueButton();
  bbbRooms = { bigBlueButton: createBigBlueButton({ url: bbb.url, secret: bbb.secret }), publicUrl: PUBLIC_URL };
  const db = handle.db;
  teacher = await createUser(db, { role: "teacher", firstName: "Seydou" });
  otherTeacher = await createUser(db, { role: "teacher" });
  admin = await createUser(db, { role: "admin" });
  learner = await createUser(db, { firstName: "Aïssata", lastName: "Keïta" });
  pending = await createUser(db);
  outsider = await createUser(db);
  ({ course } = await createCourse(db, { instructor: teacher, priceFcfa: 10_000 }));
  ({ course: otherCourse } = await createCourse(db, { instructor: otherTeacher, priceFcfa: 0 }));
  await enrol(db, learner, course, { paid: true });
  await enrol(db, pending, course);
  await enrol(db, outsider, otherCourse);
});
afterAll(async () => {
  await bbb?.close();
  await handle?.close();
});

const form = (overrides: Record<string, string | undefined> = {}) => ({
  courseId: String(course.id),
  title: "Questions-réponses",
  description: "Préparez vos questions.",
  startsAt: toDateTimeLocal(new Date(T0.getTime() + 48 * HOUR)),
  durationMinutes: "60",
  room: "link",
  joinUrl: "https://meet.example.org/abc-defg-hij",
  ...overrides,
});

async function reminderJobs(sessionId: number) {
  const rows = await handle.db.select().from(jobs).where(eq(jobs.queue, SESSION_REMINDER_QUEUE));
  return rows.filter((row) => (row.payload as SessionReminderJob).sessionId === sessionId);
}

describe("scheduling", () => {
  it("schedules for the teacher's own course, tells its learners, and queues the 24 h and 1 h reminders", async () => {
    const session = await scheduleSession(handle.db, teacher, form(), linkRooms, T0);
    expect(session).toMatchObject({ provider: "link", status: "scheduled", durationMinutes: 60 });
    expect(session.startsAt).toEqual(new Date(T0.getTime() + 48 * HOUR));
    const queued = await reminderJobs(session.id);
    expect(queued.map((job) => job.runAt.getTime()).sort()).toEqual([T0.getTime() + 24 * HOUR, T0.getTime() + 47 * HOUR]);
    const told = await handle.db.select().from(notifications).where(eq(notifications.kind, "session_scheduled"));
    // The active learner, not the one whose payment is pending, nor another course's.
    expect(told.map((row) => row.userId)).toEqual([learner.id]);
  });

  it("refuses another teacher's course, a past date, a missing link, and BigBlueButton when it is not configured", async () => {
    await expect(scheduleSession(handle.db, otherTeacher, form(), linkRooms, T0)).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { courseId: expect.any(String) },
    });
    await expect(scheduleSession(handle.db, teacher, form({ startsAt: "2026-11-30T10:00" }), linkRooms, T0)).rejects.toMatchObject({
      fieldErrors: { startsAt: "Choisissez une date à venir." },
    });
    await expect(scheduleSession(handle.db, teacher, form({ joinUrl: "" }), linkRooms, T0)).rejects.toMatchObject({
      fieldErrors: { joinUrl: expect.any(String) },
    });
    await expect(scheduleSession(handle.db, teacher, form({ joinUrl: "javascript:alert(1)" }), linkRooms, T0)).rejects.toMatchObject({
      fieldErrors: { joinUrl: expect.any(String) },
    });
    await expect(scheduleSession(handle.db, teacher, form({ room: "bigbluebutton" }), linkRooms, T0)).rejects.toMatchObject({
      fieldErrors: { room: expect.any(String) },
    });
    await expect(scheduleSession(handle.db, teacher, form({ durationMinutes: "7" }), linkRooms, T0)).rejects.toMatchObject({
      fieldErrors: { durationMinutes: expect.any(String) },
    });
  });

  it("an empty course choice asks for a course, not for a valid id", async () => {
    for (const courseId of ["", undefined]) {
      await expect(scheduleSession(handle.db, teacher, form({ courseId }), linkRooms, T0)).rejects.toMatchObject({
        code: "invalid",
        fieldErrors: { courseId: "Choisissez un cours." },
      });
    }
  });

  it("lets an admin schedule for any course; another teacher does not see the session", async () => {
    const session = await scheduleSession(handle.db, admin, form({ title: "Par l'admin" }), linkRooms, T0);
    expect((await listManagedSessions(handle.db, teacher, T0)).upcoming.map((row) => row.id)).toContain(session.id);
    expect((await listManagedSessions(handle.db, otherTeacher, T0)).upcoming.map((row) => row.id)).not.toContain(session.id);
    await expect(getManagedSession(handle.db, otherTeacher, session.id, T0)).rejects.toMatchObject({ code: "not_found" });
    await expect(cancelSession(handle.db, otherTeacher, session.id, T0)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("joining", () => {
  it("gives a link only to the course's teacher, admins and active learners, inside the window, and records attendance", async () => {
    const start = new Date(T0.getTime() + 3 * HOUR);
    const session = await scheduleSession(handle.db, teacher, form({ startsAt: toDateTimeLocal(start) }), linkRooms, T0);
    const early = new Date(start.getTime() - 11 * 60_000);
    const open = new Date(start.getTime() - 10 * 60_000);
    const end = new Date(start.getTime() + 60 * 60_000);
    await expect(joinSession(handle.db, learner, session.id, linkRooms, early)).rejects.toMatchObject({ code: "conflict" });
    await expect(joinSession(handle.db, learner, session.id, linkRooms, open)).resolves.toBe("https://meet.example.org/abc-defg-hij");
    await expect(joinSession(handle.db, learner, session.id, linkRooms, end)).rejects.toMatchObject({ code: "conflict" });
    await expect(joinSession(handle.db, teacher, session.id, linkRooms, open)).resolves.toBeTruthy();
    await expect(joinSession(handle.db, admin, session.id, linkRooms, open)).resolves.toBeTruthy();
    // A pending payment, another course's learner: the session does not exist for them.
    await expect(joinSession(handle.db, pending, session.id, linkRooms, open)).rejects.toMatchObject({ code: "not_found" });
    await expect(joinSession(handle.db, outsider, session.id, linkRooms, open)).rejects.toMatchObject({ code: "not_found" });
    await expect(joinSession(handle.db, otherTeacher, session.id, linkRooms, open)).rejects.toMatchObject({ code: "not_found" });
    // The learner joins again: one attendee, two joins; the teacher is not counted.
    await joinSession(handle.db, learner, session.id, linkRooms, new Date(start.getTime() + 5 * 60_000));
    const detail = await getManagedSession(handle.db, teacher, session.id, end);
    expect(detail.attended).toEqual([expect.objectContaining({ userId: learner.id, joins: 2, firstJoinedAt: open })]);
    expect(await listLearnerSessions(handle.db, pending, T0)).toEqual([]);
    expect(await listLearnerSessions(handle.db, outsider, T0)).toEqual([]);
  });

  it("creates BigBlueButton meetings with signed calls: moderator for the teacher, viewer for a learner", async () => {
    const start = new Date(T0.getTime() + 5 * HOUR);
    const session = await scheduleSession(
      handle.db,
      teacher,
      form({ startsAt: toDateTimeLocal(start), room: "bigbluebutton", joinUrl: "" }),
      bbbRooms,
      T0,
    );
    expect(session).toMatchObject({ provider: "bigbluebutton", joinUrl: null });
    const now = new Date(start.getTime() - 5 * 60_000);
    const teacherUrl = await joinSession(handle.db, teacher, session.id, bbbRooms, now);
    const learnerUrl = await joinSession(handle.db, learner, session.id, bbbRooms, now);
    expect(bbb.meetings.get(session.meetingId!)).toMatchObject({ name: "Questions-réponses", record: "true" });
    // The browser opens the signed join addresses: the fake checks their checksum.
    for (const url of [teacherUrl, learnerUrl]) expect((await fetch(url)).status).toBe(200);
    expect(bbb.refused).toEqual([]);
    expect(bbb.joins).toEqual([
      expect.objectContaining({ meetingID: session.meetingId, userID: teacher.id, role: "MODERATOR" }),
      expect.objectContaining({ meetingID: session.meetingId, userID: learner.id, role: "VIEWER", fullName: "Aïssata Keïta" }),
    ]);
    // A forged address (a viewer making themself moderator) fails the checksum.
    const forged = learnerUrl.replace("role=VIEWER", "role=MODERATOR");
    expect(await (await fetch(forged)).text()).toContain("checksumError");
    expect(bbb.refused).toEqual(["join"]);
  });

  it("reports a wrong secret as unavailable, not as a crash", async () => {
    const start = new Date(T0.getTime() + 6 * HOUR);
    const session = await scheduleSession(
      handle.db,
      teacher,
      form({ startsAt: toDateTimeLocal(start), room: "bigbluebutton" }),
      bbbRooms,
      T0,
    );
    const wrong: LiveRooms = { bigBlueButton: createBigBlueButton({ url: bbb.url, secret: "not-the-secret" }), publicUrl: PUBLIC_URL };
    await expect(joinSession(handle.db, learner, session.id, wrong, start)).rejects.toMatchObject({ code: "unavailable" });
    const attended = await handle.db
      .select()
      .from(liveSessionAttendance)
      .where(and(eq(liveSessionAttendance.sessionId, session.id), eq(liveSessionAttendance.userId, learner.id)));
    expect(attended).toEqual([]);
  });
});

describe("reminders", () => {
  const mailEnv: MailEnv = { LOG_LEVEL: "silent" };

  function jobService(now: () => Date) {
    return createJobService({
      database: handle,
      now,
      queues: [
        { queue: SESSION_REMINDER_QUEUE, run: (payload: SessionReminderJob, { now }) => sendSessionReminder(handle.db, payload, now()) },
        {
          queue: NOTIFICATION_EMAIL_QUEUE,
          run: (payload: NotificationEmailJob, { now }) =>
            sendNotificationEmail(handle.db, { mailEnv, publicUrl: PUBLIC_URL }, payload, now()),
        },
      ],
    });
  }

  it("sends each reminder once with two processes, only to registered learners, and never after a cancellation or a move", async () => {
    const start = new Date(T0.getTime() + 30 * HOUR);
    const kept = await scheduleSession(
      handle.db,
      teacher,
      form({ title: "Séance gardée", startsAt: toDateTimeLocal(start) }),
      linkRooms,
      T0,
    );
    const cancelled = await scheduleSession(
      handle.db,
      teacher,
      form({ title: "Séance annulée", startsAt: toDateTimeLocal(start) }),
      linkRooms,
      T0,
    );
    const moved = await scheduleSession(
      handle.db,
      teacher,
      form({ title: "Séance déplacée", startsAt: toDateTimeLocal(start) }),
      linkRooms,
      T0,
    );
    for (const session of [kept, cancelled, moved]) await setSessionRegistration(handle.db, learner, session.id, true, T0);
    await expect(setSessionRegistration(handle.db, pending, kept.id, true, T0)).rejects.toMatchObject({ code: "not_found" });
    await cancelSession(handle.db, teacher, cancelled.id, T0);
    const later = new Date(start.getTime() + 24 * HOUR);
    await updateSession(handle.db, teacher, moved.id, form({ title: "Séance déplacée", startsAt: toDateTimeLocal(later) }), linkRooms, T0);

    // At the 24 h mark, two processes run their queues at the same moment.
    let clock = new Date(start.getTime() - 24 * HOUR);
    const first = jobService(() => clock);
    const second = jobService(() => clock);
    await Promise.all([first.runDue(), second.runDue()]);
    clock = new Date(start.getTime() - HOUR);
    await Promise.all([first.runDue(), second.runDue()]);

    const reminders = await handle.db
      .select()
      .from(notifications)
      .where(eq(notifications.kind, "session_starting"))
      .orderBy(asc(notifications.id));
    expect(reminders.map((row) => [row.userId, row.title, row.body.includes("Séance gardée")])).toEqual([
      [learner.id, "Session en direct demain", true],
      [learner.id, "Session en direct dans une heure", true],
    ]);
    const mails = (await listOutbox(handle.db, learner.email)).filter((mail) =>
      /^Session en direct (demain|dans une heure) –/.test(mail.subject),
    );
    expect(mails.map((mail) => mail.subject.split(" – ")[0]).sort()).toEqual([
      "Session en direct dans une heure",
      "Session en direct demain",
    ]);
    // The moved session's reminders follow its new time.
    clock = new Date(later.getTime() - HOUR);
    await first.runDue();
    const movedReminders = await handle.db
      .select()
      .from(notifications)
      .where(eq(notifications.kind, "session_starting"))
      .orderBy(asc(notifications.id));
    expect(movedReminders.filter((row) => row.body.includes("Séance déplacée")).map((row) => row.title)).toEqual([
      "Session en direct demain",
      "Session en direct dans une heure",
    ]);
    await Promise.all([first.stop(), second.stop()]);
  });

  it("sends nothing to a learner who did not register, and a replayed job adds nothing", async () => {
    const start = new Date(T0.getTime() + 40 * HOUR);
    const session = await scheduleSession(
      handle.db,
      teacher,
      form({ title: "Sans inscrit", startsAt: toDateTimeLocal(start) }),
      linkRooms,
      T0,
    );
    const job = { sessionId: session.id, startsAt: start.toISOString(), offset: "1h" as const };
    expect(await sendSessionReminder(handle.db, job, new Date(start.getTime() - HOUR))).toBe(0);
    await setSessionRegistration(handle.db, learner, session.id, true, T0);
    expect(await sendSessionReminder(handle.db, job, new Date(start.getTime() - HOUR))).toBe(1);
    expect(await sendSessionReminder(handle.db, job, new Date(start.getTime() - HOUR))).toBe(0);
  });

  it("sends the 1 h reminder at once for a session moved less than an hour ahead, and on registering within the hour, once", async () => {
    const session = await scheduleSession(handle.db, teacher, form({ title: "Au pied levé" }), linkRooms, T0);
    await setSessionRegistration(handle.db, learner, session.id, true, T0);
    // Moved to 40 minutes from now: the 1 h mark is past, so its reminder is due now (and the 24 h one is not queued).
    const now = new Date(T0.getTime() + HOUR);
    const soon = new Date(now.getTime() + 40 * 60 * 1000);
    expect(remindsAtOnce({ startsAt: soon }, now)).toBe(true);
    expect(remindsAtOnce({ startsAt: new Date(now.getTime() + 2 * HOUR) }, now)).toBe(false);
    await updateSession(handle.db, teacher, session.id, form({ title: "Au pied levé", startsAt: toDateTimeLocal(soon) }), linkRooms, now);
    const queued = (await reminderJobs(session.id)).filter((job) => (job.payload as SessionReminderJob).startsAt === soon.toISOString());
    expect(queued.map((job) => [(job.payload as SessionReminderJob).offset, job.runAt.getTime()])).toEqual([["1h", now.getTime()]]);

    const services = [jobService(() => now), jobService(() => now)];
    await Promise.all(services.map((service) => service.runDue()));
    const reminded = async (userId: string) =>
      (
        await handle.db
          .select()
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.kind, "session_starting")))
      ).filter((row) => row.body.includes("Au pied levé"));
    expect((await reminded(learner.id)).map((row) => row.title)).toEqual(["Session en direct dans une heure"]);

    // A learner registering within the hour gets it on registering; registering again adds nothing.
    const late = await createUser(handle.db);
    await enrol(handle.db, late, course, { paid: true });
    await setSessionRegistration(handle.db, late, session.id, true, new Date(now.getTime() + 10 * 60 * 1000));
    await setSessionRegistration(handle.db, late, session.id, true, new Date(now.getTime() + 11 * 60 * 1000));
    expect((await reminded(late.id)).map((row) => row.title)).toEqual(["Session en direct dans une heure"]);
    // The queue run again (a replay) and a second update at the same time send nothing more.
    await updateSession(handle.db, teacher, session.id, form({ title: "Au pied levé", startsAt: toDateTimeLocal(soon) }), linkRooms, now);
    await Promise.all(services.map((service) => service.runDue()));
    expect(await reminded(learner.id)).toHaveLength(1);
    expect(await reminded(late.id)).toHaveLength(1);
    await Promise.all(services.map((service) => service.stop()));
  });
});

describe("calendars", () => {
  it("gives one session's .ics to those who may see it", async () => {
    const session = await scheduleSession(handle.db, teacher, form({ title: "Atelier, pratique; suite" }), linkRooms, T0);
    const ics = await sessionIcs(handle.db, learner, session.id, PUBLIC_URL, T0);
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain("SUMMARY:Atelier\\, pratique\\; suite\r\n");
    expect(ics).toContain(`DTSTART:${session.startsAt.toISOString().replace(/[-:]/g, "").replace(".000", "")}`);
    expect(ics.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    await expect(sessionIcs(handle.db, outsider, session.id, PUBLIC_URL, T0)).rejects.toMatchObject({ code: "not_found" });
  });

  it("lists only the owner's sessions in the feed, and stops answering once revoked", async () => {
    const mine = await scheduleSession(handle.db, teacher, form({ title: "Pour mon cours" }), linkRooms, T0);
    const theirs = await scheduleSession(
      handle.db,
      otherTeacher,
      form({ courseId: String(otherCourse.id), title: "Autre cours" }),
      linkRooms,
      T0,
    );
    // Two first views at once (two tabs) get the one token.
    const [token, sameTime] = await Promise.all([
      getCalendarFeedToken(handle.db, learner, T0),
      getCalendarFeedToken(handle.db, learner, T0),
    ]);
    expect(sameTime).toBe(token);
    expect(await getCalendarFeedToken(handle.db, learner, T0)).toBe(token);
    const feed = (await calendarFeedIcs(handle.db, token, PUBLIC_URL, T0))!;
    expect(feed).toContain(`UID:live-session-${mine.id}@campus.test`);
    expect(feed).not.toContain(`UID:live-session-${theirs.id}@`);
    const outsiderFeed = (await calendarFeedIcs(handle.db, await getCalendarFeedToken(handle.db, outsider, T0), PUBLIC_URL, T0))!;
    expect(outsiderFeed).toContain(`UID:live-session-${theirs.id}@`);
    expect(outsiderFeed).not.toContain(`UID:live-session-${mine.id}@`);

    const renewed = await revokeCalendarFeed(handle.db, learner, T0);
    expect(renewed).not.toBe(token);
    expect(await calendarFeedIcs(handle.db, token, PUBLIC_URL, T0)).toBeNull();
    expect(await calendarFeedIcs(handle.db, renewed, PUBLIC_URL, T0)).toContain("BEGIN:VCALENDAR");
    expect(await calendarFeedIcs(handle.db, "x".repeat(32), PUBLIC_URL, T0)).toBeNull();
  });

  it("keeps a cancelled session in the feed as cancelled, so calendars remove it", async () => {
    const session = await scheduleSession(handle.db, teacher, form({ title: "Bientôt annulée" }), linkRooms, T0);
    await cancelSession(handle.db, teacher, session.id, T0);
    const feed = (await calendarFeedIcs(handle.db, await getCalendarFeedToken(handle.db, learner, T0), PUBLIC_URL, T0))!;
    const event = feed.split("BEGIN:VEVENT").find((block) => block.includes(`live-session-${session.id}@`))!;
    expect(event).toContain("STATUS:CANCELLED");
  });
});
