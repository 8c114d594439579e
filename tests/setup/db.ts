import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "~/.server/db/client";
import { seedDatabase } from "~/.server/db/seed";

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by DATABASE_URL, dropped again by `close()`.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  let handle: DatabaseHandle;
  let dropDatabase = async () => {};
  if (serverUrl) {
    const name = `campus_test_${randomBytes(6).toString("hex")}`;
    await onPostgresServer(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" });
    dropDatabase = () => onPostgresServer(`drop database if exists ${name} with (force)`);
  } else {
    handle = await openDatabase({ dataDir: "memory://" });
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
