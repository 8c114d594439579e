import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { notify } from "../db/notifications";
import { jobs } from "../db/schema";

/** Workers LISTEN here; the payload is the queue's name. */
export const JOBS_CHANNEL = "campus_jobs";

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /**
   * Once-only: a job with this key is created once, ever; a second enqueue (a double click, two
   * processes, a replayed request) adds nothing and returns the first job's id.
   */
  key?: string;
  now?: Date;
}

/**
 * Adds a job to `queue`. Pass a transaction as `db` to tie the job to the change that asks for it:
 * it exists (and workers are woken) only if that transaction commits.
 */
export async function enqueueJob(
  db: Database,
  queue: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<{ id: number; created: boolean }> {
  const now = options.now ?? new Date();
  const values = {
    queue,
    payload: payload ?? null,
    key: options.key ?? null,
    runAt: options.runAt ?? now,
    maxAttempts: options.maxAttempts ?? 5,
    createdAt: now,
  };
  const [inserted] = await db.insert(jobs).values(values).onConflictDoNothing({ target: jobs.key }).returning({ id: jobs.id });
  if (!inserted) {
    const [existing] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.key, options.key!));
    if (!existing) throw new Error(`job key ${options.key} conflicted but was not found`);
    return { id: existing.id, created: false };
  }
  await notify(db, JOBS_CHANNEL, queue);
  return { id: inserted.id, created: true };
}

export interface ClaimedJob {
  id: number;
  queue: string;
  payload: unknown;
  /** This attempt's number, from 1. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Takes up to `limit` due jobs of `queues` for `worker` until `now + leaseMs`: pending jobs whose
 * time has come, and running jobs whose lease expired (their process died). One statement; rows
 * another process is claiming at the same moment are skipped, never taken twice.
 */
export async function claimJobs(
  db: Database,
  options: { queues: string[]; worker: string; limit: number; leaseMs: number; now: Date },
): Promise<ClaimedJob[]> {
  if (!options.queues.length || options.limit < 1) return [];
  const now = options.now.toISOString();
  const leaseEnd = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const queues = sql.join(
    options.queues.map((queue) => sql`${queue}`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string | number; queue: string; payload: unknown; attempts: number; max_attempts: number }>(
    db,
    sql`
    update ${jobs} set status = 'running', attempts = attempts + 1, locked_by = ${options.worker},
      locked_until = ${leaseEnd}::timestamptz
    where id in (
      select id from ${jobs}
      where queue in (${queues})
        and ((status = 'pending' and run_at <= ${now}::timestamptz) or (status = 'running' and locked_until <= ${now}::timestamptz))
      order by run_at, id
      limit ${options.limit}
      for update skip locked
    )
    returning id, queue, payload, attempts, max_attempts`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    queue: row.queue,
    payload: row.payload,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
  }));
}

/** Pushes the lease of a long job further (its worker is alive); false if the job was lost. */
export async function extendJobLease(db: Database, options: { id: number; worker: string; leaseMs: number; now: Date }) {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: new Date(options.now.getTime() + options.leaseMs) })
    .where(and(eq(jobs.id, options.id), eq(jobs.lockedBy, options.worker), eq(jobs.status, "running")))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Marks a job done, if this worker still holds it. */
export async function completeJob(db: Database, options: { id: number; worker: string; now: Date }) {
  await db
    .update(jobs)
    .set({ status: "done", finishedAt: options.now, lockedBy: null, lockedUntil: null, lastError: null })
    .where(and(eq(jobs.id, options.id), eq(jobs.lockedBy, options.worker), eq(jobs.status, "running")));
}

/** The delay before the next attempt: 30 s, 2 min, 8 min... at most 6 hours. */
export function retryDelayMs(attempt: number) {
  return Math.min(30_000 * 4 ** Math.max(0, attempt - 1), 6 * 60 * 60 * 1000);
}

/**
 * Records a failed attempt: the job is retried later, or marked failed after its last attempt.
 * `release` (the process is stopping) gives the job back at once without counting the attempt.
 */
export async function failJob(
  db: Database,
  options: { id: number; worker: string; now: Date; error: unknown; release?: boolean },
): Promise<"retry" | "failed"> {
  const message = options.error instanceof Error ? options.error.message : String(options.error);
  const held = and(eq(jobs.id, options.id), eq(jobs.lockedBy, options.worker), eq(jobs.status, "running"));
  if (options.release) {
    await db
      .update(jobs)
      .set({ status: "pending", attempts: sql`greatest(${jobs.attempts} - 1, 0)`, runAt: options.now, lockedBy: null, lockedUntil: null })
      .where(held);
    return "retry";
  }
  const [job] = await db.select({ attempts: jobs.attempts, maxAttempts: jobs.maxAttempts }).from(jobs).where(held);
  if (!job) return "retry";
  const final = job.attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set(
      final
        ? { status: "failed", finishedAt: options.now, lockedBy: null, lockedUntil: null, lastError: message.slice(0, 2000) }
        : {
            status: "pending",
            runAt: new Date(options.now.getTime() + retryDelayMs(job.attempts)),
            lockedBy: null,
            lockedUntil: null,
            lastError: message.slice(0, 2000),
          },
    )
    .where(held);
  return final ? "failed" : "retry";
}

/** Deletes finished jobs (done or failed) older than `before`, keyed ones included. */
export async function pruneFinishedJobs(db: Database, before: Date): Promise<number> {
  const deleted = await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ["done", "failed"]), lt(jobs.finishedAt, before)))
    .returning({ id: jobs.id });
  return deleted.length;
}
