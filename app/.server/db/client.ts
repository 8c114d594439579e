import { createHash } from "node:crypto";
import path from "node:path";
import { PGlite, types, type Transaction } from "@electric-sql/pglite";
// Searches ignore accents (campus_fold, drizzle/0009): PostgreSQL's contrib unaccent, as PGlite packages it.
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { SQL } from "drizzle-orm";
import pg from "pg";
import { acquireDataDirLock } from "./lock";
import { keepQueryPlans } from "./pglite-plans";
import { assertChannelName, createPgListener } from "./notifications";
import * as schema from "./schema";
import type { Database } from "./database";

export type { Database } from "./database";

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  /**
   * Calls `onPayload` for every NOTIFY on `channel` (`notify()` in ./notifications.ts), from any
   * process sharing the database. Resolves once listening; the function it gives stops it.
   * `onGap` runs when notifications may have been missed (the listening connection was lost and
   * opened again): a cache should then forget everything.
   */
  listen(channel: string, onPayload: (payload: string) => void, options?: { onGap?: () => void }): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The embedded PGlite, when it runs in this process (to serve it to other processes). */
  pglite?: PGlite;
}

/**
 * PostgreSQL's default shared_buffers (128 MB) is sized for a server of its own; inside our
 * process it is resident memory from the start (the process measured 450 MB idle with it, 250 MB
 * with 16 MB). The catalogue's working set is small and PGlite's files go through the operating
 * system's page cache anyway. See docs/performance.md.
 */
export const PGLITE_OPTIONS = { postgresqlconf: ["shared_buffers=16MB"], extensions: { unaccent } };

/**
 * Drizzle reads dates, timestamps, intervals and a few arrays as PGlite's text (it converts them
 * itself) and says so on every query with a `parsers` option; PGlite merges that into a copy of
 * its own 318 parsers at each query, a fifth of the JavaScript time of a page's queries. The PGlite
 * opened here holds drizzle's text parsers as its own, and drops the option when it asks nothing
 * else.
 */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const asText = (value: string) => value;
const drizzleTextParsers = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((type) => [type, asText]));

function withoutDrizzleParsers<Query extends PGlite["query"]>(query: Query): Query {
  return ((text: string, params?: unknown[], options?: Parameters<Query>[2]) =>
    query(
      text,
      params,
      options?.parsers && Object.keys(options.parsers).every((type) => type in drizzleTextParsers)
        ? { ...options, parsers: undefined }
        : options,
    )) as Query;
}

function dropDrizzleParsers(client: PGlite) {
  client.query = withoutDrizzleParsers(client.query.bind(client));
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction((tx: Transaction) => {
      tx.query = withoutDrizzleParsers(tx.query);
      return callback(tx);
    });
}

/**
 * A pg client that names each parameterised statement after its text, so that the server keeps it
 * prepared on the connection: the next run of the same query skips parsing, and once PostgreSQL
 * trusts a generic plan, planning too. Our PGlite server shares these names between its
 * connections (./pglite-server.ts): on PGlite, planning was most of a page's database time
 * (docs/performance.md). Statements without parameters (BEGIN, LISTEN...) stay unnamed.
 */
class NamedStatementsClient extends pg.Client {}
const unnamedQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
NamedStatementsClient.prototype.query = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
  const query =
    typeof config === "string" ? { text: config } : (config as { text?: unknown; name?: unknown; values?: unknown; submit?: unknown });
  const parameters = Array.isArray(values) ? values : query?.values;
  if (
    typeof query?.text === "string" &&
    !query.name &&
    typeof query.submit !== "function" &&
    Array.isArray(parameters) &&
    parameters.length
  ) {
    const name = `campus_${createHash("sha1").update(query.text).digest("base64url")}`;
    return unnamedQuery.call(this, { ...query, name }, values, callback);
  }
  return unnamedQuery.call(this, config, values, callback);
} as typeof pg.Client.prototype.query;

// The server bundle moves this file, so migrations are found from the project root (npm's cwd).
const migrationsFolder = path.resolve("drizzle");

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite stored in `dataDir` (or in memory when
 * `dataDir` is "memory://", as the tests do), then applies the committed migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** false: the schema is already migrated (a server process whose primary migrated it). */
  migrate?: boolean;
  /** What /healthz calls a server reached by URL: "pglite" for the PGlite of our primary process. */
  kind?: DatabaseHandle["kind"];
  /** A server reached by URL: name parameterised statements (NamedStatementsClient). On by default for "pglite". */
  namedStatements?: boolean;
  /** PGlite only: the data folder to start from, as `dumpDataDir()` gave it (the tests' migrated template). */
  loadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // connectionTimeoutMillis: an unreachable server fails the health check instead of hanging.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5_000,
      ...((options.namedStatements ?? options.kind === "pglite") ? { Client: NamedStatementsClient } : {}),
    });
    // An idle client losing its connection (server restart, database dropped) emits on the pool;
    // unhandled, that would crash the process. The pool replaces the client on next use.
    pool.on("error", (error) => console.error(`PostgreSQL : connexion perdue (${error.message}).`));
    // A client checked out of the pool (a transaction) has no listener of the pool's on it, and
    // its lost connection would crash the process the same way. Its queries fail on their own,
    // and the pool discards it when it comes back.
    pool.on("connect", (client) => client.on("error", () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    try {
      if (options.migrate !== false) await migratePg(db as never, { migrationsFolder });
    } catch (error) {
      await pool.end();
      throw error;
    }
    const listener = createPgListener(options.databaseUrl);
    return {
      db,
      kind: options.kind ?? "postgres",
      ping: async () => void (await pool.query("select 1")),
      listen: listener.listen,
      close: async () => {
        await listener.close();
        if (!pool.ended) await pool.end();
      },
    };
  }

  const inMemory = options.dataDir.startsWith("memory://");
  const release = inMemory ? () => {} : acquireDataDirLock(options.dataDir);
  // "memory://" rather than no folder: PGlite drops the options (extensions) when its first argument is undefined.
  const client = new PGlite(inMemory ? "memory://" : path.join(options.dataDir, "pglite"), {
    ...PGLITE_OPTIONS,
    parsers: drizzleTextParsers,
    loadDataDir: options.loadDataDir,
  });
  dropDrizzleParsers(client);
  try {
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(db as never, { migrationsFolder });
    // After the migrations, whose statements run once.
    keepQueryPlans(client);
    return {
      db,
      kind: "pglite",
      pglite: client,
      ping: async () => void (await client.query("select 1")),
      // One PostgreSQL session in this process: its own NOTIFYs reach its listeners.
      listen: async (channel, onPayload) => {
        assertChannelName(channel);
        const unlisten = await client.listen(channel, onPayload);
        return async () => {
          if (!client.closed) await unlisten();
        };
      },
      close: async () => {
        try {
          if (!client.closed) await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    await client.close().catch(() => {});
    release();
    throw error;
  }
}

/** The rows of a raw SQL statement (`db.execute`), the same for PGlite and node-postgres. */
export async function queryRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
