import { and, asc, count, eq, gt, gte, inArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { formatWeekdayDateTime, fromDateTimeLocal } from "~/lib/dates";
import { sessionDurations, sessionRooms } from "~/lib/live-sessions";
import { LIMITS, optionalText, requiredChoice, requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import { canManageCourse, managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { courses, enrolments, liveSessionAttendance, liveSessionRegistrations, liveSessions, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { enqueueJob } from "../jobs";
import { FOLLOWING, followsCourse } from "../learning";
import { notifyUser } from "../notifications";
import { canChangeSession, canJoinSession, canManageSessions, isJoinOpen, sessionEndsAt } from "./policy";
import { bigBlueButtonFrom, newMeetingId, type BigBlueButton } from "./providers";

/** The queue of the 24 h and 1 h reminders (handled by sendSessionReminder). */
export const SESSION_REMINDER_QUEUE = "live-sessions.reminder";

export const REMINDER_OFFSETS = { "24h": 24 * 60 * 60 * 1000, "1h": 60 * 60 * 1000 } as const;
export type ReminderOffset = keyof typeof REMINDER_OFFSETS;
export type SessionReminderJob = { sessionId: number; startsAt: string; offset: ReminderOffset };

/** What this process knows of the room providers (BigBlueButton when configured). */
export interface LiveRooms {
  bigBlueButton: BigBlueButton | null;
  publicUrl: string;
}

export type LiveSession = typeof liveSessions.$inferSelect;

/** The rooms of this configuration (routes build it from the environment). */
export function liveRoomsFrom(env: { BBB_URL?: string; BBB_SECRET?: string; PUBLIC_URL: string }): LiveRooms {
  return { bigBlueButton: bigBlueButtonFrom(env), publicUrl: env.PUBLIC_URL };
}

const urlMessage = "Saisissez un lien valide (http:// ou https://).";
const optionalUrl = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .max(2000, urlMessage)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
      } catch {
        return false;
      }
    }, urlMessage)
    .optional(),
);

export const sessionFormSchema = z.object({
  courseId: requiredChoice("Choisissez un cours."),
  title: requiredText({ label: "Le titre", max: LIMITS.title }),
  description: optionalText({ label: "La description", max: LIMITS.longText }),
  startsAt: z
    .string({ error: "Indiquez la date et l'heure de début." })
    .trim()
    .min(1, "Indiquez la date et l'heure de début.")
    .transform((value, ctx) => {
      const date = fromDateTimeLocal(value);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "Saisissez une date et une heure valides." });
        return z.NEVER;
      }
      return date;
    }),
  durationMinutes: z.coerce
    .number({ error: "Choisissez une durée." })
    .int("Choisissez une durée.")
    .refine((value) => (sessionDurations as readonly number[]).includes(value), "Choisissez une durée de la liste."),
  room: z.enum(sessionRooms, { error: "Choisissez la salle." }).default("link"),
  joinUrl: optionalUrl,
  recordingUrl: optionalUrl,
});
export type SessionFormInput = z.input<typeof sessionFormSchema>;

const notFound = () => AppError.notFound("Session introuvable.");

async function courseFor(db: Database, courseId: number) {
  const [course] = await db
    .select({ id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId, status: courses.status })
    .from(courses)
    .where(eq(courses.id, courseId));
  return course ?? null;
}

/** The session and its course, if the actor manages the course; "not found" otherwise. */
async function managedSession(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({
      session: liveSessions,
      course: { id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId },
    })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(eq(liveSessions.id, id));
  if (!row || !canManageSessions(actor, row.course)) throw notFound();
  return row;
}

/** The learners following a course (active or completed): who is told of its sessions. */
async function followersOf(db: Database, courseId: number): Promise<string[]> {
  const rows = await db
    .select({ userId: enrolments.userId })
    .from(enrolments)
    .where(and(eq(enrolments.courseId, courseId), inArray(enrolments.status, FOLLOWING)));
  return rows.map((row) => row.userId);
}

async function enqueueReminders(tx: Database, session: Pick<LiveSession, "id" | "startsAt">, now: Date) {
  for (const [offset, ms] of Object.entries(REMINDER_OFFSETS) as Array<[ReminderOffset, number]>) {
    const runAt = new Date(session.startsAt.getTime() - ms);
    if (runAt <= now) continue;
    const startsAt = session.startsAt.toISOString();
    await enqueueJob(tx, SESSION_REMINDER_QUEUE, { sessionId: session.id, startsAt, offset } satisfies SessionReminderJob, {
      key: `live-session-reminder:${session.id}:${startsAt}:${offset}`,
      runAt,
      now,
    });
  }
}

function roomFields(data: z.output<typeof sessionFormSchema>, rooms: LiveRooms, existing?: LiveSession) {
  if (data.room === "bigbluebutton") {
    if (!rooms.bigBlueButton) {
      throw AppError.invalid({ room: "Les salles BigBlueButton ne sont pas configurées : collez le lien de votre salle." });
    }
    return { provider: "bigbluebutton" as const, joinUrl: null, meetingId: existing?.meetingId ?? newMeetingId() };
  }
  if (!data.joinUrl) throw AppError.invalid({ joinUrl: "Collez le lien de la salle (Zoom, Google Meet, Jitsi…)." });
  return { provider: "link" as const, joinUrl: data.joinUrl, meetingId: null };
}

const sessionLink = "/dashboard/sessions";

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

const registrationCounts = (db: Database) =>
  db
    .select({ sessionId: liveSessionRegistrations.sessionId, registered: count().as("registered") })
    .from(liveSessionRegistrations)
    .groupBy(liveSessionRegistrations.sessionId)
    .as("registration_counts");

const attendanceCounts = (db: Database) =>
  db
    .select({ sessionId: liveSessionAttendance.sessionId, attended: count().as("attended") })
    .from(liveSessionAttendance)
    .groupBy(liveSessionAttendance.sessionId)
    .as("attendance_counts");

/** The sessions of the courses the actor manages: upcoming (soonest first) and past or cancelled (latest first). */
export async function listManagedSessions(db: Database, actor: Actor, now = new Date(), options: { courseId?: number } = {}) {
  const registrations = registrationCounts(db);
  const attendance = attendanceCounts(db);
  const rows = await db
    .select({
      id: liveSessions.id,
      title: liveSessions.title,
      startsAt: liveSessions.startsAt,
      durationMinutes: liveSessions.durationMinutes,
      status: liveSessions.status,
      provider: liveSessions.provider,
      recordingUrl: liveSessions.recordingUrl,
      courseId: courses.id,
      courseTitle: courses.title,
      instructorId: courses.instructorId,
      registered: sql<number>`coalesce(${registrations.registered}, 0)`.mapWith(Number),
      attended: sql<number>`coalesce(${attendance.attended}, 0)`.mapWith(Number),
    })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .leftJoin(registrations, eq(registrations.sessionId, liveSessions.id))
    .leftJoin(attendance, eq(attendance.sessionId, liveSessions.id))
    .where(and(managedCoursesWhere(actor), options.courseId ? eq(courses.id, options.courseId) : undefined))
    .orderBy(asc(liveSessions.startsAt));
  const withState = rows.map((row) => ({
    ...row,
    endsAt: sessionEndsAt(row),
    joinOpen: isJoinOpen(row, now),
    changeable: row.status === "scheduled" && sessionEndsAt(row) > now,
  }));
  return {
    upcoming: withState.filter((row) => row.status === "scheduled" && row.endsAt > now),
    past: withState.filter((row) => row.status === "cancelled" || row.endsAt <= now).reverse(),
  };
}
export type ManagedSession = Awaited<ReturnType<typeof listManagedSessions>>["upcoming"][number];

/** One session for its managers: the form's values, who registered and who attended. */
export async function getManagedSession(db: Database, actor: Actor, id: number, now = new Date()) {
  // The three reads leave together; the lists are returned only once the actor may manage it.
  const lists = Promise.all([
    db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        at: liveSessionRegistrations.registeredAt,
      })
      .from(liveSessionRegistrations)
      .innerJoin(users, eq(users.id, liveSessionRegistrations.userId))
      .where(eq(liveSessionRegistrations.sessionId, id))
      .orderBy(asc(users.lastName), asc(users.firstName)),
    db
      .select({
        userId: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        firstJoinedAt: liveSessionAttendance.firstJoinedAt,
        joins: liveSessionAttendance.joins,
      })
      .from(liveSessionAttendance)
      .innerJoin(users, eq(users.id, liveSessionAttendance.userId))
      .where(eq(liveSessionAttendance.sessionId, id))
      .orderBy(asc(liveSessionAttendance.firstJoinedAt)),
  ]);
  lists.catch(() => {});
  const { session, course } = await managedSession(db, actor, id);
  const [registered, attended] = await lists;
  return {
    session,
    course,
    endsAt: sessionEndsAt(session),
    joinOpen: isJoinOpen(session, now),
    changeable: canChangeSession(actor, course, session, now),
    registered,
    attended,
  };
}

/** The courses the actor may schedule sessions for, with the link their course form keeps. */
export async function listSessionCourses(db: Database, actor: Actor) {
  return db
    .select({ id: courses.id, title: courses.title, liveSessionUrl: courses.liveSessionUrl })
    .from(courses)
    .where(and(managedCoursesWhere(actor), inArray(courses.status, ["draft", "published"])))
    .orderBy(asc(courses.title));
}

/** The learner's coming sessions: of every course they follow, or of one (`courseId`). */
function learnerSessionsQuery(ofOneCourse: boolean, name: string) {
  return preparedQuery(name, (db) =>
    db
      .select({
        id: liveSessions.id,
        title: liveSessions.title,
        description: liveSessions.description,
        startsAt: liveSessions.startsAt,
        durationMinutes: liveSessions.durationMinutes,
        status: liveSessions.status,
        courseTitle: courses.title,
        courseSlug: courses.slug,
        registered: sql<boolean>`${liveSessionRegistrations.userId} is not null`,
      })
      .from(liveSessions)
      .innerJoin(courses, eq(courses.id, liveSessions.courseId))
      .innerJoin(
        enrolments,
        and(
          eq(enrolments.courseId, liveSessions.courseId),
          eq(enrolments.userId, sql.placeholder("userId")),
          inArray(enrolments.status, FOLLOWING),
        ),
      )
      .leftJoin(
        liveSessionRegistrations,
        and(eq(liveSessionRegistrations.sessionId, liveSessions.id), eq(liveSessionRegistrations.userId, sql.placeholder("userId"))),
      )
      .where(
        and(
          eq(liveSessions.status, "scheduled"),
          // Not yet ended.
          gt(sql`${liveSessions.startsAt} + ${liveSessions.durationMinutes} * interval '1 minute'`, sql.placeholder("now")),
          ofOneCourse ? eq(liveSessions.courseId, sql.placeholder("courseId")) : undefined,
        ),
      )
      .orderBy(asc(liveSessions.startsAt))
      .limit(sql.placeholder("limit")),
  );
}
const learnerSessionsOfAllCourses = learnerSessionsQuery(false, "learner_sessions");
const learnerSessionsOfOneCourse = learnerSessionsQuery(true, "learner_sessions_of_course");

/**
 * The actor's coming sessions as a learner (courses they follow), soonest first, each with
 * whether they registered and whether "Rejoindre" is open. `courseId`: one course's.
 */
export async function listLearnerSessions(
  db: Database,
  actor: Actor,
  now = new Date(),
  options: { courseId?: number; limit?: number } = {},
) {
  const values = { userId: actor.id, now, limit: options.limit ?? 50 };
  const rows = await (options.courseId
    ? learnerSessionsOfOneCourse(db).execute({ ...values, courseId: options.courseId })
    : learnerSessionsOfAllCourses(db).execute(values));
  return rows.map((row) => ({ ...row, registered: Boolean(row.registered), endsAt: sessionEndsAt(row), joinOpen: isJoinOpen(row, now) }));
}
export type LearnerSession = Awaited<ReturnType<typeof listLearnerSessions>>[number];

/** The session, its course, and whether the actor follows the course, if they may see it at all. */
async function visibleSession(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({
      session: liveSessions,
      course: { id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId },
    })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(eq(liveSessions.id, id));
  if (!row) throw notFound();
  const follows = await followsCourse(db, actor, row.course.id);
  if (!follows && !canManageSessions(actor, row.course)) throw notFound();
  return { ...row, follows };
}

/** "S'inscrire" (register) or its undoing: the learner's reminders follow. */
export async function setSessionRegistration(db: Database, actor: Actor, id: number, register: boolean, now = new Date()) {
  const { session, follows } = await visibleSession(db, actor, id);
  if (!follows) throw AppError.forbidden("Seuls les apprenants du cours s'inscrivent à ses sessions.");
  if (register) {
    if (session.status !== "scheduled" || sessionEndsAt(session) <= now) throw AppError.conflict("Cette session est terminée ou annulée.");
    await db.insert(liveSessionRegistrations).values({ sessionId: id, userId: actor.id, registeredAt: now }).onConflictDoNothing();
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
      and(
        eq(enrolments.userId, liveSessionRegistrations.userId),
        eq(enrolments.courseId, session.courseId),
        inArray(enrolments.status, FOLLOWING),
      ),
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

/** The actor's sessions for their calendar: courses they follow or manage, from 30 days back. */
export async function listCalendarSessions(db: Database, actor: Actor, now = new Date()) {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const followed = db
    .select({ courseId: enrolments.courseId })
    .from(enrolments)
    .where(and(eq(enrolments.userId, actor.id), inArray(enrolments.status, FOLLOWING)));
  return db
    .select({ session: liveSessions, courseTitle: courses.title })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(and(gte(liveSessions.startsAt, since), or(inArray(liveSessions.courseId, followed), managedCoursesWhere(actor))))
    .orderBy(asc(liveSessions.startsAt))
    .limit(500);
}

/** One session as a calendar event, for whoever may see it. */
export async function getSessionForCalendar(db: Database, actor: Actor, id: number) {
  const { session, course } = await visibleSession(db, actor, id);
  return { session, courseTitle: course.title };
}
