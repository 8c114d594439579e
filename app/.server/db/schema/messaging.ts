/**
 * Owner: the messaging capability (app/.server/messaging): conversations, their messages, and how
 * far each person has read.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses } from "./courses";

/**
 * direct: two people (members in conversation_members, one conversation per pair: `pairKey`);
 * course: a course's group, whose members are, at every moment, its teacher and its active
 * learners (the messaging policy decides; no member rows to keep in step).
 */
export const conversationKind = pgEnum("conversation_kind", ["direct", "course"]);

export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    kind: conversationKind("kind").notNull(),
    /** The group's course (kind "course"). */
    courseId: integer("course_id").references(() => courses.id, { onDelete: "cascade" }),
    /** "<smaller user id>:<larger user id>" (kind "direct"). */
    pairKey: text("pair_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("conversations_course_idx").on(table.courseId),
    uniqueIndex("conversations_pair_idx").on(table.pairKey),
    check(
      "conversations_kind_check",
      sql`(${table.kind} = 'course' and ${table.courseId} is not null and ${table.pairKey} is null) or (${table.kind} = 'direct' and ${table.pairKey} is not null and ${table.courseId} is null)`,
    ),
  ],
);

/** The two people of a direct conversation. */
export const conversationMembers = pgTable(
  "conversation_members",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.userId] }), index("conversation_members_user_idx").on(table.userId)],
);

export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    senderId: text("sender_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    /** Given by the sending form: the same form sent twice (double click, replay) makes one message. */
    clientKey: text("client_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("messages_conversation_idx").on(table.conversationId, table.id),
    uniqueIndex("messages_client_key_idx").on(table.senderId, table.clientKey),
  ],
);

/** How far each person has read each conversation (unread = later messages from others). */
export const conversationReads = pgTable(
  "conversation_reads",
  {
    conversationId: integer("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastReadMessageId: integer("last_read_message_id").notNull().default(0),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.conversationId, table.userId] })],
);

/**
 * How long a message may stay unread before its person is told (one notification and one e-mail
 * per burst): minutes, or null for never. No row: the default of app/lib/messaging.ts.
 */
export const messageNoticeSettings = pgTable("message_notice_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  delayMinutes: integer("delay_minutes"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
