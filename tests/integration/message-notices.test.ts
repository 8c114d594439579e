/**
 * Messages nobody misses: the unread count every signed-in layout hands to the sidebar's
 * « Messagerie » badge (the recipient's, not the sender's, zero once read), what the shell asks
 * when its live connection hears of a message, and the delayed notice: a burst still unread after
 * the recipient's delay brings one notification and one e-mail, none if read before, none when the
 * setting is « Jamais », and nothing more on a second run.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, notifications } from "~/.server/db/schema";
import { createJobService } from "~/.server/jobs";
import { listOutbox, type MailEnv } from "~/.server/mail";
import {
  MESSAGE_NOTICE_QUEUE,
  markConversationRead,
  sendMessage,
  sendMessageNotice,
  sendMessageTo,
  type MessageNoticeJob,
} from "~/.server/messaging";
import { NOTIFICATION_EMAIL_QUEUE, sendNotificationEmail, type NotificationEmailJob } from "~/.server/notifications";
import { loader as adminLayoutLoader } from "~/routes/admin/layout";
import { loader as dashboardLayoutLoader } from "~/routes/dashboard/layout";
import { action as profileAction, loader as profileLoader } from "~/routes/dashboard/profile";
import { loader as unreadLoader } from "~/routes/messages/unread";
import { loader as teacherLayoutLoader } from "~/routes/teacher/layout";
import { createCourse, createUser, enrol, type TestUser } from "../factories";
import { createTestAuth, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeCaller } from "../setup/routes";

const MINUTE = 60 * 1000;
const T0 = new Date("2027-02-01T09:00:00Z");
const mailEnv: MailEnv = { LOG_LEVEL: "silent" };

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let admin: TestUser;
let course: { id: number };

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Konaté" });
  admin = await createUser(handle.db, { role: "admin" });
  ({ course } = await createCourse(handle.db, { instructor: teacher, title: "Comptabilité", priceFcfa: 0 }));
});
afterAll(async () => handle?.close());

const call = routeCaller(() => ({ db: handle.db, campus }));

async function newLearner() {
  const learner = await createUser(handle.db, { firstName: "Awa", lastName: "Traoré" });
  await enrol(handle.db, learner, course);
  return learner;
}

const badge = async (loader: (args: never) => unknown, user: TestUser, path: string) =>
  ((await call(loader, user, path)).data as { unreadMessages: number }).unreadMessages;

/** A process's job service running the notice and e-mail queues at the test's clock. */
function jobService(now: () => Date) {
  return createJobService({
    database: handle,
    now,
    queues: [
      { queue: MESSAGE_NOTICE_QUEUE, run: (payload: MessageNoticeJob, { now }) => sendMessageNotice(handle.db, payload, now()) },
      {
        queue: NOTIFICATION_EMAIL_QUEUE,
        run: (payload: NotificationEmailJob, { now }) =>
          sendNotificationEmail(handle.db, { mailEnv, publicUrl: TEST_PUBLIC_URL }, payload, now()),
      },
    ],
  });
}

async function runJobsAt(at: Date) {
  const service = jobService(() => at);
  await service.runDue();
  await service.stop();
}

const noticesOf = (user: TestUser) =>
  handle.db
    .select({ title: notifications.title, body: notifications.body, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.userId, user.id), eq(notifications.kind, "message_received")));

const messageMailsOf = async (user: TestUser) =>
  (await listOutbox(handle.db, user.email)).filter((mail) => mail.subject.startsWith("Nouveau message"));

describe("the « Messagerie » badge", () => {
  it("counts the recipient's unread messages in every signed-in layout, not the sender's, and none once read", async () => {
    const learner = await newLearner();
    const { conversationId } = await sendMessageTo(handle.db, teacher, learner.id, { body: "Bonjour Awa" }, T0);
    await sendMessage(handle.db, teacher, conversationId, { body: "Avez-vous lu le chapitre 2 ?" }, T0);

    expect(await badge(dashboardLayoutLoader, learner, "/dashboard")).toBe(2);
    expect(await badge(teacherLayoutLoader, teacher, "/teacher")).toBe(0);
    // An administrator's shell counts theirs too.
    await sendMessageTo(handle.db, learner, admin.id, { body: "Question sur ma facture" }, T0);
    expect(await badge(adminLayoutLoader, admin, "/admin")).toBe(1);
    expect(await badge(dashboardLayoutLoader, learner, "/dashboard")).toBe(2);

    // What the shell asks on a live event: the count, and the toast's words for that conversation.
    const live = (await call(unreadLoader, learner, `/dashboard/messages/non-lus?conversation=${conversationId}`)).data;
    expect(live).toMatchObject({
      unread: 2,
      alert: {
        conversationId,
        title: "Nouveau message de Seydou Konaté",
        excerpt: "Avez-vous lu le chapitre 2 ?",
        href: `/dashboard/messages/${conversationId}`,
      },
    });
    // No toast about one's own message, nor about a conversation one may not read.
    const outsider = await createUser(handle.db);
    expect((await call(unreadLoader, teacher, `/teacher/messages/non-lus?conversation=${conversationId}`)).data).toEqual({
      unread: 0,
      alert: null,
    });
    expect((await call(unreadLoader, outsider, `/dashboard/messages/non-lus?conversation=${conversationId}`)).data).toEqual({
      unread: 0,
      alert: null,
    });

    await markConversationRead(handle.db, learner, conversationId, T0);
    expect(await badge(dashboardLayoutLoader, learner, "/dashboard")).toBe(0);
    expect((await call(unreadLoader, learner, `/dashboard/messages/non-lus?conversation=${conversationId}`)).data).toEqual({
      unread: 0,
      alert: null,
    });
  });
});

describe("the delayed notice", () => {
  it("sends one notification and one e-mail for a burst still unread after the delay, and nothing more on a second run", async () => {
    const learner = await newLearner();
    const { conversationId } = await sendMessageTo(handle.db, teacher, learner.id, { body: "Premier message" }, T0);
    await sendMessage(handle.db, teacher, conversationId, { body: "Deuxième message" }, new Date(T0.getTime() + MINUTE));
    await sendMessage(handle.db, teacher, conversationId, { body: "Troisième message" }, new Date(T0.getTime() + 2 * MINUTE));
    const queued = (await handle.db.select().from(jobs).where(eq(jobs.queue, MESSAGE_NOTICE_QUEUE))).filter(
      (job) => (job.payload as MessageNoticeJob).userId === learner.id,
    );
    // One job for the burst, due 15 minutes (the default) after its first message.
    expect(queued.map((job) => job.runAt.getTime())).toEqual([T0.getTime() + 15 * MINUTE]);

    await runJobsAt(new Date(T0.getTime() + 14 * MINUTE));
    expect(await noticesOf(learner)).toEqual([]);

    await runJobsAt(new Date(T0.getTime() + 15 * MINUTE));
    expect(await noticesOf(learner)).toEqual([
      {
        title: "Nouveau message de Seydou Konaté",
        body: "3 messages non lus. Le dernier\u00a0: Troisième message",
        link: `/dashboard/messages/${conversationId}`,
      },
    ]);
    expect(await messageMailsOf(learner)).toHaveLength(1);

    // A second run, and the job replayed: nothing more.
    await runJobsAt(new Date(T0.getTime() + 60 * MINUTE));
    expect(await sendMessageNotice(handle.db, queued[0]!.payload as MessageNoticeJob, new Date(T0.getTime() + 61 * MINUTE))).toBe(
      "skipped",
    );
    expect(await noticesOf(learner)).toHaveLength(1);
    expect(await messageMailsOf(learner)).toHaveLength(1);
  });

  it("sends nothing when the conversation was read before the delay; a later burst has its own notice", async () => {
    const learner = await newLearner();
    const { conversationId } = await sendMessageTo(handle.db, teacher, learner.id, { body: "Lu à temps" }, T0);
    await markConversationRead(handle.db, learner, conversationId, new Date(T0.getTime() + 5 * MINUTE));
    await runJobsAt(new Date(T0.getTime() + 20 * MINUTE));
    expect(await noticesOf(learner)).toEqual([]);
    expect(await messageMailsOf(learner)).toEqual([]);

    const later = new Date(T0.getTime() + 30 * MINUTE);
    await sendMessage(handle.db, teacher, conversationId, { body: "Et celui-ci ?" }, later);
    await runJobsAt(new Date(later.getTime() + 15 * MINUTE));
    expect((await noticesOf(learner)).map((row) => row.body)).toEqual(["Et celui-ci ?"]);
  });

  it("follows the delay chosen in the notification settings, and sends nothing with « Jamais »", async () => {
    const learner = await newLearner();
    const settings = async () =>
      (await call(profileLoader, learner, "/dashboard/profile?onglet=notifications")).data as { messageDelay: string };
    expect((await settings()).messageDelay).toBe("15min");

    const refused = await call(profileAction, learner, "/dashboard/profile", { form: { intent: "notifications", messageDelay: "2min" } });
    expect(refused).toMatchObject({ status: 400, data: { ok: false, fieldErrors: { messageDelay: "Choisissez un délai de la liste." } } });
    expect((await settings()).messageDelay).toBe("15min");

    expect(
      (
        await call(profileAction, learner, "/dashboard/profile", {
          form: { intent: "notifications", messageDelay: "1h", message_received: "on" },
        })
      ).status,
    ).toBe(302);
    expect((await settings()).messageDelay).toBe("1h");
    const { conversationId } = await sendMessageTo(handle.db, teacher, learner.id, { body: "Dans une heure" }, T0);
    await runJobsAt(new Date(T0.getTime() + 30 * MINUTE));
    expect(await noticesOf(learner)).toEqual([]);
    await runJobsAt(new Date(T0.getTime() + 60 * MINUTE));
    expect(await noticesOf(learner)).toHaveLength(1);
    await markConversationRead(handle.db, learner, conversationId, new Date(T0.getTime() + 61 * MINUTE));

    await call(profileAction, learner, "/dashboard/profile", {
      form: { intent: "notifications", messageDelay: "jamais", message_received: "on" },
    });
    expect((await settings()).messageDelay).toBe("jamais");
    const later = new Date(T0.getTime() + 2 * 60 * MINUTE);
    await sendMessage(handle.db, teacher, conversationId, { body: "Jamais notifié" }, later);
    await sendMessage(handle.db, teacher, conversationId, { body: "Jamais notifié non plus" }, later);
    await runJobsAt(new Date(later.getTime() + 2 * 24 * 60 * MINUTE));
    expect(await noticesOf(learner)).toHaveLength(1);
    expect(await messageMailsOf(learner)).toHaveLength(1);
  });

  it("leads a teacher's notice to the teachers' messaging", async () => {
    const learner = await newLearner();
    await sendMessageTo(handle.db, learner, teacher.id, { body: "Bonjour professeur" }, T0);
    await runJobsAt(new Date(T0.getTime() + 15 * MINUTE));
    const [notice] = await noticesOf(teacher);
    expect(notice?.link).toMatch(/^\/teacher\/messages\/\d+$/);
  });
});
