import { describe, expect, it } from "vitest";
import { createUnreadCounts } from "./unread-cache";

describe("createUnreadCounts", () => {
  it("shares one read per user until that user's notifications change", async () => {
    const counts = createUnreadCounts();
    const reads: string[] = [];
    const load = (userId: string, value: number) => async () => {
      reads.push(userId);
      return value;
    };
    expect(await Promise.all([counts.read("ada", load("ada", 2)), counts.read("ada", load("ada", 9))])).toEqual([2, 2]);
    expect(await counts.read("bintou", load("bintou", 0))).toBe(0);
    counts.invalidate("bintou");
    expect(await counts.read("ada", load("ada", 9))).toBe(2);
    counts.invalidate("ada");
    expect(await counts.read("ada", load("ada", 3))).toBe(3);
    expect(reads).toEqual(["ada", "bintou", "ada"]);
  });

  it("does not keep a read that a change overtook", async () => {
    const counts = createUnreadCounts();
    let finish!: (value: number) => void;
    const slow = counts.read("ada", () => new Promise<number>((resolve) => (finish = resolve)));
    counts.invalidate("ada");
    finish(1);
    expect(await slow).toBe(1);
    expect(await counts.read("ada", async () => 2)).toBe(2);
  });

  it("forgets everyone on '*' and after its lifetime, and keeps no failed read", async () => {
    let clock = 0;
    const counts = createUnreadCounts({ ttlMs: 1000, now: () => clock });
    await counts.read("ada", async () => 1);
    await counts.read("bintou", async () => 1);
    counts.invalidate("*");
    expect(counts.size).toBe(0);
    expect(await counts.read("ada", async () => 2)).toBe(2);
    clock = 1000;
    expect(await counts.read("ada", async () => 3)).toBe(3);
    await expect(counts.read("cheick", async () => Promise.reject(new Error("base indisponible")))).rejects.toThrow("base indisponible");
    expect(await counts.read("cheick", async () => 4)).toBe(4);
  });
});
