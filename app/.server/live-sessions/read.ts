import { and, asc, count, eq, gt, gte, inArray, or, sql } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { managedCoursesWhere } from "../courses/policy";
import type { Database } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { courses, enrolments, liveSessionAttendance, liveSessionRegistrations, liveSessions, users } from "../db/schema";
import { followingEnrolment } from "../learning";
import { canChangeSession, isJoinOpen, sessionEndsAt } from "./policy";
import { managedSession, visibleSession } from "./common";

/** Reading sessions: for their managers, for learners, for calendars. */

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
        and(eq(enrolments.courseId, liveSessions.courseId), eq(enrolments.userId, sql.placeholder("userId")), followingEnrolment()),
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

/** The actor's sessions for their calendar: courses they follow or manage, from 30 days back. */
export async function listCalendarSessions(db: Database, actor: Actor, now = new Date()) {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000);
  const followed = db
    .select({ courseId: enrolments.courseId })
    .from(enrolments)
    .where(and(eq(enrolments.userId, actor.id), followingEnrolment()));
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
