/**
 * Owner: the learning capability (app/.server/learning): enrolments, lesson progress and the
 * learners counted per course; payments opens and closes enrolments by calling it.
 */
import { sql } from "drizzle-orm";
import { check, date, index, integer, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses, lessons } from "./courses";

/**
 * pending_payment: enrolled, waiting for the payment to complete (no lesson open yet);
 * active: following the course; completed: every lesson done; paused: stopped by the learner or
 * the institute; cancelled: the payment expired or was refunded (enrolling again reopens the row).
 */
export const enrolmentStatus = pgEnum("enrolment_status", ["pending_payment", "active", "completed", "paused", "cancelled"]);

/** One row per learner and course, whatever is clicked twice. */
export const enrolments = pgTable(
  "enrolments",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    status: enrolmentStatus("status").notNull().default("pending_payment"),
    /** Share of the course's lessons completed, 0–100, kept in step with lesson_progress. */
    progress: integer("progress").notNull().default(0),
    /** Where "Continuer" resumes. */
    lastLessonId: integer("last_lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    enrolledAt: timestamp("enrolled_at", { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("enrolments_user_course_idx").on(table.userId, table.courseId),
    index("enrolments_course_idx").on(table.courseId, table.status),
    // Enrolments opened and completed per period and month (admin dashboard, analytics, reports).
    index("enrolments_activated_idx").on(table.activatedAt),
    index("enrolments_completed_idx").on(table.completedAt),
    check("enrolments_progress_range", sql`${table.progress} between 0 and 100`),
  ],
);

/** A learner's progress in one lesson: done or not, and where the video stopped. */
export const lessonProgress = pgTable(
  "lesson_progress",
  {
    enrolmentId: integer("enrolment_id")
      .notNull()
      .references(() => enrolments.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /** Seconds into the lesson's video, for resuming. */
    positionSeconds: integer("position_seconds").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.enrolmentId, table.lessonId] }),
    index("lesson_progress_completed_idx").on(table.enrolmentId, table.completedAt),
    // Learners active in a period (analytics): lessons touched and completed in it.
    index("lesson_progress_updated_at_idx").on(table.updatedAt),
    index("lesson_progress_completed_at_idx").on(table.completedAt),
  ],
);

/**
 * How many learners each course has here (an enrolment opened and not cancelled), kept in step by
 * the learning capability in the transaction that opens or closes an enrolment. The public pages
 * show it alone, the imported figure apart (decision 0044); the teachers' lists show it. A table of
 * its own so that a lesson marked done does not touch the cached catalogue.
 */
export const courseLearnerCounts = pgTable("course_learner_counts", {
  courseId: integer("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  learners: integer("learners").notNull().default(0),
});

/**
 * The days each learner did something (touched or completed a lesson, sent a quiz attempt), with
 * the first and last moment of that day, for the administration's analytics (active learners).
 * Written by the database itself (triggers on lesson_progress and quiz_attempts, drizzle/0019),
 * whoever writes those rows; never written by the code. A lesson touched again later keeps the
 * earlier day here, where lesson_progress keeps only the last touch. Days are Bamako's (UTC).
 */
export const learnerActivityDays = pgTable(
  "learner_activity_days",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    firstAt: timestamp("first_at", { withTimezone: true }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] }), index("learner_activity_days_day_idx").on(table.day)],
);
