import { and, eq } from "drizzle-orm";
import { formatWeekdayDateTime } from "~/lib/dates";
import type { Actor } from "../auth/actor";
import { canManageCourse } from "../courses/policy";
import type { Database } from "../db/client";
import { liveSessions } from "../db/schema";
import { AppError, validate } from "../errors";
import { notifyUser } from "../notifications";
import { canChangeSession } from "./policy";
import {
  courseFor,
  followersOf,
  managedSession,
  roomFields,
  sessionFormSchema,
  sessionLink,
  type LiveRooms,
  type LiveSession,
} from "./common";
import { enqueueReminders } from "./reminders";

/** Planning: scheduling, moving and cancelling a session (its learners told, its reminders following). */

/**
 * Schedules a session for one of the actor's courses: its learners are told (bell, and e-mail
 * as they chose), and the reminders are queued for 24 h and 1 h before.
 */
export async function scheduleSession(
  db: Database,
  actor: Actor,
  input: unknown,
  rooms: LiveRooms,
  now = new Date(),
): Promise<LiveSession> {
  const data = validate(sessionFormSchema, input);
  const course = await courseFor(db, data.courseId);
  if (!course || !canManageCourse(actor, course)) throw AppError.invalid({ courseId: "Choisissez un de vos cours." });
  if (data.startsAt <= now) throw AppError.invalid({ startsAt: "Choisissez une date à venir." });
  const room = roomFields(data, rooms);
  return db.transaction(async (tx) => {
    const [session] = await tx
      .insert(liveSessions)
      .values({
        courseId: course.id,
        createdBy: actor.id,
        title: data.title,
        description: data.description,
        startsAt: data.startsAt,
        durationMinutes: data.durationMinutes,
        ...room,
        recordingUrl: data.recordingUrl ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await enqueueReminders(tx, session!, now);
    for (const userId of await followersOf(tx, course.id)) {
      await notifyUser(tx, {
        userId,
        kind: "session_scheduled",
        title: "Nouvelle session en direct",
        body: `« ${session!.title} » (${course.title}) : ${formatWeekdayDateTime(session!.startsAt)}.`,
        link: sessionLink,
        key: `live-session:${session!.id}:scheduled`,
        now,
      });
    }
    return session!;
  });
}

/** Edits a session that has not ended; a new time is announced and its reminders follow it. */
export async function updateSession(
  db: Database,
  actor: Actor,
  id: number,
  input: unknown,
  rooms: LiveRooms,
  now = new Date(),
): Promise<LiveSession> {
  const data = validate(sessionFormSchema, input);
  const { session, course } = await managedSession(db, actor, id);
  if (!canChangeSession(actor, course, session, now))
    throw AppError.conflict("Cette session est terminée ou annulée : elle ne se modifie plus.");
  if (data.courseId !== session.courseId)
    throw AppError.invalid({ courseId: "Une session reste dans son cours : annulez-la et planifiez-en une autre." });
  const moved = data.startsAt.getTime() !== session.startsAt.getTime();
  if (moved && data.startsAt <= now) throw AppError.invalid({ startsAt: "Choisissez une date à venir." });
  const room = roomFields(data, rooms, session);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(liveSessions)
      .set({
        title: data.title,
        description: data.description,
        startsAt: data.startsAt,
        durationMinutes: data.durationMinutes,
        ...room,
        recordingUrl: data.recordingUrl ?? session.recordingUrl,
        updatedAt: now,
      })
      .where(eq(liveSessions.id, id))
      .returning();
    if (moved) {
      // The old reminders find another start time and send nothing.
      await enqueueReminders(tx, updated!, now);
      for (const userId of await followersOf(tx, course.id)) {
        await notifyUser(tx, {
          userId,
          kind: "session_scheduled",
          title: "Session en direct déplacée",
          body: `« ${updated!.title} » (${course.title}) aura lieu ${formatWeekdayDateTime(updated!.startsAt)}.`,
          link: sessionLink,
          key: `live-session:${id}:moved:${updated!.startsAt.toISOString()}`,
          now,
        });
      }
    }
    return updated!;
  });
}

/** Cancels a session: its learners are told, and no reminder leaves afterwards. */
export async function cancelSession(db: Database, actor: Actor, id: number, now = new Date()): Promise<LiveSession> {
  const { session, course } = await managedSession(db, actor, id);
  if (session.status === "cancelled") return session;
  if (!canChangeSession(actor, course, session, now)) throw AppError.conflict("Cette session est terminée : elle ne s'annule plus.");
  return db.transaction(async (tx) => {
    const [cancelled] = await tx
      .update(liveSessions)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(and(eq(liveSessions.id, id), eq(liveSessions.status, "scheduled")))
      .returning();
    if (!cancelled) return session;
    for (const userId of await followersOf(tx, course.id)) {
      await notifyUser(tx, {
        userId,
        kind: "session_scheduled",
        title: "Session en direct annulée",
        body: `« ${session.title} » (${course.title}), prévue ${formatWeekdayDateTime(session.startsAt)}, est annulée.`,
        link: sessionLink,
        key: `live-session:${id}:cancelled`,
        now,
      });
    }
    return cancelled;
  });
}
