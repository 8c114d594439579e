import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, notifications } from "~/.server/db/schema";
import { isAppError } from "~/.server/errors";
import { listOutbox } from "~/.server/mail";
import {
  countUnreadNotifications,
  getEmailPreferences,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATION_EMAIL_QUEUE,
  notifyUser,
  pruneNotifications,
  sendNotificationEmail,
  setEmailPreferences,
} from "~/.server/notifications";
import { REALTIME_CHANNEL, parsePublished } from "~/.server/realtime/publish";
import { action as notificationsAction, loader as notificationsLoader } from "~/routes/dashboard/notifications";
import { createNotification, createUser, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
const published: string[] = [];
let stopListening: () => Promise<void>;
const mailServices = { mailEnv: { LOG_LEVEL: "silent" }, publicUrl: "http://campus.test" };

beforeAll(async () => {
  handle = await createTestDatabase();
  stopListening = await handle.listen(REALTIME_CHANNEL, (payload) => published.push(payload));
});
afterAll(async () => {
  await stopListening?.();
  await handle?.close();
});

const emailJobsOf = async (notificationId: number) =>
  (await handle.db.select().from(jobs).where(eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE))).filter(
    (job) => (job.payload as { notificationId: number }).notificationId === notificationId,
  );

describe("notifying someone", () => {
  it("writes nothing, publishes nothing and mails nothing when the cause's transaction rolls back", async () => {
    const learner = await createUser(handle.db);
    published.length = 0;
    await handle.db
      .transaction(async (tx) => {
        await notifyUser(tx, {
          userId: learner.id,
          kind: "payment_refunded",
          title: "Remboursement",
          body: "Votre paiement a été remboursé.",
        });
        throw new Error("the refund failed");
      })
      .catch(() => {});
    // A committed notification afterwards shows the channel works: only it arrives.
    const { id } = await createNotification(handle.db, learner);
    await vi.waitFor(() => expect(published).toHaveLength(1));
    expect(parsePublished(published[0]!)).toEqual({ topic: `user:${learner.id}`, event: { type: "notification", id } });
    expect(await handle.db.select().from(notifications).where(eq(notifications.userId, learner.id))).toHaveLength(1);
    expect((await handle.db.select().from(jobs).where(eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE))).length).toBe(0);
  });

  it("publishes to the addressee's topic only once the transaction commits", async () => {
    const learner = await createUser(handle.db);
    published.length = 0;
    let seenInside = -1;
    await handle.db.transaction(async (tx) => {
      await createNotification(tx, learner);
      await new Promise((resolve) => setTimeout(resolve, 50));
      seenInside = published.length;
    });
    expect(seenInside).toBe(0);
    await vi.waitFor(() => expect(published).toHaveLength(1));
  });

  it("notifies once per key (a replayed payment confirmation adds nothing)", async () => {
    const learner = await createUser(handle.db);
    const first = await createNotification(handle.db, learner, { kind: "payment_confirmed", key: "payment:7:confirmed" });
    const second = await createNotification(handle.db, learner, { kind: "payment_confirmed", key: "payment:7:confirmed" });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    expect(await countUnreadNotifications(handle.db, learner)).toBe(1);
  });

  it("refuses an unknown kind and a link off the site", async () => {
    const learner = await createUser(handle.db);
    await expect(notifyUser(handle.db, { userId: learner.id, kind: "spam" as never, title: "x" })).rejects.toThrow(/unknown/);
    await expect(createNotification(handle.db, learner, { link: "https://evil.example/" })).rejects.toThrow(/path of the site/);
  });
});

describe("the bell", () => {
  it("lists one's own notifications newest first with the unread count, page by page", async () => {
    const learner = await createUser(handle.db);
    const other = await createUser(handle.db);
    for (let index = 1; index <= 5; index++) await createNotification(handle.db, learner, { title: `Réponse ${index}` });
    await createNotification(handle.db, other, { title: "Pas pour vous" });
    const page = await listNotifications(handle.db, learner, { limit: 3 });
    expect(page.items.map((item) => item.title)).toEqual(["Réponse 5", "Réponse 4", "Réponse 3"]);
    expect(page).toMatchObject({ unread: 5, hasMore: true });
    const next = await listNotifications(handle.db, learner, { limit: 3, before: page.items.at(-1)!.id });
    expect(next.items.map((item) => item.title)).toEqual(["Réponse 2", "Réponse 1"]);
    expect(next.hasMore).toBe(false);
  });

  it("marks one read (only one's own) and all read, telling the person's other pages", async () => {
    const learner = await createUser(handle.db);
    const other = await createUser(handle.db);
    const a = await createNotification(handle.db, learner);
    await createNotification(handle.db, learner);
    const foreign = await createNotification(handle.db, other);

    const refused = await markNotificationRead(handle.db, learner, foreign.id).catch((error) => error);
    expect(isAppError(refused, "not_found")).toBe(true);
    expect(await countUnreadNotifications(handle.db, other)).toBe(1);

    published.length = 0;
    expect(await markNotificationRead(handle.db, learner, a.id)).toEqual({ link: "/dashboard/forum" });
    expect(await countUnreadNotifications(handle.db, learner)).toBe(1);
    await vi.waitFor(() => expect(published.map((p) => parsePublished(p)?.event.type)).toEqual(["notifications_read"]));
    // Marking it again changes nothing.
    await markNotificationRead(handle.db, learner, a.id);
    expect(await markAllNotificationsRead(handle.db, learner)).toBe(1);
    expect(await countUnreadNotifications(handle.db, learner)).toBe(0);
    expect(await markAllNotificationsRead(handle.db, learner)).toBe(0);
  });

  it("prunes read notifications after 90 days and unread ones after a year", async () => {
    const learner = await createUser(handle.db);
    const now = new Date("2027-06-01T10:00:00Z");
    const days = (n: number) => new Date(now.getTime() - n * 24 * 60 * 60 * 1000);
    const oldRead = await createNotification(handle.db, learner, { now: days(100) });
    await markNotificationRead(handle.db, learner, oldRead.id, days(99));
    const recentRead = await createNotification(handle.db, learner, { now: days(30) });
    await markNotificationRead(handle.db, learner, recentRead.id, days(29));
    const oldUnread = await createNotification(handle.db, learner, { now: days(200) });
    const ancientUnread = await createNotification(handle.db, learner, { now: days(400) });
    await pruneNotifications(handle.db, now);
    const left = (await handle.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.userId, learner.id))).map(
      (row) => row.id,
    );
    expect(left.sort()).toEqual([recentRead.id, oldUnread.id].sort());
    expect(left).not.toContain(ancientUnread.id);
  });
});

describe("e-mails of notifications", () => {
  it("queues the e-mail of kinds that always go, never of those that never do, once", async () => {
    const learner = await createUser(handle.db);
    const refund = await createNotification(handle.db, learner, {
      kind: "payment_refunded",
      title: "Paiement remboursé",
      link: "/dashboard/paiements",
    });
    const confirmed = await createNotification(handle.db, learner, { kind: "payment_confirmed", title: "Paiement confirmé" });
    expect(await emailJobsOf(refund.id)).toHaveLength(1);
    expect(await emailJobsOf(confirmed.id)).toHaveLength(0);

    expect(await sendNotificationEmail(handle.db, mailServices, { notificationId: refund.id })).toBe("sent");
    const [mail] = await listOutbox(handle.db, learner.email, 5);
    expect(mail?.subject).toMatch(/^Paiement remboursé – /);
    expect(mail?.text).toContain("http://campus.test/dashboard/paiements");
    expect(mail?.text).toContain("toujours envoyé");
    // Run again (at-least-once delivery): no second mail.
    expect(await sendNotificationEmail(handle.db, mailServices, { notificationId: refund.id })).toBe("skipped");
    expect(await listOutbox(handle.db, learner.email, 5)).toHaveLength(1);
  });

  it("follows each person's preferences for the optional kinds", async () => {
    const learner = await createUser(handle.db);
    expect(await getEmailPreferences(handle.db, learner)).toMatchObject({
      forum_reply: false,
      certificate_issued: true,
      message_received: true,
    });
    const quiet = await createNotification(handle.db, learner, { kind: "forum_reply" });
    expect(await emailJobsOf(quiet.id)).toHaveLength(0);

    await setEmailPreferences(handle.db, learner, new Set(["forum_reply"]));
    expect(await getEmailPreferences(handle.db, learner)).toMatchObject({ forum_reply: true, certificate_issued: false });
    const wanted = await createNotification(handle.db, learner, { kind: "forum_reply" });
    const refused = await createNotification(handle.db, learner, { kind: "certificate_issued" });
    expect(await emailJobsOf(wanted.id)).toHaveLength(1);
    expect(await emailJobsOf(refused.id)).toHaveLength(0);

    // Changed their mind before the mail left: nothing is sent.
    await setEmailPreferences(handle.db, learner, new Set());
    expect(await sendNotificationEmail(handle.db, mailServices, { notificationId: wanted.id })).toBe("skipped");
    expect(await listOutbox(handle.db, learner.email, 5)).toHaveLength(0);
  });

  it("mails a message's notice at once (it already waited the person's delay), and nothing if it was read meanwhile", async () => {
    const learner = await createUser(handle.db);
    const now = new Date("2027-01-10T09:00:00Z");
    const unread = await createNotification(handle.db, learner, { kind: "message_received", now });
    const read = await createNotification(handle.db, learner, { kind: "message_received", now });
    const [job] = await emailJobsOf(unread.id);
    expect(job?.runAt.getTime()).toBe(now.getTime());
    await markNotificationRead(handle.db, learner, read.id);
    expect(await sendNotificationEmail(handle.db, mailServices, { notificationId: read.id })).toBe("skipped");
    expect(await sendNotificationEmail(handle.db, mailServices, { notificationId: unread.id })).toBe("sent");
  });
});

describe("the notifications page", () => {
  const call = (user: TestUser, path: string, form?: Record<string, string>) => {
    const request = new Request(`${TEST_PUBLIC_URL}${path}`, form ? { method: "POST", body: new URLSearchParams(form) } : {});
    const context = routerContext(handle.db, createTestAuth(handle.db), { user: sessionOf(user) });
    const args = { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
    return routeOutcome(() => (form ? notificationsAction(args) : notificationsLoader(args)));
  };

  it("lists unread ones on demand, opens one (read, then its link) and refuses someone else's", async () => {
    const learner = await createUser(handle.db);
    const other = await createUser(handle.db);
    const first = await createNotification(handle.db, learner, { title: "Première", link: "/dashboard/forum/12" });
    await createNotification(handle.db, learner, { title: "Seconde" });
    const foreign = await createNotification(handle.db, other);

    const opened = await call(learner, "/dashboard/notifications", { intent: "open", id: String(first.id) });
    expect(opened).toMatchObject({ status: 302, location: "/dashboard/forum/12" });
    const unread = (await call(learner, "/teacher/notifications?filtre=non-lues")).data as {
      items: Array<{ title: string }>;
      base: string;
      unread: number;
    };
    expect(unread.items.map((item) => item.title)).toEqual(["Seconde"]);
    expect(unread).toMatchObject({ base: "/teacher/notifications", unread: 1 });

    expect((await call(learner, "/dashboard/notifications", { intent: "open", id: String(foreign.id) })).status).toBe(404);
    expect((await call(learner, "/dashboard/notifications", { intent: "read", id: "99999999999" })).status).toBe(400);
    expect(await countUnreadNotifications(handle.db, other)).toBe(1);

    expect((await call(learner, "/dashboard/notifications", { intent: "read-all" })).data).toMatchObject({ ok: true });
    expect(await countUnreadNotifications(handle.db, learner)).toBe(0);
  });
});
