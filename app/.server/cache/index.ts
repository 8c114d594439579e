import type { Database, DatabaseHandle } from "../db/client";

/**
 * In-memory copies of the few reads every page repeats and that change a few times a day: the
 * institute's identity, categories, levels, the published catalogue, the about page. Each entry
 * names the tables it was read from; a trigger on those tables (drizzle/0004) sends
 * NOTIFY campus_changes with the table's name when a transaction changing them commits, and every
 * process sharing the database drops the entries that read it. Only data every visitor sees may
 * go here: never a user's own rows (docs/decisions/0019-render-path.md).
 *
 * Capabilities call `cachedRead(db, key, tables, load)`: with a cache attached to `db` (the app
 * attaches one to its database), a hit costs nothing; without one (tests calling a capability
 * directly), `load` runs every time.
 */

export const CHANGES_CHANNEL = "campus_changes";

/** A safety net: an entry is read again after this long even if no notification came. */
const DEFAULT_TTL_MS = 5 * 60 * 1000;
/** Keys can come from URLs (a course's slug): the oldest entries go past this many. */
const MAX_ENTRIES = 1000;

interface Entry {
  value: Promise<unknown>;
  tables: readonly string[];
  expires: number;
}

export interface ReferenceCache {
  read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T>;
  /** Drops what was read from `table` (the change listener calls it). */
  invalidate(table: string): void;
  clear(): void;
  /** Called after each invalidation (the page cache of anonymous visitors follows). */
  onInvalidate(listener: (table: string | null) => void): void;
  stats(): { entries: number; hits: number; misses: number };
}

export function createReferenceCache(options: { ttlMs?: number; now?: () => number } = {}): ReferenceCache {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** Bumped on every change of a table: a read that started before a change is not kept. */
  const versions = new Map<string, number>();
  const listeners: ((table: string | null) => void)[] = [];
  let hits = 0;
  let misses = 0;
  let epoch = 0;

  const versionOf = (tables: readonly string[]) => tables.map((table) => versions.get(table) ?? 0).join(",");

  return {
    read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
      const entry = entries.get(key);
      if (entry && entry.expires > now()) {
        hits++;
        return entry.value as Promise<T>;
      }
      misses++;
      const before = versionOf(tables);
      const startEpoch = epoch;
      // Promise.resolve: a Drizzle query is a lazy thenable that runs again at every `await`; the
      // entry must hold its one result, not the query.
      const value = Promise.resolve(load());
      const stored: Entry = { value, tables, expires: now() + ttlMs };
      entries.delete(key);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(key, stored);
      value.then(
        () => {
          // Changed while it was being read: the next reader reads again.
          if ((versionOf(tables) !== before || epoch !== startEpoch) && entries.get(key) === stored) entries.delete(key);
        },
        () => {
          if (entries.get(key) === stored) entries.delete(key);
        },
      );
      return value;
    },
    invalidate(table: string) {
      versions.set(table, (versions.get(table) ?? 0) + 1);
      for (const [key, entry] of entries) if (entry.tables.includes(table)) entries.delete(key);
      for (const listener of listeners) listener(table);
    },
    clear() {
      epoch++;
      entries.clear();
      for (const listener of listeners) listener(null);
    },
    onInvalidate(listener) {
      listeners.push(listener);
    },
    stats: () => ({ entries: entries.size, hits, misses }),
  };
}

const caches = new WeakMap<Database, ReferenceCache>();

/**
 * Gives `handle.db` a reference cache kept in step with the database through NOTIFY; `stop()`
 * detaches it. A lost listening connection clears everything (changes may have been missed).
 */
export async function attachReferenceCache(handle: Pick<DatabaseHandle, "db" | "listen">, cache = createReferenceCache()) {
  const unlisten = await handle.listen(CHANGES_CHANNEL, (table) => cache.invalidate(table), { onGap: () => cache.clear() });
  caches.set(handle.db, cache);
  return {
    cache,
    stop: async () => {
      caches.delete(handle.db);
      await unlisten();
    },
  };
}

/** `load()` once per change of `tables` when `db` has a cache, every time otherwise. */
export function cachedRead<T>(db: Database, key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.read(key, tables, load) : load();
}
