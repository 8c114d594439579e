import { index, integer, jsonb, pgEnum, pgTable, bigserial, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The platform's background work (app/.server/jobs), shared by every server process through the
 * database so that it runs once however many processes start.
 */

/**
 * Periodic tasks ("files.sweep" every hour...). A process runs one when it is due and it takes the
 * lease (one UPDATE, so only one process wins); a process that dies mid-run leaves the task due,
 * and its lease expires so another takes it over.
 */
export const jobSchedules = pgTable("job_schedules", {
  name: text("name").primaryKey(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull(),
  lockedBy: text("locked_by"),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastError: text("last_error"),
});

export const jobStatus = pgEnum("job_status", ["pending", "running", "done", "failed"]);

/**
 * A durable queue: a job survives restarts, is claimed by one process at a time (FOR UPDATE SKIP
 * LOCKED), retried with a growing delay when it fails, and taken over when its lease expires.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    queue: text("queue").notNull(),
    payload: jsonb("payload").$type<unknown>().notNull(),
    /** Makes the job once-only: a second enqueue with the same key adds nothing. */
    key: text("key").unique(),
    status: jobStatus("status").notNull().default("pending"),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [index("jobs_due_idx").on(table.status, table.queue, table.runAt), index("jobs_finished_idx").on(table.finishedAt)],
);
