import { and, eq, sql } from "drizzle-orm";
import { hashtagsOf } from "~/lib/forum";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { forumLikes, forumReplies, forumThreads, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { notifyUser } from "../notifications";
import { publish, threadTopic } from "../realtime";
import { canDeletePost, canEditPost, canReply } from "./policy";
import { authorName, threadInput, replyInput, validatePost, limitPosting, findThread, findReply, recountReplies } from "./shared";

// ---------------------------------------------------------------------------------------------
// Writing

/** Publishes a new thread; its hashtags become its tags. Returns its id. */
export async function createThread(db: Database, actor: Actor, input: unknown, now = new Date()): Promise<{ id: number }> {
  const data = validatePost(threadInput, input);
  await limitPosting(db, actor, "thread", now);
  return db.transaction(async (tx) => {
    const [thread] = await tx
      .insert(forumThreads)
      .values({
        authorId: actor.id,
        category: data.category,
        title: data.title,
        body: data.body,
        tags: hashtagsOf(data.title, data.body),
        lastActivityAt: now,
        createdAt: now,
      })
      .returning({ id: forumThreads.id });
    await publish(tx, "forum", { type: "thread", id: thread!.id });
    return { id: thread!.id };
  });
}

/** The author rewrites their thread (title, text, category; tags follow the text). */
export async function editThread(db: Database, actor: Actor, id: number, input: unknown, now = new Date()): Promise<void> {
  const thread = await findThread(db, actor, id);
  if (!canEditPost(actor, thread)) throw AppError.forbidden("Seul l'auteur peut modifier ce sujet.");
  const data = validatePost(threadInput, input);
  await db.transaction(async (tx) => {
    await tx
      .update(forumThreads)
      .set({ title: data.title, body: data.body, category: data.category, tags: hashtagsOf(data.title, data.body), editedAt: now })
      .where(eq(forumThreads.id, id));
    await publish(tx, threadTopic(id), { type: "thread_changed", id });
  });
}

/** The author deletes their thread, with its replies. */
export async function deleteThread(db: Database, actor: Actor, id: number): Promise<void> {
  const thread = await findThread(db, actor, id);
  if (!canDeletePost(actor, thread)) throw AppError.forbidden("Seul l'auteur peut supprimer ce sujet.");
  await db.transaction(async (tx) => {
    await tx.delete(forumThreads).where(eq(forumThreads.id, id));
    await publish(tx, threadTopic(id), { type: "thread_deleted", id });
    await publish(tx, "forum", { type: "thread", id });
  });
}

/** Replies to a thread; its author (if someone else) is notified. Returns the reply's id. */
export async function replyToThread(
  db: Database,
  actor: Actor,
  threadId: number,
  input: unknown,
  now = new Date(),
): Promise<{ id: number }> {
  const thread = await findThread(db, actor, threadId);
  if (!canReply(actor, thread)) throw AppError.conflict("Ce sujet est verrouillé : il ne reçoit plus de réponses.", "locked");
  const data = validate(replyInput, input);
  await limitPosting(db, actor, "reply", now);
  return db.transaction(async (tx) => {
    const [reply] = await tx
      .insert(forumReplies)
      .values({ threadId, authorId: actor.id, body: data.body, createdAt: now })
      .returning({ id: forumReplies.id });
    await tx.update(forumThreads).set({ lastActivityAt: now }).where(eq(forumThreads.id, threadId));
    await recountReplies(tx, threadId);
    if (thread.authorId && thread.authorId !== actor.id) {
      const [replier] = await tx.select({ name: authorName }).from(users).where(eq(users.id, actor.id));
      await notifyUser(tx, {
        userId: thread.authorId,
        kind: "forum_reply",
        title: "Nouvelle réponse à votre sujet",
        body: `${replier?.name || "Un membre"} a répondu à « ${thread.title} ».`,
        link: `/dashboard/forum/${threadId}#reponse-${reply!.id}`,
        key: `forum-reply:${reply!.id}`,
        now,
      });
    }
    await publish(tx, threadTopic(threadId), { type: "reply", id: reply!.id });
    await publish(tx, "forum", { type: "activity", id: threadId });
    return { id: reply!.id };
  });
}

export async function editReply(
  db: Database,
  actor: Actor,
  replyId: number,
  input: unknown,
  now = new Date(),
): Promise<{ threadId: number }> {
  const { reply } = await findReply(db, actor, replyId);
  if (!canEditPost(actor, reply)) throw AppError.forbidden("Seul l'auteur peut modifier cette réponse.");
  const data = validate(replyInput, input);
  await db.transaction(async (tx) => {
    await tx.update(forumReplies).set({ body: data.body, editedAt: now }).where(eq(forumReplies.id, replyId));
    await publish(tx, threadTopic(reply.threadId), { type: "reply_changed", id: replyId });
  });
  return { threadId: reply.threadId };
}

export async function deleteReply(db: Database, actor: Actor, replyId: number): Promise<{ threadId: number }> {
  const { reply } = await findReply(db, actor, replyId);
  if (!canDeletePost(actor, reply)) throw AppError.forbidden("Seul l'auteur peut supprimer cette réponse.");
  await db.transaction(async (tx) => {
    await tx.delete(forumReplies).where(eq(forumReplies.id, replyId));
    await recountReplies(tx, reply.threadId);
    await publish(tx, threadTopic(reply.threadId), { type: "reply_changed", id: replyId });
  });
  return { threadId: reply.threadId };
}

/** Likes the thread, or takes the like back: one like per person. Returns the new state. */
export async function toggleLike(db: Database, actor: Actor, threadId: number): Promise<{ liked: boolean; likeCount: number }> {
  await findThread(db, actor, threadId);
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(forumLikes)
      .where(and(eq(forumLikes.threadId, threadId), eq(forumLikes.userId, actor.id)))
      .returning({ userId: forumLikes.userId });
    if (!removed.length) await tx.insert(forumLikes).values({ threadId, userId: actor.id }).onConflictDoNothing();
    // Counted, not incremented: two toggles at once cannot leave the counter wrong.
    const [updated] = await tx
      .update(forumThreads)
      .set({ likeCount: sql`(select count(*) from ${forumLikes} where ${forumLikes.threadId} = ${threadId})` })
      .where(eq(forumThreads.id, threadId))
      .returning({ likeCount: forumThreads.likeCount });
    await publish(tx, threadTopic(threadId), { type: "like", id: threadId });
    return { liked: removed.length === 0, likeCount: updated!.likeCount };
  });
}
