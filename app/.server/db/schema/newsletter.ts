/**
 * Owner: the newsletter capability (app/.server/newsletter).
 */
import { integer, pgEnum, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * One row per address, ever: unsubscribing keeps the row (unsubscribed_at), subscribing again clears it.
 * Double opt-in: `pending_since` is set when an address is (re)subscribed and its confirmation mail
 * queued, and cleared by the signed link of that mail; only rows without it receive newsletters.
 * Null means confirmed, so the subscribers from before double opt-in stay confirmed with no backfill.
 */
export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  id: serial("id").primaryKey(),
  email: text("email").notNull().unique(),
  unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  pendingSince: timestamp("pending_since", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** sending: its batches are in the jobs queue; sent: every subscriber of the day it left was mailed. */
export const newsletterIssueStatus = pgEnum("newsletter_issue_status", ["sending", "sent"]);

/**
 * A newsletter an administrator wrote and sent. `token` comes from the compose form: the same form
 * sent twice is one newsletter.
 */
export const newsletterIssues = pgTable("newsletter_issues", {
  id: serial("id").primaryKey(),
  subject: text("subject").notNull(),
  body: text("body").notNull(),
  token: text("token").notNull().unique(),
  status: newsletterIssueStatus("status").notNull().default("sending"),
  authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

/** Who received which newsletter: a row is written before its mail leaves, so no one gets it twice. */
export const newsletterDeliveries = pgTable(
  "newsletter_deliveries",
  {
    issueId: integer("issue_id")
      .notNull()
      .references(() => newsletterIssues.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => newsletterSubscriptions.id, { onDelete: "cascade" }),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.issueId, table.subscriptionId] })],
);
