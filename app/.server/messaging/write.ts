import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { isRole } from "~/lib/roles";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { conversationMembers, conversationReads, conversations, messages, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { conversationTopic, publish, userTopic } from "../realtime";
import { contactablePeopleWhere, conversationMembersWhere } from "./policy";
import { queueMessageNotices } from "./notices";
import { findReadable, limitSending, messageInput, personName, personOf, type Person } from "./shared";

/** Writing: whom one may write to, opening a direct conversation, sending (published and notified on commit). */

/** The people `actor` may start a conversation with, by name (`q`), a few at a time. */
export async function listContacts(db: Database, actor: Actor, options: { q?: string; limit?: number } = {}): Promise<Person[]> {
  const rows = await db
    .select({ id: users.id, name: personName, role: users.role })
    .from(users)
    .where(and(contactablePeopleWhere(actor), options.q ? containsText(options.q, personName, users.email) : undefined))
    .orderBy(asc(users.firstName), asc(users.lastName))
    .limit(Math.min(options.limit ?? 20, 50));
  return rows.map(personOf);
}

const pairKeyOf = (a: string, b: string) => (a < b ? `${a}:${b}` : `${b}:${a}`);

async function directConversationId(db: Database, actor: Actor, otherUserId: string): Promise<number | null> {
  const [row] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(eq(conversations.pairKey, pairKeyOf(actor.id, otherUserId)));
  return row?.id ?? null;
}

/**
 * Someone the actor may write to: a person the policy allows, or one they already have a
 * conversation with (who wrote to them first). Otherwise "not found" or "forbidden".
 */
export async function getCorrespondent(
  db: Database,
  actor: Actor,
  otherUserId: string,
): Promise<{ person: Person; conversationId: number | null }> {
  const [row] = await db
    .select({
      id: users.id,
      name: personName,
      role: users.role,
      banned: users.banned,
      allowed: sql<boolean>`${contactablePeopleWhere(actor)}`,
    })
    .from(users)
    .where(eq(users.id, otherUserId));
  if (!row || row.id === actor.id) throw AppError.notFound("Personne introuvable.");
  const conversationId = await directConversationId(db, actor, otherUserId);
  if (!row.allowed && !(conversationId && !row.banned)) {
    throw AppError.forbidden(
      "Vous ne pouvez pas écrire à cette personne : la messagerie relie les apprenants à leurs enseignants et à l'administration.",
    );
  }
  return { person: personOf(row), conversationId };
}

/** Opens (or finds) the actor's direct conversation with `otherUserId`, if the policy allows it. */
export async function startConversation(
  db: Database,
  actor: Actor,
  otherUserId: string,
  now = new Date(),
): Promise<{ conversationId: number }> {
  const { conversationId } = await getCorrespondent(db, actor, otherUserId);
  if (conversationId) return { conversationId };
  return db.transaction(async (tx) => ({ conversationId: await openDirect(tx, actor, otherUserId, now) }));
}

async function openDirect(tx: Database, actor: Actor, otherUserId: string, now: Date): Promise<number> {
  const pairKey = pairKeyOf(actor.id, otherUserId);
  await tx.insert(conversations).values({ kind: "direct", pairKey, createdAt: now }).onConflictDoNothing();
  const [row] = await tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.pairKey, pairKey));
  await tx
    .insert(conversationMembers)
    .values([actor.id, otherUserId].map((userId) => ({ conversationId: row!.id, userId })))
    .onConflictDoNothing();
  return row!.id;
}

/** Who receives a message of the conversation, besides its sender: its members (not administrators visiting a group). */
async function recipientsOf(db: Database, conversationId: number, senderId: string): Promise<Actor[]> {
  const rows = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .innerJoin(conversations, eq(conversations.id, conversationId))
    .where(and(ne(users.id, senderId), eq(users.banned, false), conversationMembersWhere()));
  return rows.map((row) => ({ id: row.id, role: isRole(row.role) ? row.role : null }));
}

export type SentMessage = { id: number; conversationId: number; created: boolean };

async function sendIn(
  tx: Database,
  actor: Actor,
  conversation: { id: number; kind: "direct" | "course"; courseTitle: string | null },
  data: z.output<typeof messageInput>,
  now: Date,
): Promise<SentMessage> {
  const [inserted] = await tx
    .insert(messages)
    .values({ conversationId: conversation.id, senderId: actor.id, body: data.body, clientKey: data.clientKey, createdAt: now })
    .onConflictDoNothing({ target: [messages.senderId, messages.clientKey] })
    .returning({ id: messages.id });
  if (!inserted) {
    const [existing] = await tx
      .select({ id: messages.id, conversationId: messages.conversationId })
      .from(messages)
      .where(and(eq(messages.senderId, actor.id), eq(messages.clientKey, data.clientKey!)));
    return { id: existing!.id, conversationId: existing!.conversationId, created: false };
  }
  await tx.update(conversations).set({ lastMessageAt: now }).where(eq(conversations.id, conversation.id));
  // One's own message is read.
  await tx
    .insert(conversationReads)
    .values({ conversationId: conversation.id, userId: actor.id, lastReadMessageId: inserted.id, readAt: now })
    .onConflictDoUpdate({
      target: [conversationReads.conversationId, conversationReads.userId],
      set: { lastReadMessageId: inserted.id, readAt: now },
    });

  const recipients = await recipientsOf(tx, conversation.id, actor.id);
  await publish(tx, conversationTopic(conversation.id), { type: "message", id: inserted.id });
  for (const recipient of recipients) await publish(tx, userTopic(recipient.id), { type: "conversation", id: conversation.id });

  // Still unread after the delay each recipient chose: one notice per burst (./notices.ts).
  await queueMessageNotices(
    tx,
    conversation.id,
    recipients.map((recipient) => recipient.id),
    now,
  );
  return { id: inserted.id, conversationId: conversation.id, created: true };
}

/**
 * Sends a message in a conversation the actor may read. The same `clientKey` twice (a double
 * click, a form posted again) makes one message.
 */
export async function sendMessage(
  db: Database,
  actor: Actor,
  conversationId: number,
  input: unknown,
  now = new Date(),
): Promise<SentMessage> {
  const conversation = await findReadable(db, actor, conversationId);
  if (!conversation) throw AppError.notFound("Conversation introuvable.");
  const data = validate(messageInput, input);
  await limitSending(db, actor, now);
  return db.transaction((tx) => sendIn(tx, actor, conversation, data, now));
}

/** Writes to `otherUserId`, in the conversation the two have or a new one (the policy permitting). */
export async function sendMessageTo(
  db: Database,
  actor: Actor,
  otherUserId: string,
  input: unknown,
  now = new Date(),
): Promise<SentMessage> {
  await getCorrespondent(db, actor, otherUserId);
  const data = validate(messageInput, input);
  await limitSending(db, actor, now);
  return db.transaction(async (tx) => {
    const conversationId = await openDirect(tx, actor, otherUserId, now);
    return sendIn(tx, actor, { id: conversationId, kind: "direct", courseTitle: null }, data, now);
  });
}
