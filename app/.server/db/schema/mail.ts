/**
 * Owner: the mail service (app/.server/mail).
 */
import { jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

/** Mails kept when no SMTP server is configured (SMTP_URL unset), so flows work on a laptop. */
export const mailOutbox = pgTable("mail_outbox", {
  id: serial("id").primaryKey(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  html: text("html").notNull(),
  text: text("text").notNull(),
  /** Names and sizes of the attachments (their bytes are not kept: the learner's space has them). */
  attachments: jsonb("attachments").$type<Array<{ filename: string; contentType: string; size: number }>>().notNull().default([]),
  /** Header lines besides From/To/Subject (Reply-To, List-Unsubscribe...). */
  headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
