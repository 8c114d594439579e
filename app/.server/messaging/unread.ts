import { and, desc, eq, sql } from "drizzle-orm";
import { conversationHref } from "~/lib/messaging";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { conversationReads, conversations, courses, messages, users } from "../db/schema";
import { memberConversationsWhere, messagingAreaOf, readableConversationsWhere } from "./policy";
import { personName } from "./shared";

/** Unread messages, what the sidebar's « Messagerie » badge and the new-message toast show. */

/** Messages from others after how far `actor` read, in all their conversations (the badge). */
export async function countUnreadMessages(db: Database, actor: Actor): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(conversationReads, and(eq(conversationReads.conversationId, conversations.id), eq(conversationReads.userId, actor.id)))
    .where(
      and(
        memberConversationsWhere(actor),
        sql`${messages.senderId} is distinct from ${actor.id}`,
        sql`${messages.id} > coalesce(${conversationReads.lastReadMessageId}, 0)`,
      ),
    );
  return row?.count ?? 0;
}

export type MessageAlert = { conversationId: number; messageId: number; title: string; excerpt: string; href: string };

const excerptOf = (body: string, max = 140) => (body.length > max ? `${body.slice(0, max - 1)}…` : body);

/**
 * The latest message of a conversation `actor` may read, if it is someone else's and unread: what
 * the toast says. Null otherwise (read meanwhile, their own, or a conversation they may not read).
 */
export async function latestUnreadMessage(db: Database, actor: Actor, conversationId: number): Promise<MessageAlert | null> {
  const [row] = await db
    .select({
      messageId: messages.id,
      body: messages.body,
      senderId: messages.senderId,
      senderName: personName,
      kind: conversations.kind,
      courseTitle: courses.title,
      lastRead: conversationReads.lastReadMessageId,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .leftJoin(courses, eq(courses.id, conversations.courseId))
    .leftJoin(users, eq(users.id, messages.senderId))
    .leftJoin(conversationReads, and(eq(conversationReads.conversationId, conversations.id), eq(conversationReads.userId, actor.id)))
    .where(and(eq(messages.conversationId, conversationId), readableConversationsWhere(actor)))
    .orderBy(desc(messages.id))
    .limit(1);
  if (!row || row.senderId === actor.id || row.messageId <= (row.lastRead ?? 0)) return null;
  const sender = row.senderName || "Un membre";
  return {
    conversationId,
    messageId: row.messageId,
    title: row.kind === "course" ? `Nouveau message dans le groupe « ${row.courseTitle ?? ""} »` : `Nouveau message de ${sender}`,
    excerpt: row.kind === "course" ? `${sender} : ${excerptOf(row.body)}` : excerptOf(row.body),
    href: conversationHref(conversationId, messagingAreaOf(actor)),
  };
}
