import { sql } from "drizzle-orm";
import pg from "pg";
import type { Database } from "./database";

/**
 * PostgreSQL's LISTEN/NOTIFY between the processes sharing one database: caches invalidated
 * everywhere, queued jobs waking every worker, realtime messages fanned out. `notify()` inside a
 * transaction is delivered when it commits (and not at all if it rolls back). Listening goes
 * through `DatabaseHandle.listen` (./client.ts).
 */

/** Channel names are plain identifiers, so they never need quoting. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertChannelName(channel: string) {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel "${channel}" (lower-case letters, digits, _)`);
}

/** PostgreSQL refuses payloads of 8000 bytes or more: send ids, never whole records. */
export async function notify(db: Database, channel: string, payload = ""): Promise<void> {
  assertChannelName(channel);
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

type Listener = { onPayload: (payload: string) => void; onGap?: () => void };

/** How long to wait before opening a lost listening connection again (doubling up to 30 s). */
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 30_000;

/**
 * One dedicated connection per process LISTENs for every channel asked (a pooled connection
 * cannot: the pool hands it to other queries). A lost connection is opened again, with a growing
 * delay, and every listener's `onGap` runs once it is back.
 */
export function createPgListener(connectionString: string) {
  const channels = new Map<string, Set<Listener>>();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let lost = false;
  // One statement at a time on the listening connection: services start and stop listening
  // together, and pg will stop queueing a query sent while another runs.
  let statements: Promise<unknown> = Promise.resolve();
  const run = (connection: pg.Client, text: string) => {
    const result = statements.then(() => connection.query(text));
    statements = result.catch(() => {});
    return result;
  };

  const dispatch = (message: pg.Notification) => {
    for (const listener of channels.get(message.channel) ?? []) {
      try {
        listener.onPayload(message.payload ?? "");
      } catch (error) {
        console.error(`Notification ${message.channel} : erreur du destinataire`, error);
      }
    }
  };

  const reconnectLater = () => {
    if (closed || retryTimer) return;
    lost = true;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch(() => reconnectLater());
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
      next.on("notification", dispatch);
      next.on("error", (error) => console.error(`PostgreSQL : écoute des notifications interrompue (${error.message}).`));
      next.on("end", () => {
        if (client === next) client = undefined;
        reconnectLater();
      });
      try {
        await next.connect();
        for (const channel of channels.keys()) await next.query(`LISTEN ${channel}`);
      } catch (error) {
        await next.end().catch(() => {});
        throw error;
      }
      if (closed) {
        await next.end().catch(() => {});
        throw new Error("listener closed");
      }
      client = next;
      retryMs = RECONNECT_MIN_MS;
      if (lost) {
        lost = false;
        for (const listeners of channels.values()) for (const listener of listeners) listener.onGap?.();
      }
      return next;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async listen(channel: string, onPayload: (payload: string) => void, options: { onGap?: () => void } = {}) {
      assertChannelName(channel);
      if (closed) throw new Error("listener closed");
      const listener: Listener = { onPayload, onGap: options.onGap };
      let listeners = channels.get(channel);
      const first = !listeners;
      if (!listeners) channels.set(channel, (listeners = new Set()));
      listeners.add(listener);
      try {
        const connection = await connect();
        if (first) await run(connection, `LISTEN ${channel}`);
      } catch (error) {
        listeners.delete(listener);
        if (!listeners.size) channels.delete(channel);
        throw error;
      }
      return async () => {
        listeners.delete(listener);
        if (listeners.size || channels.get(channel) !== listeners) return;
        channels.delete(channel);
        if (client) await run(client, `UNLISTEN ${channel}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      channels.clear();
      await connecting?.catch(() => {});
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
