/**
 * Owner: the reviews capability (app/.server/reviews): what learners wrote about the courses they
 * follow. The catalogue and the reports read them in their figures (catalogue's courseRatingSql).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { REVIEW_LIMITS } from "../../../lib/reviews";
import { users } from "./auth";
import { courses } from "./courses";

/**
 * One review per learner and course (a second one edits the first): 1 to 5 stars and a short text.
 * A review an administrator hid leaves the public pages and the figures, and stays for its author.
 */
export const courseReviews = pgTable(
  "course_reviews",
  {
    id: serial("id").primaryKey(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    hiddenAt: timestamp("hidden_at", { withTimezone: true }),
    hiddenById: text("hidden_by_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("course_reviews_course_user_idx").on(table.courseId, table.userId),
    index("course_reviews_course_idx").on(table.courseId, table.createdAt),
    check(
      "course_reviews_rating_range",
      sql`${table.rating} between ${sql.raw(String(REVIEW_LIMITS.minRating))} and ${sql.raw(String(REVIEW_LIMITS.maxRating))}`,
    ),
    check(
      "course_reviews_body_length",
      sql`char_length(${table.body}) between ${sql.raw(String(REVIEW_LIMITS.minBody))} and ${sql.raw(String(REVIEW_LIMITS.maxBody))}`,
    ),
  ],
);
