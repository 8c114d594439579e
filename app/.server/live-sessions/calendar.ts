import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { isRole } from "~/lib/roles";
import type { Database } from "../db/client";
import { calendarFeeds, users } from "../db/schema";
import { renderCalendar, type CalendarEvent } from "./ical";
import { sessionEndsAt } from "./policy";
import type { LiveSession } from "./common";
import { getSessionForCalendar, listCalendarSessions } from "./read";

/**
 * Calendars: an .ics file per session, and a private feed per person (the sessions of their
 * courses) that a phone's calendar subscribes to by its secret address. Revoking gives a new
 * address; the old one answers "not found" from then on.
 */

const newToken = () => randomBytes(24).toString("base64url");

function eventOf(session: LiveSession, courseTitle: string, publicUrl: string): CalendarEvent {
  const lines = [`Cours : ${courseTitle}`];
  if (session.description) lines.push("", session.description);
  lines.push("", `Rejoindre (10 minutes avant le début) : ${publicUrl}/dashboard/sessions`);
  return {
    uid: `live-session-${session.id}@${new URL(publicUrl).hostname}`,
    title: session.status === "cancelled" ? `Annulée : ${session.title}` : session.title,
    description: lines.join("\n"),
    startsAt: session.startsAt,
    endsAt: sessionEndsAt(session),
    url: `${publicUrl}/dashboard/sessions`,
    cancelled: session.status === "cancelled",
    // Seconds since creation: grows with every change, as calendars expect.
    sequence: Math.max(0, Math.floor((session.updatedAt.getTime() - session.createdAt.getTime()) / 1000)),
    updatedAt: session.updatedAt,
  };
}

/** One session's .ics, for whoever may see the session. */
export async function sessionIcs(db: Database, actor: Actor, id: number, publicUrl: string, now = new Date()): Promise<string> {
  const { session, courseTitle } = await getSessionForCalendar(db, actor, id);
  return renderCalendar({ name: session.title, events: [eventOf(session, courseTitle, publicUrl)], now });
}

/** The actor's feed token, created on first use (a page view only reads it after that). */
export async function getCalendarFeedToken(db: Database, actor: Actor, now = new Date()): Promise<string> {
  const read = async () =>
    (await db.select({ token: calendarFeeds.token }).from(calendarFeeds).where(eq(calendarFeeds.userId, actor.id)))[0];
  const existing = await read();
  if (existing) return existing.token;
  // Two first views at once: one insert wins, both read its token.
  await db.insert(calendarFeeds).values({ userId: actor.id, token: newToken(), createdAt: now }).onConflictDoNothing();
  return (await read())!.token;
}

/** A new secret address: the old one stops working at once. */
export async function revokeCalendarFeed(db: Database, actor: Actor, now = new Date()): Promise<string> {
  const token = newToken();
  await db
    .insert(calendarFeeds)
    .values({ userId: actor.id, token, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { token, createdAt: now } });
  return token;
}

/** The feed behind a secret address, or null (unknown, revoked, or a closed account). */
export async function calendarFeedIcs(db: Database, token: string, publicUrl: string, now = new Date()): Promise<string | null> {
  if (!/^[\w-]{20,64}$/.test(token)) return null;
  const [owner] = await db
    .select({ id: users.id, role: users.role, banned: users.banned })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.token, token));
  if (!owner || owner.banned) return null;
  const actor: Actor = { id: owner.id, role: isRole(owner.role) ? owner.role : null };
  const rows = await listCalendarSessions(db, actor, now);
  return renderCalendar({
    name: "Mes sessions en direct",
    events: rows.map((row) => eventOf(row.session, row.courseTitle, publicUrl)),
    now,
  });
}
