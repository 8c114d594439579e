import { sql } from "drizzle-orm";
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
