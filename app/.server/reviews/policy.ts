import { isAdmin, type Actor } from "../auth/actor";
import { canManageCourse } from "../courses/policy";

/**
 * Who may do what with course reviews, the one place these rules are written. A learner who
 * follows a course (an active or completed enrolment, which the learning capability knows) writes
 * one review of it and edits it; everyone reads the reviews not hidden; the course's teacher and
 * administrators read all of its reviews; administrators hide an abusive one. A leaf module.
 */

export function canReviewCourse(actor: Actor | null, follows: boolean): boolean {
  return actor !== null && follows;
}

/** Every review of a course, hidden ones included, with who wrote them. */
export function canReadCourseReviews(actor: Actor | null, course: { instructorId: string | null }): boolean {
  return canManageCourse(actor, course);
}

export function canModerateReviews(actor: Actor | null): boolean {
  return isAdmin(actor);
}
