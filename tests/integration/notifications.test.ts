import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { notify } from "~/.server/db/notifications";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});

describe("LISTEN/NOTIFY through the database handle", () => {
  it("delivers committed notifications to every listener of the channel, none after a rollback", async () => {
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await handle.listen("test_channel", (payload) => first.push(payload));
    const stopSecond = await handle.listen("test_channel", (payload) => second.push(payload));
    await handle.db
      .transaction(async (tx) => {
        await notify(tx, "test_channel", "annulé");
        throw new Error("rollback");
      })
      .catch(() => {});
    await handle.db.transaction(async (tx) => notify(tx, "test_channel", "course:12"));
    await vi.waitFor(() => expect(second).toEqual(["course:12"]));
    expect(first).toEqual(["course:12"]);

    await stopFirst();
    await notify(handle.db, "test_channel", "course:13");
    await vi.waitFor(() => expect(second).toEqual(["course:12", "course:13"]));
    expect(first).toEqual(["course:12"]);
    await stopSecond();
  });

  it("refuses channel names that would need quoting", async () => {
    await expect(handle.listen("Drop Table", () => {})).rejects.toThrow(/invalid notification channel/);
    await expect(notify(handle.db, "a;b")).rejects.toThrow(/invalid notification channel/);
  });

  it.skipIf(!process.env.DATABASE_URL)("starts and stops listening on several channels at once, one statement at a time", async () => {
    let running = 0;
    let most = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] !== "string" || !/^(UN)?LISTEN /.test(args[0])) return (query as (...a: unknown[]) => unknown).apply(this, args);
      running += 1;
      most = Math.max(most, running);
      return (query.apply(this, args as never) as unknown as Promise<unknown>).finally(() => (running -= 1));
    });
    try {
      const received: string[] = [];
      const channels = ["test_together_a", "test_together_b", "test_together_c"];
      const stops = await Promise.all(
        channels.map((channel) => handle.listen(channel, (payload) => received.push(`${channel}:${payload}`))),
      );
      for (const channel of channels) await notify(handle.db, channel, "1");
      await vi.waitFor(() => expect(received.sort()).toEqual(channels.map((channel) => `${channel}:1`)));
      await Promise.all(stops.map((stop) => stop()));
      expect(most).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)("opens a lost listening connection again and reports the gap", async () => {
    const received: string[] = [];
    let gaps = 0;
    const stop = await handle.listen("test_gap", (payload) => received.push(payload), { onGap: () => gaps++ });
    await handle.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
    );
    await vi.waitFor(() => expect(gaps).toBe(1), { timeout: 10_000 });
    await notify(handle.db, "test_gap", "after");
    await vi.waitFor(() => expect(received).toEqual(["after"]));
    await stop();
  });
});
