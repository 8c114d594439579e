import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";

/**
 * drizzle-orm's node-postgres transactions, as patched in patches/drizzle-orm+*.patch: a client
 * taken from the pool always goes back to it, and a client whose connection is in doubt goes back
 * with its error, so that the pool discards it instead of lending it again. Unpatched, a failed
 * `begin` (a connection lost just before) kept the client for ever; a pool of 10 then ran dry.
 */

/** A pool lending one fake client whose statements fail as `failing` says, recording what it receives. */
function fakePool(failing: (statement: string) => boolean) {
  const statements: string[] = [];
  const releases: Array<Error | undefined> = [];
  const client = {
    query: async (query: string | { text: string }) => {
      const text = typeof query === "string" ? query : query.text;
      statements.push(text);
      if (failing(text)) throw new Error(`Connection terminated unexpectedly (${text})`);
      return { rows: [], rowCount: 0, command: "", fields: [] };
    },
    release: (error?: Error) => void releases.push(error),
  };
  class OneClientPool extends pg.Pool {
    override connect(): never {
      return Promise.resolve(client) as never;
    }
  }
  return { db: drizzle(new OneClientPool()), statements, releases };
}

describe("node-postgres transactions (patched)", () => {
  it("gives the client back, marked broken, when begin fails", async () => {
    const { db, statements, releases } = fakePool((text) => text.startsWith("begin"));
    let ran = false;
    await expect(db.transaction(async () => void (ran = true))).rejects.toThrow(/begin/);
    expect(ran).toBe(false);
    expect(statements).toEqual(["begin"]); // no rollback of a transaction that never began
    expect(releases).toHaveLength(1);
    expect(releases[0]).toBeInstanceOf(Error);
  });

  it("gives the client back, marked broken, when the rollback fails, and throws the first error", async () => {
    const { db, releases } = fakePool((text) => text === "rollback");
    const failure = new Error("refusé");
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(releases).toHaveLength(1);
    expect(releases[0]?.message).toMatch(/rollback/);
  });

  it("gives a healthy client back as healthy, after a commit or a rollback", async () => {
    const { db, statements, releases } = fakePool(() => false);
    expect(await db.transaction(async () => "fait")).toBe("fait");
    await expect(
      db.transaction(async () => {
        throw new Error("annulé");
      }),
    ).rejects.toThrow("annulé");
    expect(statements).toEqual(["begin", "commit", "begin", "rollback"]);
    expect(releases).toEqual([undefined, undefined]);
  });
});
