import { eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { canTeach, isAdmin, isSelf, type Actor } from "../auth/actor";
import { forumReplies, forumThreads } from "../db/schema";

/**
 * Who may do what in the forum, the one place these rules are written. Every signed-in person
 * reads and writes; authors edit and delete their own posts; administrators, and teachers who
 * teach a course, moderate (pin, lock, hide); administrators deal with reports. A hidden post
 * stays visible to its author and to the staff (teachers and administrators) only. A leaf module.
 */

type PostFacts = { authorId: string | null; hiddenAt: Date | null };

/** The staff: they see hidden posts and may still reply in a locked thread. */
function isForumStaff(actor: Actor | null): boolean {
  return canTeach(actor);
}

/**
 * Who pins, locks or hides a post: administrators, and teachers who teach at least one course
 * (`taughtCourses`, counted by the caller). The forum is the institute's one community forum:
 * a thread belongs to no course (forum_threads has no course_id), so "the teachers of the thread's
 * course" cannot be checked; a teacher of some course is the nearest rule, and a teacher without
 * any (a new or a former one) moderates nothing. Every moderation is written in the audit log.
 */
export function canModerateForum(actor: Actor | null, teaching: { taughtCourses: number }): boolean {
  return isAdmin(actor) || (canTeach(actor) && teaching.taughtCourses > 0);
}

/** Whether `canModerateForum` needs the courses `actor` teaches: administrators moderate without. */
export function moderatesThroughTeaching(actor: Actor | null): boolean {
  return canTeach(actor) && !isAdmin(actor);
}

export function canReadPost(actor: Actor | null, post: PostFacts): boolean {
  return post.hiddenAt === null || isForumStaff(actor) || isSelf(actor, post.authorId);
}

/** `canReadPost` for threads, as SQL. */
export function visibleThreadsWhere(actor: Actor): SQL {
  if (isForumStaff(actor)) return sql`true`;
  return or(isNull(forumThreads.hiddenAt), eq(forumThreads.authorId, actor.id))!;
}

/** `canReadPost` for replies, as SQL. */
export function visibleRepliesWhere(actor: Actor): SQL {
  if (isForumStaff(actor)) return sql`true`;
  return or(isNull(forumReplies.hiddenAt), eq(forumReplies.authorId, actor.id))!;
}

export function canEditPost(actor: Actor | null, post: PostFacts): boolean {
  return isSelf(actor, post.authorId);
}

export function canDeletePost(actor: Actor | null, post: PostFacts): boolean {
  return isSelf(actor, post.authorId);
}

/** A locked thread takes no more replies, except from the staff. */
export function canReply(actor: Actor | null, thread: PostFacts & { locked: boolean }): boolean {
  return canReadPost(actor, thread) && (!thread.locked || isForumStaff(actor));
}

/** One reports someone else's post, never one's own. */
export function canReportPost(actor: Actor | null, post: PostFacts): boolean {
  return canReadPost(actor, post) && !isSelf(actor, post.authorId);
}

export function canHandleReports(actor: Actor | null): boolean {
  return isAdmin(actor);
}
