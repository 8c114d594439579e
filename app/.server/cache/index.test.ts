import { describe, expect, it } from "vitest";
import { createReferenceCache } from "./index";

describe("createReferenceCache", () => {
  it("shares one read between callers until a table it read changes", async () => {
    const cache = createReferenceCache();
    let reads = 0;
    const load = async () => ++reads;
    expect(await Promise.all([cache.read("k", ["levels"], load), cache.read("k", ["levels"], load)])).toEqual([1, 1]);
    cache.invalidate("categories");
    expect(await cache.read("k", ["levels"], load)).toBe(1);
    cache.invalidate("levels");
    expect(await cache.read("k", ["levels"], load)).toBe(2);
  });

  it("runs a lazy query once, however many callers await it", async () => {
    const cache = createReferenceCache();
    let runs = 0;
    // What a Drizzle query builder is: nothing runs until `then`, and each `then` runs it again.
    const query = { then: (resolve: (rows: string[]) => void) => resolve([`run ${++runs}`]) } as unknown as Promise<string[]>;
    const first = await cache.read("k", ["levels"], () => query);
    expect(await cache.read("k", ["levels"], () => query)).toBe(first);
    expect(await cache.read("k", ["levels"], () => query)).toBe(first);
    expect(runs).toBe(1);
  });

  it("does not keep a read that a change overtook", async () => {
    const cache = createReferenceCache();
    let finish!: (value: string) => void;
    const slow = cache.read("k", ["courses"], () => new Promise<string>((resolve) => (finish = resolve)));
    cache.invalidate("courses"); // committed while the old rows were on their way
    finish("avant");
    expect(await slow).toBe("avant");
    expect(await cache.read("k", ["courses"], async () => "après")).toBe("après");
  });

  it("forgets failed reads and expired entries", async () => {
    let clock = 0;
    const cache = createReferenceCache({ ttlMs: 1000, now: () => clock });
    await expect(cache.read("k", ["t"], async () => Promise.reject(new Error("base indisponible")))).rejects.toThrow();
    expect(await cache.read("k", ["t"], async () => "ok")).toBe("ok");
    clock = 1001;
    expect(await cache.read("k", ["t"], async () => "relu")).toBe("relu");
  });
});
