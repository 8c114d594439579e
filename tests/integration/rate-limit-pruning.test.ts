import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database, DatabaseHandle } from "~/.server/db/client";
import { rateLimits } from "~/.server/db/schema";
import { loadEnv } from "~/.server/env";
import { createCampusApp } from "~/.server/http/app";
import { RATE_LIMIT_RETENTION_MS, startRateLimitPruning } from "~/.server/http/rate-limit-pruning";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(rateLimits);
});

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);
const keys = async () => (await handle.db.select({ key: rateLimits.key }).from(rateLimits).orderBy(rateLimits.key)).map((row) => row.key);

async function insertCounters() {
  await handle.db.insert(rateLimits).values([
    { key: "old:2-days", count: 3, windowStartedAt: hoursAgo(48) },
    { key: "old:25-hours", count: 1, windowStartedAt: hoursAgo(25) },
    { key: "recent:2-hours", count: 4, windowStartedAt: hoursAgo(2) },
    { key: "recent:now", count: 1, windowStartedAt: new Date() },
  ]);
}

describe("startRateLimitPruning", () => {
  it("prunes at once, keeping counters younger than the retention", async () => {
    expect(RATE_LIMIT_RETENTION_MS).toBeGreaterThanOrEqual(60 * 60 * 1000); // longer than any window in use
    await insertCounters();
    const pruning = startRateLimitPruning(handle.db);
    await pruning.current;
    expect(await keys()).toEqual(["recent:2-hours", "recent:now"]);
    await pruning.stop();
  });

  it("prunes again on every interval, and not after stop()", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const pruning = startRateLimitPruning(handle.db, { intervalMs: 1000 });
      await pruning.current;
      await insertCounters();
      vi.advanceTimersByTime(1000);
      await pruning.current;
      expect(await keys()).toEqual(["recent:2-hours", "recent:now"]);

      await pruning.stop();
      await handle.db.insert(rateLimits).values({ key: "old:after-stop", count: 1, windowStartedAt: hoursAgo(30) });
      vi.advanceTimersByTime(5000);
      await pruning.current;
      expect(await keys()).toContain("old:after-stop");
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs an error instead of throwing, and keeps its timer", async () => {
    // A database whose every statement fails (gone, or its connection lost).
    const broken = {
      delete() {
        throw new Error("connection terminated");
      },
    } as unknown as Database;
    const errors: unknown[] = [];
    const pruning = startRateLimitPruning(broken, {
      intervalMs: 20,
      onError: (error) => {
        errors.push(error);
        throw new Error("a broken logger");
      },
    });
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2));
    await pruning.stop();
    const count = errors.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(errors.length).toBe(count);
  });
});

describe("the Campus app", () => {
  it("prunes old counters at start-up, and close() stops the timer", async () => {
    await insertCounters();
    const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", LOG_LEVEL: "silent" });
    const intervals = new Set<unknown>();
    const realSetInterval = globalThis.setInterval;
    const realClearInterval = globalThis.clearInterval;
    const setSpy = vi.spyOn(globalThis, "setInterval").mockImplementation(((fn: () => void, ms?: number) => {
      const timer = realSetInterval(fn, ms);
      intervals.add(timer);
      return timer;
    }) as typeof setInterval);
    const clearSpy = vi.spyOn(globalThis, "clearInterval").mockImplementation(((timer?: NodeJS.Timeout) => {
      intervals.delete(timer);
      realClearInterval(timer);
    }) as typeof clearInterval);
    try {
      const campus = await createCampusApp({ env, database: handle });
      await vi.waitFor(async () => expect(await keys()).toEqual(["recent:2-hours", "recent:now"]));
      const pruneTimers = [...intervals] as NodeJS.Timeout[];
      expect(pruneTimers.length).toBeGreaterThanOrEqual(1);
      // Never keeps the process alive.
      for (const timer of pruneTimers) expect(timer.hasRef()).toBe(false);
      await campus.close();
      expect(intervals.size).toBe(0);
      // The caller's database is still the caller's: open.
      expect(await keys()).toHaveLength(2);
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
  });
});
