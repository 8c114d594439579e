import { and, desc, eq, gt, ne } from "drizzle-orm";
import { UAParser } from "ua-parser-js";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { sessions } from "../db/schema";
import { AppError } from "../errors";

/** The signed-in user and the session of the request, marked "cet appareil" and never revoked from the list. */
export interface SessionActor {
  id: string;
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

export const deviceMessages = {
  currentSession: "Pour fermer cette session, utilisez « Se déconnecter de cet appareil ».",
  sessionGone: "Cette session n'existe plus.",
} as const;

/** "Chrome sur Android", "Firefox sur Windows", "Safari sur iOS"; "Appareil inconnu" when unreadable. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Appareil inconnu";
  const result = UAParser(userAgent);
  const browser = result.browser.name?.replace(/^Mobile /, "");
  const os = result.os.name;
  if (browser && os) return `${browser} sur ${os}`;
  if (browser) return browser;
  if (os) return `Navigateur sur ${os}`;
  return "Appareil inconnu";
}

/** A phone, tablet or computer, for the icon beside a session. */
export function deviceKind(userAgent: string | null | undefined): "mobile" | "desktop" {
  if (!userAgent) return "desktop";
  const type = UAParser(userAgent).device.type;
  return type === "mobile" || type === "tablet" || type === "wearable" ? "mobile" : "desktop";
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

/**
 * Ends one of the acting user's own other sessions. Another user's session id matches nothing (not
 * found); the current session is ended through the sign-out scopes instead (a conflict).
 */
export async function revokeUserSession(
  db: Database,
  actor: SessionActor,
  sessionId: string,
  meta: { ipAddress?: string | null; userAgent?: string | null } = {},
): Promise<void> {
  if (sessionId === actor.sessionId) throw AppError.conflict(deviceMessages.currentSession, "current_session");
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, actor.id), ne(sessions.id, actor.sessionId)))
      .returning({ userAgent: sessions.userAgent });
    if (removed.length === 0) throw AppError.notFound(deviceMessages.sessionGone, "session_gone");
    await recordActivity(tx as unknown as Database, {
      userId: actor.id,
      type: "session_revoked",
      ipAddress: meta.ipAddress ?? null,
      userAgent: meta.userAgent ?? null,
      details: { device: describeDevice(removed[0]!.userAgent) },
    });
  });
}
