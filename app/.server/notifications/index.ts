import { and, desc, eq, isNotNull, isNull, like, lt, or, sql } from "drizzle-orm";
import { emailWanted, isNotificationKind, notificationKinds, optionalEmailKinds, type NotificationKind } from "~/lib/notifications";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { escapeLike } from "../db/like";
import { notificationPreferences, notifications, users } from "../db/schema";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs";
import { loadInstituteIdentity, renderActionMail, sendMail, type MailEnv } from "../mail";
import { publish, userTopic } from "../realtime/publish";
import { ownNotificationsWhere } from "./policy";
import { cachedUnreadCount, forgetUnreadCount } from "./unread-cache";

export { attachUnreadCounts } from "./unread-cache";

/**
 * The bell: notifications written by the capability where something happened, in its own
 * transaction, so that a change and its notification exist together or not at all. On commit the
 * addressee's open pages hear of it (realtime), and the important ones leave by e-mail (a queued
 * job, sent once, that respects the person's preferences).
 *
 *   await db.transaction(async (tx) => {
 *     ...the change...
 *     await notifyUser(tx, { userId, kind: "certificate_issued", title: "Certificat obtenu",
 *       body: `Votre certificat « ${course} » est prêt.`, link: "/dashboard/certificates",
 *       key: `certificate:${id}` });
 *   });
 */

export const NOTIFICATION_EMAIL_QUEUE = "notifications.email";

/** Read notifications are kept 90 days, unread ones a year. */
export const READ_NOTIFICATION_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;
export const UNREAD_NOTIFICATION_RETENTION_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * A message's e-mail is not sent once the notification is read: its notice already waited the
 * delay the person chose (messaging), and someone who reads it meanwhile needs no mail.
 */
const DROPPED_ONCE_READ: ReadonlySet<NotificationKind> = new Set(["message_received"]);

export interface NotificationInput {
  userId: string;
  kind: NotificationKind;
  /** Short: "Paiement confirmé". */
  title: string;
  /** One or two sentences: what happened, in French. */
  body?: string;
  /** A path of the site where it leads ("/dashboard/paiements/ICEF-…"). */
  link?: string | null;
  /** Once-only per person: a second notification with this key adds nothing. */
  key?: string;
  now?: Date;
}

const LIMITS = { title: 160, body: 1000, link: 500 };

/**
 * Notifies one person. Pass the transaction of the change it reports: nothing is published nor
 * e-mailed unless that transaction commits. Returns the notification's id and whether it is new
 * (false when `key` was already used for this person).
 */
export async function notifyUser(db: Database, input: NotificationInput): Promise<{ id: number; created: boolean }> {
  if (!isNotificationKind(input.kind)) throw new Error(`unknown notification kind ${String(input.kind)}`);
  if (input.link && !input.link.startsWith("/")) throw new Error(`notification link must be a path of the site: ${input.link}`);
  const now = input.now ?? new Date();
  const [inserted] = await db
    .insert(notifications)
    .values({
      userId: input.userId,
      kind: input.kind,
      title: input.title.slice(0, LIMITS.title),
      body: (input.body ?? "").slice(0, LIMITS.body),
      link: input.link ? input.link.slice(0, LIMITS.link) : null,
      key: input.key ?? null,
      createdAt: now,
    })
    .onConflictDoNothing({ target: [notifications.userId, notifications.key] })
    .returning({ id: notifications.id });
  if (!inserted) {
    const [existing] = await db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, input.userId), eq(notifications.key, input.key!)));
    return { id: existing!.id, created: false };
  }
  await publish(db, userTopic(input.userId), { type: "notification", id: inserted.id });
  if (await wantsEmail(db, input.userId, input.kind)) {
    await enqueueJob(db, NOTIFICATION_EMAIL_QUEUE, { notificationId: inserted.id } satisfies NotificationEmailJob, {
      key: `notification-email:${inserted.id}`,
      now,
    });
  }
  return { id: inserted.id, created: true };
}

async function wantsEmail(db: Database, userId: string, kind: NotificationKind): Promise<boolean> {
  const info = notificationKinds[kind] as { email: string };
  if (info.email !== "optional") return info.email === "always";
  const [choice] = await db
    .select({ email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.userId, userId), eq(notificationPreferences.kind, kind)));
  return emailWanted(kind, choice?.email);
}

const listColumns = {
  id: notifications.id,
  kind: notifications.kind,
  title: notifications.title,
  body: notifications.body,
  link: notifications.link,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
};

export type NotificationItem = {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  createdAt: Date;
};

/** How many of the actor's notifications are unread (the bell's badge). */
export async function countUnreadNotifications(db: Database, actor: Actor): Promise<number> {
  return cachedUnreadCount(db, actor.id, async () => {
    const [row] = await db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(notifications)
      .where(and(ownNotificationsWhere(actor), isNull(notifications.readAt)));
    return row?.count ?? 0;
  });
}

/** The actor's notifications, newest first, `limit` at a time (`before`: the last id already shown). */
export async function listNotifications(
  db: Database,
  actor: Actor,
  options: { limit?: number; before?: number | null; unreadOnly?: boolean } = {},
): Promise<{ items: NotificationItem[]; unread: number; hasMore: boolean }> {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  const rows = await db
    .select(listColumns)
    .from(notifications)
    .where(
      and(
        ownNotificationsWhere(actor),
        options.before ? lt(notifications.id, options.before) : undefined,
        options.unreadOnly ? isNull(notifications.readAt) : undefined,
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(limit + 1);
  const items = rows.slice(0, limit).map((row) => ({
    id: row.id,
    kind: isNotificationKind(row.kind) ? row.kind : "account_changed",
    title: row.title,
    body: row.body,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt,
  }));
  return { items, unread: await countUnreadNotifications(db, actor), hasMore: rows.length > limit };
}

/** Marks one of the actor's notifications read; someone else's is "not found". Returns where it leads. */
export async function markNotificationRead(db: Database, actor: Actor, id: number, now = new Date()): Promise<{ link: string | null }> {
  const marked = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ link: notifications.link, readAt: notifications.readAt })
      .from(notifications)
      .where(and(eq(notifications.id, id), ownNotificationsWhere(actor)));
    if (!row) throw AppError.notFound("Notification introuvable.");
    if (!row.readAt) {
      await tx.update(notifications).set({ readAt: now }).where(eq(notifications.id, id));
      await publish(tx, userTopic(actor.id), { type: "notifications_read" });
    }
    return { link: row.link };
  });
  forgetUnreadCount(db, actor.id);
  return marked;
}

/** Marks every unread notification of the actor read; returns how many were. */
export async function markAllNotificationsRead(db: Database, actor: Actor, now = new Date()): Promise<number> {
  const count = await db.transaction(async (tx) => {
    const updated = await tx
      .update(notifications)
      .set({ readAt: now })
      .where(and(ownNotificationsWhere(actor), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (updated.length) await publish(tx, userTopic(actor.id), { type: "notifications_read" });
    return updated.length;
  });
  forgetUnreadCount(db, actor.id);
  return count;
}

/**
 * Marks read the actor's unread notifications of `kind` that lead to `path` (or to an anchor in
 * it): the conversation or the thread they announce has been opened.
 */
export async function markNotificationsReadByLink(db: Database, actor: Actor, kind: NotificationKind, path: string, now = new Date()) {
  const updated = await db
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        ownNotificationsWhere(actor),
        eq(notifications.kind, kind),
        isNull(notifications.readAt),
        or(eq(notifications.link, path), like(notifications.link, `${escapeLike(path)}#%`)),
      ),
    )
    .returning({ id: notifications.id });
  if (updated.length) {
    forgetUnreadCount(db, actor.id);
    await publish(db, userTopic(actor.id), { type: "notifications_read" });
  }
  return updated.length;
}

/** The actor's e-mail choices for the optional kinds (their default where they made none). */
export async function getEmailPreferences(db: Database, actor: Actor): Promise<Record<NotificationKind, boolean>> {
  const rows = await db
    .select({ kind: notificationPreferences.kind, email: notificationPreferences.email })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, actor.id));
  const chosen = new Map(rows.map((row) => [row.kind, row.email]));
  return Object.fromEntries(
    (Object.keys(notificationKinds) as NotificationKind[]).map((kind) => [kind, emailWanted(kind, chosen.get(kind))]),
  ) as Record<NotificationKind, boolean>;
}

/** Saves the actor's e-mail choice for each optional kind (a kind left out is switched off, as an unticked box). */
export async function setEmailPreferences(db: Database, actor: Actor, wanted: ReadonlySet<string>, now = new Date()): Promise<void> {
  const values = optionalEmailKinds.map((kind) => ({ userId: actor.id, kind, email: wanted.has(kind), updatedAt: now }));
  await db
    .insert(notificationPreferences)
    .values(values)
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.kind],
      set: { email: sql`excluded.email`, updatedAt: sql`excluded.updated_at` },
    });
}

/** Deletes read notifications after 90 days and unread ones after a year (a daily schedule). */
export async function pruneNotifications(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(notifications)
    .where(
      or(
        and(isNotNull(notifications.readAt), lt(notifications.createdAt, new Date(now.getTime() - READ_NOTIFICATION_RETENTION_MS))),
        lt(notifications.createdAt, new Date(now.getTime() - UNREAD_NOTIFICATION_RETENTION_MS)),
      ),
    )
    .returning({ id: notifications.id });
  return deleted.length;
}

export type NotificationEmailJob = { notificationId: number };

/**
 * The queued e-mail of one notification (the NOTIFICATION_EMAIL_QUEUE handler). Sends nothing if
 * the notification is gone, already e-mailed, read meanwhile (a message), if the person
 * changed their mind, or if the account was closed. At least once: a process dying between the
 * sending and the stamp sends it again.
 */
export async function sendNotificationEmail(
  db: Database,
  services: { mailEnv: MailEnv; publicUrl: string },
  job: NotificationEmailJob,
  now = new Date(),
): Promise<"sent" | "skipped"> {
  const [row] = await db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      readAt: notifications.readAt,
      emailedAt: notifications.emailedAt,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      banned: users.banned,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(eq(notifications.id, job.notificationId));
  if (!row || row.emailedAt || row.banned || !isNotificationKind(row.kind)) return "skipped";
  if (DROPPED_ONCE_READ.has(row.kind) && row.readAt) return "skipped";
  if (!(await wantsEmail(db, row.userId, row.kind))) return "skipped";

  const identity = await loadInstituteIdentity(db);
  const base = services.publicUrl.replace(/\/$/, "");
  const optional = notificationKinds[row.kind].email === "optional";
  const mail = renderActionMail({
    to: row.email,
    subject: `${row.title} – ${identity.shortName}`,
    greeting: row.firstName ? `Bonjour ${row.firstName},` : "Bonjour,",
    paragraphs: [row.body || row.title],
    action: { label: "Voir sur le site", url: `${base}${row.link ?? "/dashboard/notifications"}` },
    footnote: optional
      ? `Vous recevez ce message selon vos préférences de notification ; pour les modifier : ${base}/dashboard/profile?onglet=notifications`
      : "Ce message concerne votre compte ou vos paiements : il vous est toujours envoyé.",
    identity,
  });
  await sendMail(db, services.mailEnv, mail);
  await db.update(notifications).set({ emailedAt: now }).where(eq(notifications.id, row.id));
  return "sent";
}

/** A deleted account's bell and e-mail choices go with it (nothing is sent to it any more). */
export async function forgetNotificationsOf(tx: Database, userId: string): Promise<void> {
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
}
