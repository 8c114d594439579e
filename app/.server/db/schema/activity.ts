/**
 * Owner: the activity capability (app/.server/activity): others record an event by calling
 * recordActivity, never by inserting here.
 */
import { index, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/** What happened to an account, shown to its owner on the profile's "Activité" tab. */
export const activityEvents = pgTable(
  "activity_events",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    details: jsonb("details").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("activity_events_user_created_idx").on(table.userId, table.createdAt)],
);
