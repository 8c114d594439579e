import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { conversationHref, DEFAULT_MESSAGE_NOTICE_DELAY, messageNoticeDelays, type MessageNoticeDelay } from "~/lib/messaging";
import { isRole } from "~/lib/roles";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { conversationReads, messageNoticeSettings, messages, users } from "../db/schema";
import { validate } from "../errors";
import { enqueueJob } from "../jobs";
import { notifyUser } from "../notifications";
import { messagingAreaOf } from "./policy";
import { latestUnreadMessage } from "./unread";

/**
 * Messages nobody misses: a message still unread after the delay its recipient chose (notification
 * settings) brings one notification, and its e-mail, per burst: the messages that arrive in a
 * conversation after the recipient last read it. The first of a burst queues the job (keyed by the
 * read mark), the next ones find it queued; reading the conversation before the job runs cancels it.
 */

export const MESSAGE_NOTICE_QUEUE = "messaging.notice";

export type MessageNoticeJob = { conversationId: number; userId: string; afterMessageId: number };

const minutesOf = (value: MessageNoticeDelay) => messageNoticeDelays.find((choice) => choice.value === value)!.minutes;

/** The actor's choice (the default where they made none). */
export async function getMessageNoticeDelay(db: Database, actor: Actor): Promise<MessageNoticeDelay> {
  const [row] = await db
    .select({ minutes: messageNoticeSettings.delayMinutes })
    .from(messageNoticeSettings)
    .where(eq(messageNoticeSettings.userId, actor.id));
  if (!row) return DEFAULT_MESSAGE_NOTICE_DELAY;
  return messageNoticeDelays.find((choice) => choice.minutes === row.minutes)?.value ?? DEFAULT_MESSAGE_NOTICE_DELAY;
}

const delayInput = z.object({
  messageDelay: z
    .enum(messageNoticeDelays.map((choice) => choice.value) as [MessageNoticeDelay, ...MessageNoticeDelay[]], {
      error: "Choisissez un délai de la liste.",
    })
    .optional(),
});

/** Saves the actor's choice (`{ messageDelay: "1h" }`, as the settings form sends it; none: unchanged). */
export async function setMessageNoticeDelay(db: Database, actor: Actor, input: unknown, now = new Date()): Promise<MessageNoticeDelay> {
  const { messageDelay } = validate(delayInput, input);
  if (!messageDelay) return getMessageNoticeDelay(db, actor);
  const delayMinutes = minutesOf(messageDelay);
  await db
    .insert(messageNoticeSettings)
    .values({ userId: actor.id, delayMinutes, updatedAt: now })
    .onConflictDoUpdate({ target: messageNoticeSettings.userId, set: { delayMinutes, updatedAt: now } });
  return messageDelay;
}

/** Each recipient's delay in minutes (null: never), for a message just sent. */
async function delaysOf(tx: Database, userIds: string[]): Promise<Map<string, number | null>> {
  const rows = userIds.length
    ? await tx
        .select({ userId: messageNoticeSettings.userId, minutes: messageNoticeSettings.delayMinutes })
        .from(messageNoticeSettings)
        .where(inArray(messageNoticeSettings.userId, userIds))
    : [];
  const chosen = new Map(rows.map((row) => [row.userId, row.minutes]));
  const fallback = minutesOf(DEFAULT_MESSAGE_NOTICE_DELAY);
  return new Map(userIds.map((id) => [id, chosen.has(id) ? chosen.get(id)! : fallback]));
}

/**
 * Called in the transaction of a new message: for each recipient who wants notices, the job of
 * this burst, once (its key is the recipient's read mark: a later message of the burst adds nothing).
 */
export async function queueMessageNotices(tx: Database, conversationId: number, recipientIds: string[], now: Date) {
  if (!recipientIds.length) return;
  const delays = await delaysOf(tx, recipientIds);
  const reads = await tx
    .select({ userId: conversationReads.userId, lastRead: conversationReads.lastReadMessageId })
    .from(conversationReads)
    .where(and(eq(conversationReads.conversationId, conversationId), inArray(conversationReads.userId, recipientIds)));
  const lastRead = new Map(reads.map((row) => [row.userId, row.lastRead]));
  for (const userId of recipientIds) {
    const minutes = delays.get(userId);
    if (minutes === null || minutes === undefined) continue;
    const afterMessageId = lastRead.get(userId) ?? 0;
    await enqueueJob(tx, MESSAGE_NOTICE_QUEUE, { conversationId, userId, afterMessageId } satisfies MessageNoticeJob, {
      key: `message-notice:${conversationId}:${userId}:${afterMessageId}`,
      runAt: new Date(now.getTime() + minutes * 60_000),
      now,
    });
  }
}

/**
 * The MESSAGE_NOTICE_QUEUE handler: if the burst is still unread (and the person still wants
 * notices and may read the conversation), one notification, whose e-mail follows as they chose.
 * Once: the notification's key is the burst's, so a replayed job adds nothing.
 */
export async function sendMessageNotice(db: Database, job: MessageNoticeJob, now = new Date()): Promise<"sent" | "skipped"> {
  const [person] = await db.select({ id: users.id, role: users.role, banned: users.banned }).from(users).where(eq(users.id, job.userId));
  if (!person || person.banned) return "skipped";
  const actor: Actor = { id: person.id, role: isRole(person.role) ? person.role : null };
  if (minutesOf(await getMessageNoticeDelay(db, actor)) === null) return "skipped";
  const latest = await latestUnreadMessage(db, actor, job.conversationId);
  if (!latest) return "skipped";
  const [read] = await db
    .select({ lastRead: conversationReads.lastReadMessageId })
    .from(conversationReads)
    .where(and(eq(conversationReads.conversationId, job.conversationId), eq(conversationReads.userId, actor.id)));
  // Read since the burst began: a later message is another burst, with its own job.
  if ((read?.lastRead ?? 0) > job.afterMessageId) return "skipped";
  const [unread] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, job.conversationId),
        sql`${messages.id} > ${job.afterMessageId}`,
        sql`${messages.senderId} is distinct from ${actor.id}`,
      ),
    );
  const count = unread?.count ?? 1;
  const { created } = await db.transaction((tx) =>
    notifyUser(tx, {
      userId: actor.id,
      kind: "message_received",
      title: latest.title,
      body: count > 1 ? `${count} messages non lus. Le dernier : ${latest.excerpt}` : latest.excerpt,
      link: conversationHref(job.conversationId, messagingAreaOf(actor)),
      key: `message:${job.conversationId}:${job.afterMessageId}`,
      now,
    }),
  );
  return created ? "sent" : "skipped";
}
