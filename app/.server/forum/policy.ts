import { eq, isNull, or, sql, type SQL } from "drizzle-orm";
import { canTeach, isAdmin, isSelf, type Actor } from "../auth/actor";
import { forumReplies, forumThreads } from "../db/schema";

/**
 * Who may do what in the forum, the one place these rules are written. Every signed-in person
 * reads and writes; authors edit and delete their own posts; teachers and administrators moderate
 * (pin, lock, hide) any; administrators deal with reports. A hidden post stays visible to its
 * author and to moderators only. A leaf module.
 */

type PostFacts = { authorId: string | null; hiddenAt: Date | null };

export function canModerateForum(actor: Actor | null): boolean {
  return canTeach(actor);
}

export function canReadPost(actor: Actor | null, post: PostFacts): boolean {
  return post.hiddenAt === null || canModerateForum(actor) || isSelf(actor, post.authorId);
}

/** `canReadPost` for threads, as SQL. */
export function visibleThreadsWhere(actor: Actor): SQL {
  if (canModerateForum(actor)) return sql`true`;
  return or(isNull(forumThreads.hiddenAt), eq(forumThreads.authorId, actor.id))!;
}

/** `canReadPost` for replies, as SQL. */
export function visibleRepliesWhere(actor: Actor): SQL {
  if (canModerateForum(actor)) return sql`true`;
  return or(isNull(forumReplies.hiddenAt), eq(forumReplies.authorId, actor.id))!;
}

export function canEditPost(actor: Actor | null, post: PostFacts): boolean {
  return isSelf(actor, post.authorId);
}

export function canDeletePost(actor: Actor | null, post: PostFacts): boolean {
  return isSelf(actor, post.authorId);
}

/** A locked thread takes no more replies, except from moderators. */
export function canReply(actor: Actor | null, thread: PostFacts & { locked: boolean }): boolean {
  return canReadPost(actor, thread) && (!thread.locked || canModerateForum(actor));
}

/** One reports someone else's post, never one's own. */
export function canReportPost(actor: Actor | null, post: PostFacts): boolean {
  return canReadPost(actor, post) && !isSelf(actor, post.authorId);
}

export function canHandleReports(actor: Actor | null): boolean {
  return isAdmin(actor);
}
