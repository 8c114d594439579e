import { inArray } from "drizzle-orm";
import { isAdmin, type Actor } from "../auth/actor";
import { enrolments } from "../db/schema";

type EnrolmentStatus = (typeof enrolments.$inferSelect)["status"];

/**
 * "Follows a course": the enrolment statuses that open its lessons, their files, its quizzes, its
 * live sessions and its certificate to the learner. Pending payment, paused and cancelled do not.
 * The one rule every capability reads, as a list, a check, and a condition (its SQL twin).
 */
export const FOLLOWING: readonly EnrolmentStatus[] = ["active", "completed"];

/** Whether an enrolment of this status follows its course (none: not enrolled). */
export function isFollowing(status: EnrolmentStatus | null | undefined): boolean {
  return status !== null && status !== undefined && FOLLOWING.includes(status);
}

/** The same rule in SQL: the `enrolments` row follows its course. */
export function followingEnrolment() {
  return inArray(enrolments.status, [...FOLLOWING]);
}

/** Enrolling by hand, pausing, reopening or cancelling someone's enrolment: admins. */
export function canManageEnrolments(actor: Actor | null | undefined): boolean {
  return isAdmin(actor);
}
