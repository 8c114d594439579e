import { and, eq, inArray } from "drizzle-orm";
import { MAX_SERIAL_ID } from "~/lib/limits";
import { conversationMembers, conversations, users } from "../db/schema";
import { type TopicRule } from "../realtime";
import { contactablePeopleWhere, conversationAudienceWhere, memberConversationsWhere, readableConversationsWhere } from "./policy";

/** Who may follow messaging's live topics. */

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
