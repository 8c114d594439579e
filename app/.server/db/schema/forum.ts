/**
 * Owner: the forum capability (app/.server/forum): threads, their replies, likes and reports.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * A thread: the post that opens it (title, text, category, hashtags) and its counters, kept in
 * step with replies and likes in the same transactions. An author's account closing keeps their
 * posts (author null: "Compte supprimé").
 */
export const forumThreads = pgTable(
  "forum_threads",
  {
    id: serial("id").primaryKey(),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    /** One of app/lib/forum.ts forumCategories. */
    category: text("category").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** The post's #hashtags, lower-case, without "#". */
    tags: text("tags").array().notNull().default([]),
    pinned: boolean("pinned").notNull().default(false),
    /** No new replies. */
    locked: boolean("locked").notNull().default(false),
    /** Hidden by a moderator: only moderators and the author still see it. */
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: text("hidden_by").references(() => users.id, { onDelete: "set null" }),
    replyCount: integer("reply_count").notNull().default(0),
    likeCount: integer("like_count").notNull().default(0),
    /** The thread's creation or its latest reply: the list's order. */
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (table) => [
    index("forum_threads_list_idx").on(table.pinned, table.lastActivityAt),
    index("forum_threads_category_idx").on(table.category),
    index("forum_threads_author_idx").on(table.authorId),
    index("forum_threads_created_idx").on(table.createdAt),
    check("forum_threads_counts_check", sql`${table.replyCount} >= 0 and ${table.likeCount} >= 0`),
  ],
);

export const forumReplies = pgTable(
  "forum_replies",
  {
    id: serial("id").primaryKey(),
    threadId: integer("thread_id")
      .notNull()
      .references(() => forumThreads.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenBy: text("hidden_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (table) => [index("forum_replies_thread_idx").on(table.threadId, table.id)],
);

/** One like per person and thread: liking twice takes it back. */
export const forumLikes = pgTable(
  "forum_likes",
  {
    threadId: integer("thread_id")
      .notNull()
      .references(() => forumThreads.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.threadId, table.userId] })],
);

/** A reader's report of a thread or a reply, until an administrator deals with it. */
export const forumReports = pgTable(
  "forum_reports",
  {
    id: serial("id").primaryKey(),
    threadId: integer("thread_id")
      .notNull()
      .references(() => forumThreads.id, { onDelete: "cascade" }),
    /** The reply reported (null: the thread's own post). */
    replyId: integer("reply_id").references((): AnyPgColumn => forumReplies.id, { onDelete: "cascade" }),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    // One open report per person and post: reporting again changes nothing.
    uniqueIndex("forum_reports_once_idx")
      .on(table.reporterId, table.threadId, sql`coalesce(${table.replyId}, 0)`)
      .where(sql`${table.resolvedAt} is null`),
    index("forum_reports_open_idx")
      .on(table.createdAt)
      .where(sql`${table.resolvedAt} is null`),
  ],
);
