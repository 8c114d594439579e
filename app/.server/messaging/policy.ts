import { and, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { canTeach, isAdmin, type Actor } from "../auth/actor";
import { conversationMembers, conversations, courses, enrolments, users } from "../db/schema";
import { followingEnrolment } from "../learning";

/**
 * Who may talk to whom, the one place these rules are written (a leaf module):
 * - a learner may start a conversation with the teachers of their courses (an enrolment opened:
 *   active or completed) and with the administration;
 * - a teacher with their learners (the same enrolments, in the courses they teach) and with the
 *   administration;
 * - an administrator with anyone;
 * - nobody with a closed account, nor with themselves.
 * A conversation, once started, is read and written by its two people. A course group is read and
 * written, at every moment, by the course's teacher and its active learners; administrators may
 * open any group (it is not listed among their conversations unless they teach the course).
 */

/** The enrolments that make a learner a member of the course's group. */
export const GROUP_ENROLMENT_STATUSES = ["active"] as const;

const adminRow = sql`${users.role} = 'admin'`;

/** `exists (…)` around a raw subquery (drizzle's `exists` parenthesizes only query builders). */
const exists = (query: SQL): SQL => sql`exists (${query})`;

/** `actor` teaches a course `users` row is enrolled in. */
function learnerOf(actorId: string): SQL {
  return exists(
    sql`select 1 from ${enrolments} inner join ${courses} on ${courses.id} = ${enrolments.courseId}
        where ${enrolments.userId} = ${users.id} and ${courses.instructorId} = ${actorId}
        and ${followingEnrolment()}`,
  );
}

/** `users` row teaches a course `actor` is enrolled in. */
function teacherOf(actorId: string): SQL {
  return exists(
    sql`select 1 from ${enrolments} inner join ${courses} on ${courses.id} = ${enrolments.courseId}
        where ${enrolments.userId} = ${actorId} and ${courses.instructorId} = ${users.id}
        and ${followingEnrolment()}`,
  );
}

/** The people (rows of `users`) `actor` may start a conversation with. */
export function contactablePeopleWhere(actor: Actor): SQL {
  const open = and(ne(users.id, actor.id), eq(users.banned, false))!;
  if (isAdmin(actor)) return open;
  if (canTeach(actor)) return and(open, or(adminRow, learnerOf(actor.id)))!;
  return and(open, or(adminRow, teacherOf(actor.id)))!;
}

/** `userId` is a member of the course group of `courseId` (SQL expressions; the query around must not read `courses`). */
function groupMember(userId: SQL | string, courseId: SQL): SQL {
  return or(
    exists(sql`select 1 from ${courses} where ${courses.id} = ${courseId} and ${courses.instructorId} = ${userId}`),
    exists(
      sql`select 1 from ${enrolments} where ${enrolments.courseId} = ${courseId} and ${enrolments.userId} = ${userId}
          and ${inArray(enrolments.status, [...GROUP_ENROLMENT_STATUSES])}`,
    ),
  )!;
}

function directMember(userId: SQL | string): SQL {
  return exists(
    sql`select 1 from ${conversationMembers} where ${conversationMembers.conversationId} = ${conversations.id}
        and ${conversationMembers.userId} = ${userId}`,
  );
}

/** The conversations (rows of `conversations`) `actor` belongs to: their list. */
export function memberConversationsWhere(actor: Actor): SQL {
  return or(
    and(eq(conversations.kind, "direct"), directMember(actor.id)),
    and(eq(conversations.kind, "course"), groupMember(actor.id, sql`${conversations.courseId}`)),
  )!;
}

/** The conversations `actor` may read and write: their own, and for administrators every course group. */
export function readableConversationsWhere(actor: Actor): SQL {
  if (isAdmin(actor)) return or(eq(conversations.kind, "course"), memberConversationsWhere(actor))!;
  return memberConversationsWhere(actor);
}

/** The members (rows of `users`) of a conversation (a row of `conversations` in the query). */
export function conversationMembersWhere(): SQL {
  return or(
    and(eq(conversations.kind, "direct"), directMember(sql`${users.id}`)),
    and(eq(conversations.kind, "course"), groupMember(sql`${users.id}`, sql`${conversations.courseId}`)),
  )!;
}

/**
 * The people (rows of `users`) who may still hear a conversation (a row of `conversations` in the
 * query): its members, and administrators for a group. Checked before each live event, since a
 * learner whose enrolment ends leaves the group.
 */
export function conversationAudienceWhere(): SQL {
  return or(conversationMembersWhere(), and(eq(conversations.kind, "course"), adminRow))!;
}

/** The courses whose group `actor` belongs to (rows of `courses`, not drafts): their teacher, or an active learner. */
export function groupCoursesWhere(actor: Actor): SQL {
  const learner = exists(
    sql`select 1 from ${enrolments} where ${enrolments.courseId} = ${courses.id} and ${enrolments.userId} = ${actor.id}
        and ${inArray(enrolments.status, [...GROUP_ENROLMENT_STATUSES])}`,
  );
  return and(ne(courses.status, "draft"), or(eq(courses.instructorId, actor.id), learner))!;
}

/** The signed-in area whose messaging screen a person uses (where their notifications lead). */
export function messagingAreaOf(person: Actor): "dashboard" | "teacher" {
  return canTeach(person) && !isAdmin(person) ? "teacher" : "dashboard";
}
