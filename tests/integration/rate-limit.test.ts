import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { rateLimits } from "~/.server/db/schema";
import { consumeRateLimit, pruneRateLimits, resetRateLimit } from "~/.server/rate-limit";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});

const t0 = new Date("2026-03-01T10:00:00.000Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("consumeRateLimit", () => {
  it("allows `limit` attempts per window, then refuses with the time left", async () => {
    const options = { limit: 3, windowSeconds: 60 };
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await consumeRateLimit(handle.db, "count", { ...options, now: at(i) }));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.count)).toEqual([1, 2, 3, 4, 5]);
    expect(results[0]!.retryAfterSeconds).toBe(0);
    // Window opened at t0 and lasts 60 s; the 4th attempt came at t0+3 s.
    expect(results[3]!.retryAfterSeconds).toBe(57);
    expect(results[4]!.retryAfterSeconds).toBe(56);
  });

  it("keeps keys apart", async () => {
    const options = { limit: 1, windowSeconds: 60, now: t0 };
    expect((await consumeRateLimit(handle.db, "apart:a", options)).allowed).toBe(true);
    expect((await consumeRateLimit(handle.db, "apart:b", options)).allowed).toBe(true);
    expect((await consumeRateLimit(handle.db, "apart:a", options)).allowed).toBe(false);
  });

  it("opens a new window once the previous one has ended", async () => {
    const options = { limit: 2, windowSeconds: 60 };
    await consumeRateLimit(handle.db, "expiry", { ...options, now: at(0) });
    await consumeRateLimit(handle.db, "expiry", { ...options, now: at(10) });
    expect((await consumeRateLimit(handle.db, "expiry", { ...options, now: at(59) })).allowed).toBe(false);
    // The window is fixed: it started at t0, not at the last attempt.
    const fresh = await consumeRateLimit(handle.db, "expiry", { ...options, now: at(60) });
    expect(fresh).toEqual({ allowed: true, retryAfterSeconds: 0, count: 1 });
    expect((await consumeRateLimit(handle.db, "expiry", { ...options, now: at(61) })).allowed).toBe(true);
    const refused = await consumeRateLimit(handle.db, "expiry", { ...options, now: at(62) });
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(58);
  });

  it("never over-allows under concurrent attempts", async () => {
    const options = { limit: 5, windowSeconds: 3600, now: t0 };
    const results = await Promise.all(Array.from({ length: 40 }, () => consumeRateLimit(handle.db, "concurrent", options)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("can be reset and pruned", async () => {
    const options = { limit: 1, windowSeconds: 60, now: t0 };
    await consumeRateLimit(handle.db, "reset", options);
    expect((await consumeRateLimit(handle.db, "reset", options)).allowed).toBe(false);
    await resetRateLimit(handle.db, "reset");
    expect((await consumeRateLimit(handle.db, "reset", options)).allowed).toBe(true);

    await consumeRateLimit(handle.db, "old", { ...options, now: new Date("2020-01-01T00:00:00Z") });
    expect(await pruneRateLimits(handle.db, new Date("2021-01-01T00:00:00Z"))).toBe(1);
    const keys = (await handle.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key);
    expect(keys).not.toContain("old");
    expect(keys).toContain("reset");
  });

  it("rejects nonsensical options", async () => {
    await expect(consumeRateLimit(handle.db, "bad", { limit: 0, windowSeconds: 60 })).rejects.toThrow(RangeError);
    await expect(consumeRateLimit(handle.db, "bad", { limit: 1, windowSeconds: 0 })).rejects.toThrow(RangeError);
  });
});
