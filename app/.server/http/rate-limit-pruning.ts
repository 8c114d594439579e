import type { Database } from "../db/client";
import { pruneRateLimits } from "../rate-limit";

/** How often the server deletes finished rate-limit counters. */
export const RATE_LIMIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Counters whose window started longer ago than this are deleted. The longest window in use is
 * one hour (sign-up, contact, newsletter); deleting a finished window changes nothing, since the
 * next attempt would start a new one anyway.
 */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface RateLimitPruning {
  /** Stops the timer and waits for a prune in progress, so the database can close after it. */
  stop(): Promise<void>;
  /** The prune in progress (or the last one), settled when it ends; never rejects. */
  readonly current: Promise<void>;
}

/**
 * Keeps `rate_limits` from growing without end: prunes once now, then every `intervalMs`, on an
 * unref'd timer that never keeps the process alive. Errors are logged, never thrown; several
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
  const intervalMs = options.intervalMs ?? RATE_LIMIT_PRUNE_INTERVAL_MS;
  const retentionMs = options.retentionMs ?? RATE_LIMIT_RETENTION_MS;
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? ((error) => console.error("Nettoyage des compteurs de limitation impossible :", error));
  let stopped = false;
  let current: Promise<void> = Promise.resolve();

  const prune = () => {
    if (stopped) return;
    current = current.then(async () => {
      if (stopped) return;
      try {
        await pruneRateLimits(db, new Date(now().getTime() - retentionMs));
      } catch (error) {
        try {
          onError(error);
        } catch {
          // A failing logger must not crash the process either.
        }
      }
    });
  };

  prune();
  const timer = setInterval(prune, intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
    get current() {
      return current;
    },
  };
}
