/**
 * Owner: the contact capability (app/.server/contact).
 */
import { index, integer, pgEnum, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/** new: nobody answered yet; answered: a reply left by e-mail; archived: put away (answered or not). */
export const contactMessageStatus = pgEnum("contact_message_status", ["new", "answered", "archived"]);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    interest: text("interest"),
    ipAddress: text("ip_address"),
    status: contactMessageStatus("status").notNull().default("new"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("contact_messages_status_idx").on(table.status, table.createdAt)],
);

/**
 * The administrators' answers to a message, sent by e-mail (queue "contact.mail"). `token` comes
 * from the form the administrator filled: a second submit of the same form adds nothing.
 */
export const contactReplies = pgTable(
  "contact_replies",
  {
    id: serial("id").primaryKey(),
    messageId: integer("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    token: text("token").notNull().unique(),
    /** When the mail left (null: still in the queue). */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("contact_replies_message_idx").on(table.messageId, table.createdAt)],
);
