import { canManageCourse } from "../courses/policy";
import type { Actor } from "../auth/actor";

/**
 * Who may do what with live sessions: the one place these rules are written. A leaf module.
 *
 * - A session belongs to its course: those who manage the course (its teacher, admins) schedule,
 *   edit, cancel it and see its attendance.
 * - A join link goes to those who manage the course and to its learners (`follows`: an active or
 *   completed enrolment, which learning knows); never to a pending payment, another course's
 *   learner or a visitor.
 * - "Rejoindre" opens 10 minutes before the start and closes at the end.
 */

export const JOIN_OPENS_BEFORE_MS = 10 * 60 * 1000;

type CourseFacts = { instructorId: string | null };
type SessionFacts = { startsAt: Date; durationMinutes: number; status: "scheduled" | "cancelled" };

export function canManageSessions(actor: Actor | null, course: CourseFacts): boolean {
  return canManageCourse(actor, course);
}

/** Sees the session at all (its course's page, the calendar). */
export function canSeeSession(actor: Actor | null, course: CourseFacts, follows: boolean): boolean {
  return follows || canManageSessions(actor, course);
}

export function sessionEndsAt(session: Pick<SessionFacts, "startsAt" | "durationMinutes">): Date {
  return new Date(session.startsAt.getTime() + session.durationMinutes * 60_000);
}

/** "Rejoindre" is open: scheduled, from 10 minutes before the start to the end. */
export function isJoinOpen(session: SessionFacts, now: Date): boolean {
  return (
    session.status === "scheduled" &&
    now.getTime() >= session.startsAt.getTime() - JOIN_OPENS_BEFORE_MS &&
    now.getTime() < sessionEndsAt(session).getTime()
  );
}

/** Gets a join link now. */
export function canJoinSession(actor: Actor | null, course: CourseFacts, follows: boolean, session: SessionFacts, now: Date): boolean {
  return actor !== null && canSeeSession(actor, course, follows) && isJoinOpen(session, now);
}

/** Edits or cancels: managers, while the session has not ended and is not cancelled. */
export function canChangeSession(actor: Actor | null, course: CourseFacts, session: SessionFacts, now: Date): boolean {
  return canManageSessions(actor, course) && session.status === "scheduled" && sessionEndsAt(session) > now;
}
