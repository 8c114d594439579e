import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { date, interval, numeric, pgTable, serial, timestamp } from "drizzle-orm/pg-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, PGLITE_OPTIONS, queryRows } from "~/.server/db/client";
import { keepQueryPlans } from "~/.server/db/pglite-plans";

/**
 * The in-process PGlite keeps each parameterised statement prepared, and with it its plan
 * (app/.server/db/pglite-plans.ts): same answers as unnamed statements, one statement per text,
 * the oldest dropped beyond the limit, and errors leaving the session usable. Drizzle's dates and
 * intervals, read as text by the app's PGlite itself rather than by a parser option on each query,
 * come back as drizzle gives them.
 */

let pglite: PGlite;

beforeEach(async () => {
  pglite = await PGlite.create("memory://", PGLITE_OPTIONS);
  await pglite.exec("create table items (id serial primary key, name text not null); insert into items (name) values ('a'), ('b'), ('c')");
});

afterEach(async () => {
  await pglite.close();
});

async function preparedStatements() {
  const { rows } = await pglite.query<{ statement: string; runs: number }>(
    "select statement, generic_plans + custom_plans as runs from pg_prepared_statements order by statement",
  );
  return rows;
}

const byId = "select name from items where id = $1";

describe("a PGlite that keeps query plans", () => {
  it("prepares a parameterised statement once and runs it again with each query's own values", async () => {
    keepQueryPlans(pglite);
    const names = [];
    for (const id of [1, 2, 3, 1, 2, 3, 2]) names.push((await pglite.query<{ name: string }>(byId, [id])).rows[0]?.name);
    expect(names).toEqual(["a", "b", "c", "a", "b", "c", "b"]);
    expect(await preparedStatements()).toEqual([{ statement: byId, runs: 7 }]);
  });

  it("keeps one statement per text and parameter types, and none for a query without parameters", async () => {
    keepQueryPlans(pglite);
    await pglite.query(byId, [1]);
    await pglite.query(byId, [1], { paramTypes: [23] });
    await pglite.query("select count(*) from items where name = $1", ["a"]);
    await pglite.query("select count(*) from items");
    expect((await preparedStatements()).map((row) => row.statement)).toEqual(["select count(*) from items where name = $1", byId, byId]);
  });

  it("gives the same rows, fields and counts as PGlite's own unnamed statements", async () => {
    const queries: [string, unknown[]][] = [
      ["select id, name, $2::text as label from items where id >= $1 order by id", [2, "x"]],
      ["update items set name = name || $1 where id <= $2 returning id", ["!", 2]],
      ["select $1::int[] as list, $2::jsonb as doc, $3::timestamptz as at", [[1, 2], { a: 1 }, new Date("2026-01-02T03:04:05Z")]],
    ];
    const plain = await PGlite.create("memory://", PGLITE_OPTIONS);
    await plain.exec("create table items (id serial primary key, name text not null); insert into items (name) values ('a'), ('b'), ('c')");
    keepQueryPlans(pglite);
    try {
      for (const [text, values] of queries) {
        for (let run = 0; run < 2; run++) {
          const [kept, unnamed] = [await pglite.query(text, values), await plain.query(text, values)];
          expect({ rows: kept.rows, fields: kept.fields, affectedRows: kept.affectedRows }).toEqual({
            rows: unnamed.rows,
            fields: unnamed.fields,
            affectedRows: unnamed.affectedRows,
          });
        }
      }
    } finally {
      await plain.close();
    }
  });

  it("drops the least recently used statement beyond the limit, and prepares it again when it comes back", async () => {
    keepQueryPlans(pglite, { kept: 2 });
    const texts = ["select $1::int + 1 as n", "select $1::int + 2 as n", "select $1::int + 3 as n"];
    await pglite.query(texts[0]!, [0]);
    await pglite.query(texts[1]!, [0]);
    await pglite.query(texts[0]!, [0]);
    await pglite.query(texts[2]!, [0]);
    expect((await preparedStatements()).map((row) => row.statement)).toEqual([texts[0], texts[2]]);
    expect((await pglite.query<{ n: number }>(texts[1]!, [10])).rows).toEqual([{ n: 12 }]);
    expect((await preparedStatements()).map((row) => row.statement)).toEqual([texts[1], texts[2]]);
  });

  it("leaves the session usable after a statement that does not parse and a value that does not bind", async () => {
    keepQueryPlans(pglite);
    await expect(pglite.query("selec name from items where id = $1", [1])).rejects.toThrow(/syntax error/);
    await expect(pglite.query(byId, ["pas un nombre"])).rejects.toThrow(/invalid input syntax for type integer/);
    expect((await pglite.query(byId, [2])).rows).toEqual([{ name: "b" }]);
    expect(await preparedStatements()).toEqual([{ statement: byId, runs: 1 }]);
  });

  it("runs kept statements inside transactions, and after one rolled back by an error", async () => {
    keepQueryPlans(pglite);
    await pglite.query(byId, [1]);
    // A statement first met in an aborted transaction is not prepared: it must be, the next time.
    const others = "select count(*)::int as n from items where name <> $1";
    await expect(
      pglite.transaction(async (tx) => {
        await tx.query("update items set name = $1 where id = $2", ["z", 1]);
        await tx.query(byId, ["pas un nombre"]).catch(() => {});
        await tx.query(others, ["a"]);
      }),
    ).rejects.toThrow(/current transaction is aborted/);
    expect((await pglite.query(byId, [1])).rows).toEqual([{ name: "a" }]);
    expect((await pglite.query(others, ["a"])).rows).toEqual([{ n: 2 }]);
    await pglite.transaction(async (tx) => {
      await tx.query("update items set name = $1 where id = $2", ["z", 1]);
    });
    expect((await pglite.query(byId, [1])).rows).toEqual([{ name: "z" }]);
  });

  it("forgets a statement whose table changed shape, and prepares it again", async () => {
    keepQueryPlans(pglite);
    const everything = "select * from items where id = $1";
    expect((await pglite.query(everything, [1])).rows).toEqual([{ id: 1, name: "a" }]);
    await pglite.exec("alter table items add column note text default 'n'");
    await expect(pglite.query(everything, [1])).rejects.toThrow(/cached plan must not change result type/);
    expect((await pglite.query(everything, [1])).rows).toEqual([{ id: 1, name: "a", note: "n" }]);
  });
});

describe("drizzle on the app's PGlite", () => {
  const samples = pgTable("samples", {
    id: serial().primaryKey(),
    at: timestamp({ withTimezone: true }).notNull(),
    plain: timestamp().notNull(),
    day: date().notNull(),
    span: interval().notNull(),
    amounts: numeric().array().notNull(),
  });
  const row = {
    at: new Date("2026-11-28T09:30:00.123Z"),
    plain: new Date("2026-11-28T10:00:00Z"),
    day: "2026-11-28",
    span: "1 day 02:00:00",
    amounts: ["1.50", "2"],
  };

  it("reads timestamps, dates, intervals and numeric arrays as drizzle converts them, in and out of transactions", async () => {
    const handle = await openDatabase({ dataDir: "memory://" });
    try {
      await handle.db.execute(
        sql`create table samples (id serial primary key, at timestamptz not null, plain timestamp not null, day date not null, span interval not null, amounts numeric[] not null)`,
      );
      await handle.db.insert(samples).values(row);
      const expected = [{ id: 1, ...row }];
      expect(await handle.db.select().from(samples)).toEqual(expected);
      expect(await handle.db.transaction((tx) => tx.select().from(samples))).toEqual(expected);
      expect(await queryRows(handle.db, sql`select at, day from samples`)).toEqual([
        { at: "2026-11-28 09:30:00.123+00", day: "2026-11-28" },
      ]);
    } finally {
      await handle.close();
    }
  });
});
