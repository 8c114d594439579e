/**
 * Owner: the newsletter capability (app/.server/newsletter).
 */
import { pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";

export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  id: serial("id").primaryKey(),
  email: text("email").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
