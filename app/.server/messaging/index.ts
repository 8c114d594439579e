import { and, asc, desc, eq, inArray, lt, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { MAX_SERIAL_ID } from "~/lib/limits";
import { conversationHref, MESSAGE_MAX_LENGTH, MESSAGES_PAGE_SIZE } from "~/lib/messaging";
import { isRole, type Role } from "~/lib/roles";
import { requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { conversationMembers, conversationReads, conversations, courses, enrolments, messages, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { markNotificationsReadByLink, notifyUser } from "../notifications";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { conversationTopic, onlineUserIds, publish, userTopic, type TopicRule } from "../realtime";
import {
  contactablePeopleWhere,
  conversationAudienceWhere,
  conversationMembersWhere,
  GROUP_ENROLMENT_STATUSES,
  groupCoursesWhere,
  memberConversationsWhere,
  messagingAreaOf,
  readableConversationsWhere,
} from "./policy";

/**
 * Messaging (/dashboard/messages, /teacher/messages): direct conversations between two people and
 * one group per course (its teacher and active learners). Who may write to whom is ./policy.ts;
 * every function takes the acting person, and a conversation they may not read is "not found".
 * Each message is published to the conversation's live topic on commit; a member who is offline
 * gets one notification per conversation until they read it (and, after ten minutes unread, an
 * e-mail as they chose).
 */

/** Sending is limited per person: messages per minute. */
export const MESSAGE_RATE_LIMIT = { limit: 30, windowSeconds: 60 };

export type Person = { id: string; name: string; role: Role };

const personName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

function personOf(row: { id: string; name: string | null; role: string | null }): Person {
  return { id: row.id, name: row.name || "Membre", role: isRole(row.role) ? row.role : "user" };
}

const messageInput = z.object({
  body: requiredText({ label: "Le message", max: MESSAGE_MAX_LENGTH }),
  /** Given by the form: sending it twice (double click, replay after a dropped connection) makes one message. */
  clientKey: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/)
    .optional()
    .transform((value) => value || null),
});

async function limitSending(db: Database, actor: Actor, now: Date) {
  const result = await consumeRateLimit(db, `messages:${actor.id}`, { ...MESSAGE_RATE_LIMIT, now });
  if (!result.allowed) {
    throw AppError.rateLimited(`Vous envoyez beaucoup de messages : réessayez dans ${formatRetryAfter(result.retryAfterSeconds)}.`);
  }
}

/**
 * Course groups exist once their course has members: made here, the first time one of them looks
 * (two at once: the unique course id keeps one).
 */
async function ensureGroups(db: Database, actor: Actor) {
  await db.execute(sql`insert into ${conversations} (kind, course_id)
    select 'course', ${courses.id} from ${courses}
    where ${groupCoursesWhere(actor)} and not exists (select 1 from ${conversations} where ${conversations.courseId} = ${courses.id})
    on conflict do nothing`);
}

// ---------------------------------------------------------------------------------------------
// Reading

export type ConversationSummary = {
  id: number;
  kind: "direct" | "course";
  /** The other person (direct), or null (course group). */
  with: Person | null;
  /** The course (course group). */
  course: { id: number; title: string } | null;
  title: string;
  lastMessage: { body: string; mine: boolean; createdAt: Date } | null;
  unread: number;
  online: boolean;
};

/** Messages from others after how far `actor` read, in the conversation of the query. */
function unreadCount(actor: Actor) {
  return sql<number>`(select count(*) from ${messages} where ${messages.conversationId} = ${conversations.id}
    and ${messages.senderId} is distinct from ${actor.id}
    and ${messages.id} > coalesce((select ${conversationReads.lastReadMessageId} from ${conversationReads}
      where ${conversationReads.conversationId} = ${conversations.id} and ${conversationReads.userId} = ${actor.id}), 0))`.mapWith(Number);
}

/** The other person of a direct conversation of the query. */
function otherMemberId(actor: Actor) {
  return sql<string | null>`(select ${conversationMembers.userId} from ${conversationMembers}
    where ${conversationMembers.conversationId} = ${conversations.id} and ${conversationMembers.userId} <> ${actor.id} limit 1)`;
}

/**
 * The actor's conversations, latest activity first, each with its last message, unread count and
 * (direct) whether the other person is online; `q` filters on the person's name or the course.
 */
export async function listConversations(
  db: Database,
  actor: Actor,
  options: { q?: string; now?: Date; limit?: number } = {},
): Promise<ConversationSummary[]> {
  const now = options.now ?? new Date();
  await ensureGroups(db, actor);
  const otherName = sql`(select trim(${users.firstName} || ' ' || ${users.lastName}) from ${users} where ${users.id} = ${otherMemberId(actor)})`;
  const lastMessage = (column: SQL) =>
    sql`(select ${column} from ${messages} where ${messages.conversationId} = ${conversations.id} order by ${messages.id} desc limit 1)`;
  const rows = await db
    .select({
      id: conversations.id,
      kind: conversations.kind,
      courseId: courses.id,
      courseTitle: courses.title,
      otherId: otherMemberId(actor),
      lastBody: lastMessage(sql`left(${messages.body}, 160)`).mapWith(String),
      lastSender: lastMessage(sql`${messages.senderId}`).mapWith(String),
      lastAt: conversations.lastMessageAt,
      unread: unreadCount(actor),
    })
    .from(conversations)
    .leftJoin(courses, eq(courses.id, conversations.courseId))
    .where(and(memberConversationsWhere(actor), options.q ? containsText(options.q, courses.title, otherName) : undefined))
    .orderBy(desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`), desc(conversations.id))
    .limit(Math.min(options.limit ?? 100, 200));

  const otherIds = [...new Set(rows.map((row) => row.otherId).filter((id): id is string => Boolean(id)))];
  const people = otherIds.length
    ? await db.select({ id: users.id, name: personName, role: users.role }).from(users).where(inArray(users.id, otherIds))
    : [];
  const byId = new Map(people.map((row) => [row.id, personOf(row)]));
  const online = await onlineUserIds(db, otherIds, now);
  return rows.map((row) => {
    const other = row.otherId ? (byId.get(row.otherId) ?? null) : null;
    return {
      id: row.id,
      kind: row.kind,
      with: other,
      course: row.courseId !== null ? { id: row.courseId, title: row.courseTitle ?? "" } : null,
      title: row.kind === "course" ? (row.courseTitle ?? "Groupe") : (other?.name ?? "Compte supprimé"),
      lastMessage:
        row.lastAt && row.lastBody !== null ? { body: row.lastBody, mine: row.lastSender === actor.id, createdAt: row.lastAt } : null,
      unread: row.unread,
      online: other ? online.has(other.id) : false,
    };
  });
}

async function findReadable(db: Database, actor: Actor, conversationId: number) {
  if (!Number.isInteger(conversationId) || conversationId < 1 || conversationId > MAX_SERIAL_ID) return null;
  const [row] = await db
    .select({ id: conversations.id, kind: conversations.kind, courseId: conversations.courseId, courseTitle: courses.title })
    .from(conversations)
    .leftJoin(courses, eq(courses.id, conversations.courseId))
    .where(and(eq(conversations.id, conversationId), readableConversationsWhere(actor)));
  return row ?? null;
}

export type MessageView = { id: number; body: string; sender: Person | null; mine: boolean; createdAt: Date };

export type ConversationView = {
  id: number;
  kind: "direct" | "course";
  title: string;
  with: Person | null;
  course: { id: number; title: string } | null;
  online: boolean;
  /** Members of a course group (teacher and active learners). */
  memberCount: number | null;
  messages: MessageView[];
  /** Id of the oldest message shown, when there are older ones. */
  olderBefore: number | null;
  /** The latest of the actor's messages the other person has read (direct). */
  seenUpTo: number | null;
};

/**
 * A conversation the actor may read, with its latest messages (or those before `before`, for
 * scrolling back), oldest first.
 */
export async function getConversation(
  db: Database,
  actor: Actor,
  conversationId: number,
  options: { before?: number | null; limit?: number; now?: Date } = {},
): Promise<ConversationView> {
  const conversation = await findReadable(db, actor, conversationId);
  if (!conversation) throw AppError.notFound("Conversation introuvable.");
  const limit = Math.min(Math.max(options.limit ?? MESSAGES_PAGE_SIZE, 1), 100);
  const rows = await db
    .select({
      id: messages.id,
      body: messages.body,
      createdAt: messages.createdAt,
      senderId: messages.senderId,
      senderName: personName,
      senderRole: users.role,
    })
    .from(messages)
    .leftJoin(users, eq(users.id, messages.senderId))
    .where(and(eq(messages.conversationId, conversationId), options.before ? lt(messages.id, options.before) : undefined))
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).reverse();

  let other: Person | null = null;
  let seenUpTo: number | null = null;
  let memberCount: number | null = null;
  if (conversation.kind === "direct") {
    const [row] = await db
      .select({ id: users.id, name: personName, role: users.role, lastRead: conversationReads.lastReadMessageId })
      .from(conversationMembers)
      .innerJoin(users, eq(users.id, conversationMembers.userId))
      .leftJoin(
        conversationReads,
        and(eq(conversationReads.conversationId, conversationId), eq(conversationReads.userId, conversationMembers.userId)),
      )
      .where(and(eq(conversationMembers.conversationId, conversationId), ne(conversationMembers.userId, actor.id)));
    if (row) {
      other = personOf(row);
      seenUpTo = row.lastRead ?? 0;
    }
  } else {
    const [row] = await db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(enrolments)
      .where(and(eq(enrolments.courseId, conversation.courseId!), inArray(enrolments.status, [...GROUP_ENROLMENT_STATUSES])));
    memberCount = (row?.count ?? 0) + 1;
  }
  const online = other ? (await onlineUserIds(db, [other.id], options.now ?? new Date())).has(other.id) : false;
  return {
    id: conversation.id,
    kind: conversation.kind,
    title: conversation.kind === "course" ? (conversation.courseTitle ?? "Groupe") : (other?.name ?? "Compte supprimé"),
    with: other,
    course: conversation.courseId !== null ? { id: conversation.courseId, title: conversation.courseTitle ?? "" } : null,
    online,
    memberCount,
    messages: page.map((row) => ({
      id: row.id,
      body: row.body,
      sender: row.senderId ? personOf({ id: row.senderId, name: row.senderName, role: row.senderRole }) : null,
      mine: row.senderId === actor.id,
      createdAt: row.createdAt,
    })),
    olderBefore: rows.length > limit ? (page[0]?.id ?? null) : null,
    seenUpTo,
  };
}

/**
 * The actor has read the conversation up to its latest message: its unread count drops, its
 * "message while away" notifications are answered, and the sender's pane can say "Vu".
 */
export async function markConversationRead(db: Database, actor: Actor, conversationId: number, now = new Date()): Promise<void> {
  const conversation = await findReadable(db, actor, conversationId);
  if (!conversation) throw AppError.notFound("Conversation introuvable.");
  await db.transaction(async (tx) => {
    const [latest] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(desc(messages.id))
      .limit(1);
    if (!latest) return;
    const moved = await tx
      .insert(conversationReads)
      .values({ conversationId, userId: actor.id, lastReadMessageId: latest.id, readAt: now })
      .onConflictDoUpdate({
        target: [conversationReads.conversationId, conversationReads.userId],
        set: { lastReadMessageId: latest.id, readAt: now },
        setWhere: sql`${conversationReads.lastReadMessageId} < ${latest.id}`,
      })
      .returning({ id: conversationReads.conversationId });
    if (!moved.length) return;
    await markNotificationsReadByLink(tx, actor, "message_received", conversationHref(conversationId, messagingAreaOf(actor)), now);
    await publish(tx, userTopic(actor.id), { type: "conversation_read", id: conversationId });
    await publish(tx, conversationTopic(conversationId), { type: "read", id: conversationId, userId: actor.id });
  });
}

// ---------------------------------------------------------------------------------------------
// Writing

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

  // Those away hear of it by a notification: one per conversation until they read it.
  const online = await onlineUserIds(
    tx,
    recipients.map((recipient) => recipient.id),
    now,
  );
  const away = recipients.filter((recipient) => !online.has(recipient.id));
  if (away.length) {
    const [sender] = await tx.select({ name: personName }).from(users).where(eq(users.id, actor.id));
    const senderName = sender?.name || "Un membre";
    const reads = await tx
      .select({ userId: conversationReads.userId, lastRead: conversationReads.lastReadMessageId })
      .from(conversationReads)
      .where(
        and(
          eq(conversationReads.conversationId, conversation.id),
          inArray(
            conversationReads.userId,
            away.map((recipient) => recipient.id),
          ),
        ),
      );
    const lastRead = new Map(reads.map((row) => [row.userId, row.lastRead]));
    const excerpt = data.body.length > 140 ? `${data.body.slice(0, 139)}…` : data.body;
    for (const recipient of away) {
      await notifyUser(tx, {
        userId: recipient.id,
        kind: "message_received",
        title:
          conversation.kind === "course"
            ? `Nouveau message dans le groupe « ${conversation.courseTitle ?? ""} »`
            : `Nouveau message de ${senderName}`,
        body: conversation.kind === "course" ? `${senderName} : ${excerpt}` : excerpt,
        link: conversationHref(conversation.id, messagingAreaOf(recipient)),
        key: `message:${conversation.id}:${lastRead.get(recipient.id) ?? 0}`,
        now,
      });
    }
  }
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

// ---------------------------------------------------------------------------------------------
// Live

const serialIds = (ids: string[]) => ids.map(Number).filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_SERIAL_ID);

/**
 * Who may follow messaging's live topics: `conversation:<id>` (those who may read it, checked
 * again before each event: a learner leaving a course leaves its group) and `presence:<userId>`
 * (the people one has a conversation with, or may start one with).
 */
export const messagingTopicRules: TopicRule[] = [
  {
    prefix: "conversation",
    allowed: async (db, actor, ids) => {
      const wanted = serialIds(ids);
      if (!wanted.length) return new Set();
      const rows = await db
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(inArray(conversations.id, wanted), readableConversationsWhere(actor)));
      return new Set(rows.map((row) => String(row.id)));
    },
    audience: async (db, id, userIds) => {
      const [conversationId] = serialIds([id]);
      if (!conversationId || !userIds.length) return new Set();
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(conversations, eq(conversations.id, conversationId))
        .where(and(inArray(users.id, userIds), eq(users.banned, false), conversationAudienceWhere()));
      return new Set(rows.map((row) => row.id));
    },
  },
  {
    prefix: "presence",
    allowed: async (db, actor, ids) => {
      const wanted = ids.filter((id) => id && id !== actor.id);
      if (!wanted.length) return new Set();
      const partners = await db
        .select({ id: conversationMembers.userId })
        .from(conversationMembers)
        .innerJoin(conversations, eq(conversations.id, conversationMembers.conversationId))
        .where(and(inArray(conversationMembers.userId, wanted), eq(conversations.kind, "direct"), memberConversationsWhere(actor)));
      const contacts = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, wanted), contactablePeopleWhere(actor)));
      return new Set([...partners, ...contacts].map((row) => row.id));
    },
  },
];
