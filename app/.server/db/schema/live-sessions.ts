/**
 * Owner: the live-sessions capability (app/.server/live-sessions): a course's live sessions, who
 * registered for them, who joined, and each person's private calendar feed.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses } from "./courses";

export const liveSessionStatus = pgEnum("live_session_status", ["scheduled", "cancelled"]);

/** Where the room is: a link the teacher pasted (Zoom, Meet...), or a BigBlueButton meeting the platform creates. */
export const liveSessionProvider = pgEnum("live_session_provider", ["link", "bigbluebutton"]);

export const liveSessions = pgTable(
  "live_sessions",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** Who scheduled it (the course's teacher, or an admin). */
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    provider: liveSessionProvider("provider").notNull(),
    /** The pasted link (provider "link"). */
    joinUrl: text("join_url"),
    /** BigBlueButton's meetingID (provider "bigbluebutton"): stable, so create is idempotent. */
    meetingId: text("meeting_id").unique(),
    /** Where learners watch it again: pasted, or BigBlueButton's recording. */
    recordingUrl: text("recording_url"),
    status: liveSessionStatus("status").notNull().default("scheduled"),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("live_sessions_course_idx").on(table.courseId, table.startsAt),
    index("live_sessions_starts_idx").on(table.startsAt),
    check("live_sessions_duration_range", sql`${table.durationMinutes} between 15 and 480`),
  ],
);

/** "S'inscrire": a learner means to come, and gets the reminders. */
export const liveSessionRegistrations = pgTable(
  "live_session_registrations",
  {
    sessionId: integer("session_id")
      .notNull()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    registeredAt: timestamp("registered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.userId] }), index("live_session_registrations_user_idx").on(table.userId)],
);

/** Who joined (through the platform's "Rejoindre"), first and last time. */
export const liveSessionAttendance = pgTable(
  "live_session_attendance",
  {
    sessionId: integer("session_id")
      .notNull()
      .references(() => liveSessions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    firstJoinedAt: timestamp("first_joined_at", { withTimezone: true }).notNull(),
    lastJoinedAt: timestamp("last_joined_at", { withTimezone: true }).notNull(),
    joins: integer("joins").notNull().default(1),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.userId] }), index("live_session_attendance_user_idx").on(table.userId)],
);

/**
 * A person's private calendar feed (the sessions of their courses, as iCalendar): the token is
 * the address's secret; revoking replaces it, and the old address stops working.
 */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  token: text("token").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
