import { and, eq } from "drizzle-orm";
import { formatWeekdayDateTime } from "~/lib/dates";
import type { Database } from "../db/client";
import { courses, enrolments, liveSessionRegistrations, liveSessions } from "../db/schema";
import { enqueueJob } from "../jobs";
import { followingEnrolment } from "../learning";
import { notifyUser } from "../notifications";
import { sessionEndsAt } from "./policy";
import { sessionLink, type LiveSession } from "./common";

/** The 24 h and 1 h reminders: queued when a session is planned or moved, sent once by the queue. */

/** The queue of the 24 h and 1 h reminders (handled by sendSessionReminder). */
export const SESSION_REMINDER_QUEUE = "live-sessions.reminder";

export const REMINDER_OFFSETS = { "24h": 24 * 60 * 60 * 1000, "1h": 60 * 60 * 1000 } as const;
export type ReminderOffset = keyof typeof REMINDER_OFFSETS;
export type SessionReminderJob = { sessionId: number; startsAt: string; offset: ReminderOffset };

/**
 * Less than an hour ahead (planned or moved at short notice), the 1 h reminder cannot wait its
 * time: it leaves at once, and reaches each learner who registers afterwards on registering.
 */
export function remindsAtOnce(session: Pick<LiveSession, "startsAt">, now: Date): boolean {
  const ahead = session.startsAt.getTime() - now.getTime();
  return ahead > 0 && ahead < REMINDER_OFFSETS["1h"];
}

/**
 * Queues the 24 h and 1 h reminders of a session (new, or moved): a time already past is skipped,
 * except the 1 h one at short notice, due at once. The key is the normal job's: once either way.
 */
export async function enqueueReminders(tx: Database, session: Pick<LiveSession, "id" | "startsAt">, now: Date) {
  for (const [offset, ms] of Object.entries(REMINDER_OFFSETS) as Array<[ReminderOffset, number]>) {
    let runAt = new Date(session.startsAt.getTime() - ms);
    if (runAt <= now) {
      if (!(offset === "1h" && remindsAtOnce(session, now))) continue;
      runAt = now;
    }
    const startsAt = session.startsAt.toISOString();
    await enqueueJob(tx, SESSION_REMINDER_QUEUE, { sessionId: session.id, startsAt, offset } satisfies SessionReminderJob, {
      key: `live-session-reminder:${session.id}:${startsAt}:${offset}`,
      runAt,
      now,
    });
  }
}

/**
 * Sends one reminder (the SESSION_REMINDER_QUEUE handler): to the learners registered and still
 * following the course, unless the session was cancelled or moved since the reminder was queued.
 * Once per person (the notification's key), however many processes run the queue.
 */
export async function sendSessionReminder(db: Database, job: SessionReminderJob, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ session: liveSessions, courseTitle: courses.title })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(eq(liveSessions.id, job.sessionId));
  if (!row || row.session.status !== "scheduled" || row.session.startsAt.toISOString() !== job.startsAt) return 0;
  if (sessionEndsAt(row.session) <= now) return 0;
  const { session, courseTitle } = row;
  const learners = await db
    .select({ userId: liveSessionRegistrations.userId })
    .from(liveSessionRegistrations)
    .innerJoin(
      enrolments,
      and(eq(enrolments.userId, liveSessionRegistrations.userId), eq(enrolments.courseId, session.courseId), followingEnrolment()),
    )
    .where(eq(liveSessionRegistrations.sessionId, session.id));
  const when = formatWeekdayDateTime(session.startsAt);
  let sent = 0;
  await db.transaction(async (tx) => {
    for (const { userId } of learners) {
      const { created } = await notifyUser(tx, {
        userId,
        kind: "session_starting",
        title: job.offset === "24h" ? "Session en direct demain" : "Session en direct dans une heure",
        body: `« ${session.title} » (${courseTitle}) commence ${when}. « Rejoindre » s'ouvre 10 minutes avant le début.`,
        link: sessionLink,
        key: `live-session:${session.id}:reminder:${job.startsAt}:${job.offset}`,
        now,
      });
      if (created) sent += 1;
    }
  });
  return sent;
}
