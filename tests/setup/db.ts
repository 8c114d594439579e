import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/.server/db/client";
import { seedDatabase } from "~/.server/db/seed";

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by DATABASE_URL, dropped again by `close()`. Both start
 * from the run's migrated template (./database-template.ts).
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const template = inject("testDatabaseTemplate");
  let handle: DatabaseHandle;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const name = `campus_test_${randomBytes(6).toString("hex")}`;
    await onPostgresServer(`create database ${name} template ${template}`);
    handle = await openDatabase({ databaseUrl: serverDatabaseUrl(name), dataDir: "memory://" });
    dropDatabase = () => onPostgresServer(`drop database if exists ${name} with (force)`);
  } else {
    handle = await openDatabase({ dataDir: "memory://", loadDataDir: new Blob([fs.readFileSync(template)]) });
  }
  if (options.seed ?? true) await seedDatabase(handle.db);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await dropDatabase();
    },
  };
}

/** The URL of database `name` on the PostgreSQL server of DATABASE_URL. */
export function serverDatabaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `statement` on the PostgreSQL server of DATABASE_URL, outside any test database (create, drop). */
export async function onPostgresServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
