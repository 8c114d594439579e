import { and, eq, sql } from "drizzle-orm";
import { formatWeekdayDateTime } from "~/lib/dates";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { liveSessionAttendance, liveSessionRegistrations, liveSessions, users } from "../db/schema";
import { AppError } from "../errors";
import { canJoinSession, canManageSessions, sessionEndsAt } from "./policy";
import { remindsAtOnce, sendSessionReminder } from "./reminders";
import { managedSession, sessionLink, visibleSession, type LiveRooms } from "./common";

/** Taking part: registering, joining the room, the recording. */

/** "S'inscrire" (register) or its undoing: the learner's reminders follow. */
export async function setSessionRegistration(db: Database, actor: Actor, id: number, register: boolean, now = new Date()) {
  const { session, follows } = await visibleSession(db, actor, id);
  if (!follows) throw AppError.forbidden("Seuls les apprenants du cours s'inscrivent à ses sessions.");
  if (register) {
    if (session.status !== "scheduled" || sessionEndsAt(session) <= now) throw AppError.conflict("Cette session est terminée ou annulée.");
    await db.insert(liveSessionRegistrations).values({ sessionId: id, userId: actor.id, registeredAt: now }).onConflictDoNothing();
    // Registered within the last hour: the 1 h reminder has left (or is leaving); this learner gets it now.
    if (remindsAtOnce(session, now)) {
      await sendSessionReminder(db, { sessionId: id, startsAt: session.startsAt.toISOString(), offset: "1h" }, now);
    }
  } else {
    await db
      .delete(liveSessionRegistrations)
      .where(and(eq(liveSessionRegistrations.sessionId, id), eq(liveSessionRegistrations.userId, actor.id)));
  }
  return { session, registered: register };
}

/**
 * "Rejoindre": the room's address for this person, inside the join window, for the course's
 * managers (moderators) and learners (viewers) only. A learner's join is recorded (attendance).
 */
export async function joinSession(db: Database, actor: Actor, id: number, rooms: LiveRooms, now = new Date()): Promise<string> {
  const { session, course, follows } = await visibleSession(db, actor, id);
  if (!canJoinSession(actor, course, follows, session, now)) {
    if (session.status === "cancelled") throw AppError.conflict("Cette session a été annulée.");
    if (now < session.startsAt)
      throw AppError.conflict(`La salle ouvre 10 minutes avant le début (${formatWeekdayDateTime(session.startsAt)}).`);
    throw AppError.conflict("Cette session est terminée.");
  }
  const manager = canManageSessions(actor, course);
  let url: string;
  if (session.provider === "bigbluebutton") {
    if (!rooms.bigBlueButton || !session.meetingId)
      throw AppError.unavailable("Les salles BigBlueButton ne sont plus configurées sur ce serveur.");
    const [person] = await db
      .select({ firstName: users.firstName, lastName: users.lastName, name: users.name })
      .from(users)
      .where(eq(users.id, actor.id));
    const fullName = `${person?.firstName ?? ""} ${person?.lastName ?? ""}`.trim() || person?.name || "Participant";
    await rooms.bigBlueButton.createMeeting(
      { ...session, meetingId: session.meetingId },
      { welcome: `Bienvenue dans « ${session.title} » (${course.title}).`, logoutUrl: `${rooms.publicUrl}${sessionLink}` },
    );
    url = rooms.bigBlueButton.joinUrl({ meetingId: session.meetingId }, { id: actor.id, fullName }, manager ? "moderator" : "viewer");
  } else {
    url = session.joinUrl!;
  }
  if (!manager || follows) {
    await db
      .insert(liveSessionAttendance)
      .values({ sessionId: id, userId: actor.id, firstJoinedAt: now, lastJoinedAt: now, joins: 1 })
      .onConflictDoUpdate({
        target: [liveSessionAttendance.sessionId, liveSessionAttendance.userId],
        set: { lastJoinedAt: now, joins: sql`${liveSessionAttendance.joins} + 1` },
      });
  }
  return url;
}

/** Asks BigBlueButton for the recording of an ended session and keeps its address. */
export async function refreshRecording(db: Database, actor: Actor, id: number, rooms: LiveRooms): Promise<string | null> {
  const { session } = await managedSession(db, actor, id);
  if (session.provider !== "bigbluebutton" || !session.meetingId || !rooms.bigBlueButton) return session.recordingUrl;
  const url = await rooms.bigBlueButton.recordingUrl({ meetingId: session.meetingId });
  if (url) await db.update(liveSessions).set({ recordingUrl: url }).where(eq(liveSessions.id, id));
  return url ?? session.recordingUrl;
}
