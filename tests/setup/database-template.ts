import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/.server/db/client";
import { onPostgresServer, serverDatabaseUrl } from "./db";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * What every test database starts from, migrated once for the run: on PGlite the file of a
     * dumped data folder, on the PostgreSQL server of DATABASE_URL a template database's name.
     */
    testDatabaseTemplate: string;
  }
}

/**
 * Vitest's global setup for the integration tests. Creating PGlite's cluster and applying the
 * migrations took 3 to 5 s for each of some 65 test files; loading a dumped data folder takes
 * well under one. The per-file database stays fresh: each test file still gets its own copy.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    const name = `campus_template_${randomBytes(6).toString("hex")}`;
    await onPostgresServer(`create database ${name}`);
    const handle = await openDatabase({ databaseUrl: serverDatabaseUrl(name), dataDir: "memory://" });
    // A template database accepts no copy while someone is connected to it.
    await handle.close();
    project.provide("testDatabaseTemplate", name);
    return () => onPostgresServer(`drop database if exists ${name} with (force)`);
  }
  const handle = await openDatabase({ dataDir: "memory://" });
  const dump = await handle.pglite!.dumpDataDir("none");
  await handle.close();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "campus-test-db-"));
  const file = path.join(folder, "migrated.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("testDatabaseTemplate", file);
  return () => fs.rmSync(folder, { recursive: true, force: true });
}
