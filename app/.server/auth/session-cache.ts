import type { DatabaseHandle } from "../db/client";
import { isPastAbsoluteLifetime, type SessionUser } from "./session";

/**
 * Signed-in pages resolved their session on every request: Better Auth verifies the cookie's
 * signature and reads the session and its user (two queries). This keeps, per process, what a
 * session cookie resolved to for a few seconds, keyed by the exact signed cookie value Better
 * Auth accepted (so a hit needs the same secret token, and one person's entry can never answer
 * another's cookie).
 *
 * It follows the database: a trigger (drizzle/0004) sends NOTIFY campus_sessions with
 * "session:<id>" when a session row is updated or deleted (sign-out, revocation, refresh) and
 * "user:<id>" when a user row changes (role, name, deactivation), and every process drops the
 * matching entries. A lost listening connection drops everything. The idle timeout and the
 * absolute lifetime are checked on every hit.
 */

export const SESSIONS_CHANNEL = "campus_sessions";

const DEFAULT_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  user: SessionUser;
  sessionExpiresAt: number;
  sessionCreatedAt: Date;
  cachedUntil: number;
}

export interface SessionCache {
  get(cookie: string): SessionUser | null;
  set(cookie: string, user: SessionUser, session: { expiresAt: Date; createdAt: Date }): void;
  /** "session:<id>" or "user:<id>", as the trigger sends them. */
  invalidate(what: string): void;
  clear(): void;
  readonly size: number;
}

export function createSessionCache(options: { maxDays: number; ttlMs?: number; now?: () => number }): SessionCache {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return {
    get(cookie) {
      const entry = entries.get(cookie);
      if (!entry) return null;
      const at = now();
      if (
        entry.cachedUntil <= at ||
        entry.sessionExpiresAt <= at ||
        isPastAbsoluteLifetime(entry.sessionCreatedAt, options.maxDays, new Date(at))
      ) {
        entries.delete(cookie);
        return null;
      }
      return entry.user;
    },
    set(cookie, user, session) {
      entries.delete(cookie);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(cookie, {
        user,
        sessionExpiresAt: session.expiresAt.getTime(),
        sessionCreatedAt: session.createdAt,
        cachedUntil: now() + ttlMs,
      });
    },
    invalidate(what) {
      const [kind, id] = [what.slice(0, what.indexOf(":")), what.slice(what.indexOf(":") + 1)];
      for (const [cookie, entry] of entries) {
        if ((kind === "session" && entry.user.sessionId === id) || (kind === "user" && entry.user.id === id)) entries.delete(cookie);
      }
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}

/** Keeps `cache` in step with every process's changes to sessions and users. */
export async function followSessionChanges(handle: Pick<DatabaseHandle, "listen">, cache: SessionCache) {
  return handle.listen(SESSIONS_CHANNEL, (what) => cache.invalidate(what), { onGap: () => cache.clear() });
}
