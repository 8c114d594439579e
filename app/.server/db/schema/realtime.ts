/**
 * Owner: the realtime service (app/.server/realtime): who has a live connection open, in which
 * server process, so every process can tell whether a person is online.
 */
import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";

/**
 * One row per person and server process holding at least one of their WebSocket connections,
 * refreshed by the process's heartbeat; a row not refreshed for a while belongs to a process that
 * died, and no longer counts (and is swept).
 */
export const realtimePresence = pgTable(
  "realtime_presence",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    worker: text("worker").notNull(),
    connections: integer("connections").notNull(),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.worker] })],
);
