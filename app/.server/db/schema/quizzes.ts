import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { correctionModes, type AttemptQuestion, type QuestionResult, type QuizQuestion } from "~/lib/quiz";
import { users } from "./auth";
import { courses, lessons } from "./courses";

/**
 * When a quiz's learners see the expected answers and explanations of their graded attempts
 * (app/.server/quizzes/policy.ts): after each submit (practice), after their last allowed attempt
 * or a pass, from a date, or never. Until then they see their score and which questions they got
 * right or wrong.
 */
export const quizCorrections = pgEnum("quiz_corrections", correctionModes);

/**
 * A course's quiz, written by its teacher (or an admin) at /teacher/quiz. The questions, with their
 * right answers, live in `questions` as the teacher last saved them; every attempt copies the ones
 * it was given, so editing a quiz never rewrites a past result. A deleted quiz is only marked
 * (`deleted_at`): its attempts stay for the results and reports.
 */
export const quizzes = pgTable(
  "quizzes",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** Optional: the lesson the quiz follows (shown in the player); cleared if the lesson goes. */
    lessonId: integer("lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    questions: jsonb("questions").$type<QuizQuestion[]>().notNull().default([]),
    /** Null: no time limit. */
    timeLimitMinutes: integer("time_limit_minutes"),
    maxAttempts: integer("max_attempts").notNull().default(3),
    /** Percentage (0–100) an attempt needs to pass. */
    passingScore: integer("passing_score").notNull().default(70),
    /** Null: every question at every attempt; else this many drawn at random from `questions` per attempt. */
    drawCount: integer("draw_count"),
    shuffleQuestions: boolean("shuffle_questions").notNull().default(false),
    shuffleOptions: boolean("shuffle_options").notNull().default(false),
    corrections: quizCorrections("corrections").notNull().default("after_last_attempt"),
    /** With `corrections` "after_date": when they open (and the quiz closes to new attempts). */
    correctionsAt: timestamp("corrections_at", { withTimezone: true }),
    /** Part of the course's completion rule: the certificate needs it passed. */
    required: boolean("required").notNull().default(false),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (table) => [
    index("quizzes_course_idx").on(table.courseId),
    check("quizzes_max_attempts_range", sql`${table.maxAttempts} between 1 and 10`),
    check("quizzes_passing_score_range", sql`${table.passingScore} between 0 and 100`),
    check("quizzes_draw_count_positive", sql`${table.drawCount} is null or ${table.drawCount} >= 1`),
    check("quizzes_corrections_date", sql`${table.corrections} <> 'after_date' or ${table.correctionsAt} is not null`),
    check("quizzes_time_limit_positive", sql`${table.timeLimitMinutes} is null or ${table.timeLimitMinutes} >= 1`),
  ],
);

/**
 * in_progress: started, answers being saved; submitted: sent by the learner and graded;
 * expired: closed and graded by the server at its deadline (the learner never sent it).
 */
export const quizAttemptStatus = pgEnum("quiz_attempt_status", ["in_progress", "submitted", "expired"]);

/**
 * One attempt of one learner at one quiz: the questions it was given (in the order shown, right
 * answers included: never sent to the browser before grading), the answers as saved, and once
 * graded the score (points-weighted percentage), the verdict and each question's result.
 * `attempt_number` is unique per learner and quiz, so the attempts limit holds under concurrency.
 */
export const quizAttempts = pgTable(
  "quiz_attempts",
  {
    id: serial("id").primaryKey(),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    attemptNumber: integer("attempt_number").notNull(),
    /**
     * For an attempt answered on a phone without network (issue 13): the id the phone gave it,
     * unique, so that the queue sending it twice records it once. Null for attempts made online.
     */
    clientId: uuid("client_id"),
    status: quizAttemptStatus("status").notNull().default("in_progress"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /** Null: no time limit. Answers saved after it are refused; the attempt is closed at it. */
    deadlineAt: timestamp("deadline_at", { withTimezone: true }),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    questions: jsonb("questions").$type<AttemptQuestion[]>().notNull(),
    /** Question id → the answer as given (an option index, "true"/"false", or text). */
    answers: jsonb("answers").$type<Record<string, string>>().notNull().default({}),
    results: jsonb("results").$type<QuestionResult[]>(),
    totalPoints: integer("total_points").notNull(),
    earnedPoints: integer("earned_points"),
    score: numeric("score", { precision: 5, scale: 2, mode: "number" }),
    /** The quiz's passing score when the attempt started. */
    passingScore: integer("passing_score").notNull(),
    passed: boolean("passed"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("quiz_attempts_number_idx").on(table.quizId, table.userId, table.attemptNumber),
    uniqueIndex("quiz_attempts_client_idx").on(table.clientId),
    index("quiz_attempts_user_idx").on(table.userId, table.quizId),
    index("quiz_attempts_quiz_idx").on(table.quizId, table.status),
    // Learners active in a period (analytics): attempts sent in it.
    index("quiz_attempts_submitted_idx").on(table.submittedAt),
  ],
);

/**
 * Attempts a quiz's teacher (or an administrator) opened to one learner beyond the quiz's own
 * limit, once that learner had spent them all without passing: the learner's limit is the quiz's
 * plus these. One row per quiz and learner, set to a total (a second click sets the same).
 */
export const quizAttemptGrants = pgTable(
  "quiz_attempt_grants",
  {
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    extraAttempts: integer("extra_attempts").notNull(),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.quizId, table.userId] }),
    check("quiz_attempt_grants_extra_range", sql`${table.extraAttempts} between 1 and 50`),
  ],
);
