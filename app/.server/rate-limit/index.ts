import { eq, lt, sql } from "drizzle-orm";
import { plural } from "~/lib/format";
import type { Database } from "../db/client";
import { rateLimits } from "../db/schema";

/**
 * A fixed-window rate limiter whose counters live in PostgreSQL (`rate_limits`), so it holds
 * across several server processes and restarts.
 *
 * Each call counts one attempt for `key` with a single atomic statement
 * (INSERT ... ON CONFLICT (key) DO UPDATE ... RETURNING): the first attempt opens a window of
 * `windowSeconds`; attempts inside that window increment the counter; the first attempt after the
 * window has ended starts a new window at 1. Concurrent calls are serialised by the row lock that
 * the upsert takes, so `limit` is never exceeded.
 *
 * Keys are free-form: namespace them by purpose, e.g. `contact:ip:203.0.113.7`,
 * `contact:email:awa@example.ml`, `sign-in:email:...`. Refused attempts are counted too, so a
 * client hammering the endpoint stays refused until its window ends.
 *
 *   const { allowed, retryAfterSeconds } = await consumeRateLimit(db, `sign-in:email:${email}`, {
 *     limit: 5,
 *     windowSeconds: 15 * 60,
 *   });
 */
export interface RateLimitOptions {
  /** Attempts allowed per window. */
  limit: number;
  /** Length of the window in seconds. */
  windowSeconds: number;
  /** The current time; tests pass their own. */
  now?: Date;
}

export interface RateLimitResult {
  allowed: boolean;
  /** 0 when allowed; otherwise seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
  /** Attempts counted in the current window, this one included. */
  count: number;
}

export async function consumeRateLimit(db: Database, key: string, options: RateLimitOptions): Promise<RateLimitResult> {
  const { limit, windowSeconds } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError("limit must be a positive integer");
  if (!(windowSeconds > 0)) throw new RangeError("windowSeconds must be positive");
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const windowEndedBefore = new Date(now.getTime() - windowSeconds * 1000).toISOString();
  // Inside DO UPDATE, `rate_limits.*` are the stored (old) values for every SET expression.
  const expired = sql`${rateLimits.windowStartedAt} <= ${windowEndedBefore}::timestamptz`;

  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${nowIso}::timestamptz else ${rateLimits.windowStartedAt} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStartedAt: rateLimits.windowStartedAt });
  if (!row) throw new Error("rate limit upsert returned no row");

  if (row.count <= limit) return { allowed: true, retryAfterSeconds: 0, count: row.count };
  const windowEndsAt = row.windowStartedAt.getTime() + windowSeconds * 1000;
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEndsAt - now.getTime()) / 1000)),
    count: row.count,
  };
}

/**
 * How many attempts `key` has counted in its current window (0 when none, or the window has
 * ended), without counting one more.
 */
export async function peekRateLimit(db: Database, key: string, options: { windowSeconds: number; now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  if (!row || row.windowStartedAt.getTime() <= now.getTime() - options.windowSeconds * 1000) return 0;
  return row.count;
}

/** Gives back one attempt counted by `consumeRateLimit` (an attempt that turned out to be no failure). */
export async function releaseRateLimit(db: Database, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(eq(rateLimits.key, key));
}

/** Forgets the counter of `key` (e.g. after a successful sign-in). */
export async function resetRateLimit(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/**
 * Counters whose window started longer ago than this are pruned. The longest window in use is one
 * hour (sign-up, contact, newsletter); deleting a finished window changes nothing, since the next
 * attempt would start a new one anyway.
 */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Deletes counters whose window started before `before` (the "rate-limits.prune" schedule). */
export async function pruneRateLimits(db: Database, before: Date): Promise<number> {
  const deleted = await db.delete(rateLimits).where(lt(rateLimits.windowStartedAt, before)).returning({ key: rateLimits.key });
  return deleted.length;
}

/** "3 minutes", "1 minute", "2 heures": a wait in French words, rounded up to the minute. */
export function formatRetryAfter(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  if (minutes < 120) return plural(minutes, "minute", "minutes");
  return plural(Math.ceil(minutes / 60), "heure", "heures");
}
