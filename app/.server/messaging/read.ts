import { and, desc, eq, inArray, lt, ne, sql, type SQL } from "drizzle-orm";
import { conversationHref, MESSAGES_PAGE_SIZE } from "~/lib/messaging";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { conversationMembers, conversationReads, conversations, courses, enrolments, messages, users } from "../db/schema";
import { AppError } from "../errors";
import { markNotificationsReadByLink } from "../notifications";
import { conversationTopic, onlineUserIds, publish, userTopic } from "../realtime";
import { GROUP_ENROLMENT_STATUSES, memberConversationsWhere, messagingAreaOf } from "./policy";
import { ensureGroups, findReadable, personName, personOf, type Person } from "./shared";

/** Reading messaging: the list of conversations, one conversation, and having read it. */

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
