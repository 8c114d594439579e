import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { canTeach, isAdmin, isSelf, type Actor } from "../auth/actor";
import { courses } from "../db/schema";

/**
 * Who may do what with courses: the one place these rules are written. Each rule exists as a
 * predicate on a row and, where lists need it, as the same rule in SQL (a `where` clause), so that
 * a list never shows what a page would refuse. A leaf module: any capability may import it.
 */

type CourseFacts = { instructorId: string | null; status: "draft" | "published" | "archived" };

/** Teachers write courses; administrators oversee every course. */
export function canAuthor(actor: Actor | null): boolean {
  return canTeach(actor);
}

/** An administrator manages every course; a teacher only the courses they teach. */
export function canManageCourse(actor: Actor | null, course: Pick<CourseFacts, "instructorId">): boolean {
  if (isAdmin(actor)) return true;
  return canTeach(actor) && isSelf(actor, course.instructorId);
}

/** Which courses `canManageCourse` lets the actor manage: every one, their own, or none. */
export type ManagedScope = "all" | "own" | "none";
export function managedCoursesScope(actor: Actor | null): ManagedScope {
  if (isAdmin(actor)) return "all";
  return actor && canTeach(actor) ? "own" : "none";
}

/** `canManageCourse` as SQL: every course for an admin, their own for a teacher, none otherwise. */
export function managedCoursesWhere(actor: Actor | null): SQL {
  return managedScopeWhere(managedCoursesScope(actor), actor?.id ?? "");
}

/** `managedCoursesWhere` for a prepared statement: the scope fixed, the teacher's id a placeholder. */
export function managedScopeWhere(scope: ManagedScope, instructorId: string | SQLWrapper): SQL {
  if (scope === "all") return sql`true`;
  if (scope === "none") return sql`false`;
  return eq(courses.instructorId, instructorId);
}

/** A published course is public; a draft or an archived one is seen only by those who manage it. */
export function canViewCourse(actor: Actor | null, course: CourseFacts): boolean {
  return course.status === "published" || canManageCourse(actor, course);
}

/** `canViewCourse` as SQL. */
export function viewableCoursesWhere(actor: Actor | null): SQL {
  return sql`(${eq(courses.status, "published")} or ${managedCoursesWhere(actor)})`;
}

/**
 * Who may follow a course (its home, the lesson player): its learners (`follows`: an active or
 * completed enrolment, which the learning capability knows) and those who manage it, as a preview.
 */
export function canFollowCourse(actor: Actor | null, course: Pick<CourseFacts, "instructorId">, follows: boolean): boolean {
  return follows || canManageCourse(actor, course);
}

/**
 * Who may read a lesson (its text, video and documents): whoever may follow the course, and anyone
 * when the lesson is a free preview of a published course.
 */
export function canReadLesson(actor: Actor | null, course: CourseFacts, lesson: { isFree: boolean }, follows: boolean): boolean {
  return (lesson.isFree && course.status === "published") || canFollowCourse(actor, course, follows);
}

/** Only an administrator gives a course to another teacher. */
export function canAssignInstructor(actor: Actor | null): boolean {
  return isAdmin(actor);
}

/** A teacher's only moves: "Publier" a draft, "Archiver" a published course. An administrator sets any status. */
const teacherTransitions: Partial<Record<CourseFacts["status"], CourseFacts["status"]>> = { draft: "published", published: "archived" };

export function canChangeStatus(actor: Actor | null, from: CourseFacts["status"], to: CourseFacts["status"]): boolean {
  return isAdmin(actor) || (canTeach(actor) && teacherTransitions[from] === to);
}
