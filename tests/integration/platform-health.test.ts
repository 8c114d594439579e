import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { loadEnv } from "~/.server/env";
import { createCampusApp, type CampusApp } from "~/.server/http/app";
import { createTestDatabase, onPostgresServer } from "../setup/db";

/**
 * /healthz reports the database's state: 200 while it answers, 503 once it is gone — a closed
 * handle (PGlite) or, on PostgreSQL, a database dropped under the running app (which must not
 * crash the process: the pool's "error" event is handled).
 */

let server: Server | undefined;
let database: DatabaseHandle | undefined;
let campus: CampusApp | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  // The app's jobs and listeners stop before its database goes (they would go on polling a
  // dropped database, and keep the pool from ending).
  await campus?.close().catch(() => {});
  campus = undefined;
  await database?.close().catch(() => {});
  database = undefined;
});

async function startApp() {
  database = await createTestDatabase({ seed: false });
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", LOG_LEVEL: "silent" });
  campus = await createCampusApp({ env, database });
  server = campus.handler.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/healthz`, kind: database.kind };
}

describe("/healthz", () => {
  it("answers 200 with the database kind, never cached", async () => {
    const { url, kind } = await startApp();
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", database: kind });
  });

  it("answers 503 once the database is closed", async () => {
    const { url, kind } = await startApp();
    await database!.close();
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "error", database: kind });
  });

  it.runIf(process.env.DATABASE_URL)("answers 503 when the PostgreSQL database is dropped under it, and keeps running", async () => {
    const { url } = await startApp();
    expect((await fetch(url)).status).toBe(200); // a pooled connection is now open and idle
    await dropDatabaseUnder(database!);
    const response = await fetch(url);
    expect(response.status).toBe(503);
    expect((await fetch(url)).status).toBe(503); // still serving
  });

  it.runIf(process.env.DATABASE_URL)(
    "fails a transaction under way when its connection is lost, without crashing the process",
    async () => {
      await startApp();
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.on("uncaughtException", onUncaught);
      try {
        // A transaction's client is checked out of the pool: the pool's own "error" listener is not on it.
        const transaction = database!.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          await dropDatabaseUnder(database!);
          await new Promise((resolve) => setTimeout(resolve, 200)); // the connection's end arrives meanwhile
          await tx.execute(sql`select 1`);
        });
        await expect(transaction).rejects.toThrow();
        expect(uncaught).toEqual([]);
      } finally {
        process.off("uncaughtException", onUncaught);
      }
    },
  );
});

/** Drops the test database while the app's pool is still open (the handle's close() would end the pool first). */
async function dropDatabaseUnder(handle: DatabaseHandle) {
  const result = (await handle.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
  await onPostgresServer(`drop database ${result.rows[0]!.name} with (force)`);
}
