/**
 * Owner: the notifications capability (app/.server/notifications): what the bell shows, and each
 * person's choice of which notifications also come by e-mail.
 */
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * One notification for one person, written by the capability where it happened (payments,
 * certificates, forum, messaging, live sessions...) in the same transaction as its cause.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** One of app/lib/notifications.ts notificationKinds. */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** Where the notification leads: a path of the site ("/dashboard/paiements/ICEF-…"). */
    link: text("link"),
    /** Once-only per person ("payment:42:confirmed"): a replay or a double click notifies nothing twice. */
    key: text("key"),
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When its e-mail went (null: none, or not yet). */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("notifications_user_idx").on(table.userId, table.id),
    index("notifications_unread_idx")
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
    uniqueIndex("notifications_user_key_idx").on(table.userId, table.key),
    index("notifications_created_idx").on(table.createdAt),
  ],
);

/** A person's e-mail choice for one kind of notification; without a row, the kind's default applies. */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    email: boolean("email").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);
