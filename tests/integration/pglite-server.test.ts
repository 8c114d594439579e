import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listCategories } from "~/.server/catalogue";
import { openDatabase, PGLITE_OPTIONS, type DatabaseHandle } from "~/.server/db/client";
import { notify } from "~/.server/db/notifications";
import { PREPARED_STATEMENTS_KEPT, servePglite, type PgliteServer } from "~/.server/db/pglite-server";
import { categories } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";

/**
 * PGlite served over the wire protocol to several pooled connections, as the app workers use it
 * (app/.server/db/pglite-server.ts): answers never cross, transactions keep the session, a client
 * gone mid-transaction is rolled back, LISTEN/NOTIFY reaches exactly the listening connections,
 * and the whole app (migrations, Drizzle, the LISTEN connection) works through it.
 */

let pglite: PGlite;
let server: PgliteServer;
let socketDir: string;
const pools: pg.Pool[] = [];

function pool(max = 5) {
  const created = new pg.Pool({ connectionString: server.url, max });
  pools.push(created);
  return created;
}

beforeAll(async () => {
  pglite = await PGlite.create("memory://", PGLITE_OPTIONS);
  socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-db-"));
  server = await servePglite(pglite, { socketDir });
  await pglite.exec("create table items (id serial primary key, name text not null)");
});

afterAll(async () => {
  await Promise.all(pools.map((created) => created.end().catch(() => {})));
  await server?.close();
  await pglite?.close();
  fs.rmSync(socketDir, { recursive: true, force: true });
});

describe("a pool of connections to one PGlite", () => {
  it("never gives one client another's answer, under 300 concurrent parameterised queries", async () => {
    const shared = pool(8);
    const results = await Promise.all(
      Array.from({ length: 300 }, async (_, n) => {
        const { rows } = await shared.query("select $1::int * 2 as doubled, $2::text as label", [n, `q${n}`]);
        return rows[0].doubled === n * 2 && rows[0].label === `q${n}`;
      }),
    );
    expect(results.every(Boolean)).toBe(true);
  });

  it("keeps a transaction to its client: others wait, and a rollback undoes only its own work", async () => {
    const a = await pool(1).connect();
    const b = pool(1);
    await a.query("begin");
    await a.query("insert into items (name) values ('from A')");
    let bDone = false;
    const bInsert = b.query("insert into items (name) values ('from B')").then(() => (bDone = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(bDone).toBe(false); // waits for A's transaction
    const inside = await a.query("select name from items order by id");
    expect(inside.rows.map((row) => row.name)).toEqual(["from A"]);
    await a.query("rollback");
    a.release();
    await bInsert;
    const { rows } = await b.query("select name from items order by id");
    expect(rows.map((row) => row.name)).toEqual(["from B"]);
  });

  it("rolls back the transaction of a client that vanished, and serves the others", async () => {
    const lost = new pg.Client({ connectionString: server.url });
    lost.on("error", () => {}); // its connection is cut below, on purpose
    await lost.connect();
    await lost.query("begin");
    await lost.query("insert into items (name) values ('lost')");
    const waiting = pool(1).query("select count(*)::int as n from items where name = 'lost'");
    (lost as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    const { rows } = await waiting;
    expect(rows[0].n).toBe(0);
    expect(pglite.isInTransaction()).toBe(false);
  });

  it("reports errors to the client that caused them, and the session goes on", async () => {
    const shared = pool(2);
    await expect(shared.query("select * from missing_table")).rejects.toThrow(/missing_table/);
    const { rows } = await shared.query("select 1 as one");
    expect(rows[0].one).toBe(1);
  });

  it("keeps nothing of the answers it served: the process holding PGlite does not grow with the traffic", async () => {
    // The primary process serves every query of the app: it once kept each answer parsed, until its heap ran out.
    v8.setFlagsFromString("--expose-gc");
    const collectGarbage = vm.runInNewContext("gc") as () => void;
    const shared = pool(4);
    const serve = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () =>
          shared.query("select n, repeat('x', 100) as padding from generate_series(1, $1::int) as n", [200]),
        ),
      );
    await serve(200);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let round = 0; round < 10; round++) await serve(200);
    collectGarbage();
    // 2,000 answers of 200 rows of ≈ 100 bytes: ≈ 40 MB of text alone, more once parsed.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(15 * 1024 * 1024);
  });

  it("delivers NOTIFY to the connections listening on the channel, and only while they listen", async () => {
    const listener = new pg.Client({ connectionString: server.url });
    const bystander = new pg.Client({ connectionString: server.url });
    await Promise.all([listener.connect(), bystander.connect()]);
    const heard: string[] = [];
    const overheard: string[] = [];
    listener.on("notification", (message) => heard.push(`${message.channel}:${message.payload}`));
    bystander.on("notification", (message) => overheard.push(`${message.channel}:${message.payload}`));
    await listener.query("LISTEN course_changes");
    await bystander.query("LISTEN other_channel");
    await pool(1).query("select pg_notify('course_changes', '12')");
    await vi.waitFor(() => expect(heard).toEqual(["course_changes:12"]));
    await listener.query("UNLISTEN course_changes");
    await pool(1).query("select pg_notify('course_changes', '13')");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(["course_changes:12"]);
    expect(overheard).toEqual([]);
    await Promise.all([listener.end(), bystander.end()]);
  });
});

describe("named statements, shared by the connections of the one session", () => {
  const preparedNames = async () =>
    (await pglite.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map((row) => row.name);

  it("lets every connection prepare the same name for the same text, and runs it for each", async () => {
    const [a, b] = [new pg.Client({ connectionString: server.url }), new pg.Client({ connectionString: server.url })];
    await Promise.all([a.connect(), b.connect()]);
    const double = (client: pg.Client, n: number) => client.query({ name: "double", text: "select $1::int * 2 as d", values: [n] });
    expect((await double(a, 1)).rows).toEqual([{ d: 2 }]);
    // On one PGlite session, b's Parse would fail ("already exists") if it reached PGlite.
    expect((await double(b, 5)).rows).toEqual([{ d: 10 }]);
    expect((await double(a, 7)).rows).toEqual([{ d: 14 }]);
    expect((await preparedNames()).filter((name) => name === "double")).toEqual(["double"]);
    // Another text under a name the session holds is refused, and the name keeps its statement.
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    await expect(c.query({ name: "double", text: "select $1::int * 3 as d", values: [1] })).rejects.toThrow(/already exists/);
    expect((await double(b, 4)).rows).toEqual([{ d: 8 }]);
    await c.end();
    await Promise.all([a.end(), b.end()]);
  });

  it("keeps at most PREPARED_STATEMENTS_KEPT, and prepares a dropped one again when a connection runs it", async () => {
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    const run = (n: number) => client.query({ name: `plus_${n}`, text: `select $1::int + ${n} as total`, values: [1] });
    expect((await run(0)).rows).toEqual([{ total: 1 }]);
    for (let n = 1; n <= PREPARED_STATEMENTS_KEPT + 5; n++) await run(n);
    const kept = await preparedNames();
    expect(kept.length).toBeLessThanOrEqual(PREPARED_STATEMENTS_KEPT);
    expect(kept).not.toContain("plus_0");
    // pg believes plus_0 is still prepared on its connection and sends only Bind and Execute.
    expect((await run(0)).rows).toEqual([{ total: 1 }]);
    expect(await preparedNames()).toContain("plus_0");
    await client.end();
  });

  it("keeps a statement a client closed for the others to use again", async () => {
    const [a, b] = [new pg.Client({ connectionString: server.url }), new pg.Client({ connectionString: server.url })];
    await Promise.all([a.connect(), b.connect()]);
    const triple = (client: pg.Client) => client.query({ name: "triple", text: "select $1::int * 3 as t", values: [2] });
    await triple(a);
    await triple(b);
    // A value pg cannot send makes it close the statement (Close) on that connection.
    const unsendable = {
      toPostgres: () => {
        throw new Error("unsendable");
      },
    };
    await expect(b.query({ name: "triple", text: "select $1::int * 3 as t", values: [unsendable] })).rejects.toThrow(/unsendable/);
    expect((await triple(a)).rows).toEqual([{ t: 6 }]);
    await Promise.all([a.end(), b.end()]);
  });
});

describe("the app's database layer through the socket", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: server.url, dataDir: "memory://", kind: "pglite" });
    await seedDatabase(handle.db);
  });
  afterAll(async () => handle?.close());

  it("names its parameterised statements, so PGlite keeps them prepared", async () => {
    const first = await listCategories(handle.db);
    const again = await handle.db.select({ slug: categories.slug }).from(categories).where(eq(categories.slug, "tech"));
    await handle.db.select({ slug: categories.slug }).from(categories).where(eq(categories.slug, "tech"));
    expect(again).toEqual([{ slug: "tech" }]);
    expect(first.length).toBeGreaterThan(0);
    const { rows } = await pglite.query<{ name: string; statement: string }>(
      "select name, statement from pg_prepared_statements where name like 'campus_%' and statement like '%\"categories\".\"slug\" = $1%'",
    );
    expect(rows).toHaveLength(1);
  });

  it("migrates, seeds, reads, and hears its own tables' changes through LISTEN", async () => {
    expect((await listCategories(handle.db)).length).toBeGreaterThan(0);
    const changes: string[] = [];
    const stop = await handle.listen("campus_changes", (table) => changes.push(table));
    await handle.db.update(categories).set({ name: "Technologies" }).where(eq(categories.slug, "tech"));
    await vi.waitFor(() => expect(changes).toContain("categories"));
    await notify(handle.db, "campus_changes", "manual");
    await vi.waitFor(() => expect(changes).toContain("manual"));
    await stop();
  });
});
