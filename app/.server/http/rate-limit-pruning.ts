import type { Database } from "../db/client";
import { pruneRateLimits } from "../rate-limit";
import { startPeriodicTask, type PeriodicTask } from "./periodic-task";

/** How often the server deletes finished rate-limit counters. */
export const RATE_LIMIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Counters whose window started longer ago than this are deleted. The longest window in use is
 * one hour (sign-up, contact, newsletter); deleting a finished window changes nothing, since the
 * next attempt would start a new one anyway.
 */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

export type RateLimitPruning = PeriodicTask;

/**
 * Keeps `rate_limits` from growing without end: prunes once now, then every `intervalMs`. Several
 * processes pruning the same table is harmless (a plain DELETE).
 */
export function startRateLimitPruning(
  db: Database,
  options: {
    intervalMs?: number;
    retentionMs?: number;
    now?: () => Date;
    onError?: (error: unknown) => void;
  } = {},
): RateLimitPruning {
  const retentionMs = options.retentionMs ?? RATE_LIMIT_RETENTION_MS;
  const now = options.now ?? (() => new Date());
  return startPeriodicTask(() => pruneRateLimits(db, new Date(now().getTime() - retentionMs)), {
    intervalMs: options.intervalMs ?? RATE_LIMIT_PRUNE_INTERVAL_MS,
    onError: options.onError ?? ((error) => console.error("Nettoyage des compteurs de limitation impossible :", error)),
  });
}
