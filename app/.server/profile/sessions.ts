import { and, desc, eq, gt, ne } from "drizzle-orm";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { sessions } from "../db/schema";
import { describeDevice, deviceKind } from "./format";

export interface SessionActor {
  id: string;
  /** The session of the request, marked "cet appareil" and never revoked from the list. */
  sessionId: string;
}

export interface UserSession {
  id: string;
  device: string;
  kind: "mobile" | "desktop";
  ipAddress: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  current: boolean;
}

/** The acting user's live sessions, the current one first, then by last use. */
export async function listUserSessions(db: Database, actor: SessionActor, now: Date = new Date()): Promise<UserSession[]> {
  const rows = await db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, actor.id), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt));
  return rows
    .map((row) => ({
      id: row.id,
      device: describeDevice(row.userAgent),
      kind: deviceKind(row.userAgent),
      ipAddress: row.ipAddress,
      createdAt: row.createdAt,
      lastUsedAt: row.updatedAt,
      current: row.id === actor.sessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

export type RevokeSessionResult = { ok: true } | { ok: false; reason: "not_found" | "current" };

/**
 * Ends one of the acting user's own sessions. Another user's session id matches nothing; the
 * current session is ended through the sign-out scopes instead.
 */
export async function revokeUserSession(
  db: Database,
  actor: SessionActor,
  sessionId: string,
  meta: { ipAddress?: string | null; userAgent?: string | null } = {},
): Promise<RevokeSessionResult> {
  if (sessionId === actor.sessionId) return { ok: false, reason: "current" };
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, actor.id), ne(sessions.id, actor.sessionId)))
      .returning({ userAgent: sessions.userAgent });
    if (removed.length === 0) return { ok: false as const, reason: "not_found" as const };
    await recordActivity(tx as unknown as Database, {
      userId: actor.id,
      type: "session_revoked",
      ipAddress: meta.ipAddress ?? null,
      userAgent: meta.userAgent ?? null,
      details: { device: describeDevice(removed[0]!.userAgent) },
    });
    return { ok: true as const };
  });
}
