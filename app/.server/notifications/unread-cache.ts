import type { Database, DatabaseHandle } from "../db/client";

/**
 * Every signed-in page shows the bell's count of unread notifications: one statement per page, for
 * a figure that changes a few times a day. This keeps it per user and per process until it may
 * have changed: a trigger (drizzle/0020) sends NOTIFY campus_notifications with the user's id when
 * one of their notifications is added, read or deleted, whoever writes it, and every process drops
 * that user's entry. A lost listening connection drops everything; 30 s at most anyway.
 *
 * An entry holds its read from the moment it starts, so a change notified while the read runs
 * drops it too: a count read before a change is never kept after the change is known.
 */
export const UNREAD_CHANNEL = "campus_notifications";

const DEFAULT_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export interface UnreadCounts {
  read(userId: string, load: () => Promise<number>): Promise<number>;
  /** A user's id, or "*" for everyone (as the trigger sends them). */
  invalidate(userId: string): void;
  clear(): void;
  readonly size: number;
}

export function createUnreadCounts(options: { ttlMs?: number; now?: () => number } = {}): UnreadCounts {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: Promise<number>; until: number }>();
  return {
    read(userId, load) {
      const entry = entries.get(userId);
      if (entry && entry.until > now()) return entry.value;
      const stored = { value: load(), until: now() + ttlMs };
      entries.delete(userId);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(userId, stored);
      stored.value.catch(() => {
        if (entries.get(userId) === stored) entries.delete(userId);
      });
      return stored.value;
    },
    invalidate(userId) {
      if (userId === "*") entries.clear();
      else entries.delete(userId);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

const caches = new WeakMap<Database, UnreadCounts>();

/** Gives `handle.db` unread counts kept in step with the database through NOTIFY; `stop()` detaches them. */
export async function attachUnreadCounts(handle: Pick<DatabaseHandle, "db" | "listen">, counts = createUnreadCounts()) {
  const unlisten = await handle.listen(UNREAD_CHANNEL, (userId) => counts.invalidate(userId), { onGap: () => counts.clear() });
  caches.set(handle.db, counts);
  return {
    counts,
    stop: async () => {
      caches.delete(handle.db);
      await unlisten();
    },
  };
}

/** `load()` once per change of the user's notifications when `db` has unread counts attached, every time otherwise. */
export function cachedUnreadCount(db: Database, userId: string, load: () => Promise<number>): Promise<number> {
  const counts = caches.get(db);
  return counts ? counts.read(userId, load) : load();
}

/**
 * Drops the user's count in this process at once, after a change made here (the user's own "mark
 * as read"), so that the page they go to next cannot beat the notification.
 */
export function forgetUnreadCount(db: Database, userId: string) {
  caches.get(db)?.invalidate(userId);
}
