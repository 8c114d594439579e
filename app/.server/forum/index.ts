import { and, asc, count, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import {
  DEFAULT_FORUM_CATEGORY,
  FORUM_LIMITS,
  FORUM_REQUIRED_MESSAGE,
  forumCategories,
  forumCategorySlugs,
  hashtagsOf,
  type ForumCategory,
} from "~/lib/forum";
import { isRole, type Role } from "~/lib/roles";
import { MAX_SERIAL_ID } from "~/lib/limits";
import { choice, requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { readPage } from "../db/paging";
import { containsText } from "../db/like";
import { forumLikes, forumReplies, forumReports, forumThreads, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { notifyUser } from "../notifications";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { publish, threadTopic, type TopicRule } from "../realtime";
import {
  canDeletePost,
  canEditPost,
  canHandleReports,
  canModerateForum,
  canReadPost,
  canReportPost,
  canReply,
  visibleRepliesWhere,
  visibleThreadsWhere,
} from "./policy";

/**
 * The community forum (/dashboard/forum): threads in the specification's categories, with
 * replies, likes, #hashtags, moderation and reports. Every function takes the acting person;
 * what they may not see is "not found".
 */

export const FORUM_PAGE_SIZE = 15;
export const REPLIES_PAGE_SIZE = 50;
/** Trending hashtags are counted over the threads of the last 30 days. */
const TRENDING_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** Posting is limited per person: threads and replies per 10 minutes. */
export const FORUM_RATE_LIMITS = {
  thread: { limit: 5, windowSeconds: 10 * 60 },
  reply: { limit: 20, windowSeconds: 10 * 60 },
  report: { limit: 20, windowSeconds: 60 * 60 },
};

export type ForumAuthor = { id: string; name: string; role: Role } | null;

const authorName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

function authorOf(row: { authorId: string | null; authorName: string | null; authorRole: string | null }): ForumAuthor {
  if (!row.authorId) return null;
  return { id: row.authorId, name: row.authorName || "Membre", role: isRole(row.authorRole) ? row.authorRole : "user" };
}

const threadInput = z.object({
  title: requiredText({ label: "Le titre", max: FORUM_LIMITS.title }),
  body: requiredText({ label: "Le contenu", max: FORUM_LIMITS.body }),
  category: choice(forumCategorySlugs, DEFAULT_FORUM_CATEGORY),
});
const replyInput = z.object({ body: requiredText({ label: "La réponse", max: FORUM_LIMITS.reply }) });
const reportInput = z.object({ reason: requiredText({ label: "La raison", max: FORUM_LIMITS.reportReason }) });

/** Parses a post: a missing title or content is the specification's one message above the form. */
function validatePost<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  try {
    return validate(schema, input);
  } catch (error) {
    if (error instanceof AppError && Object.values(error.fieldErrors).some((message) => message.endsWith("est obligatoire."))) {
      throw AppError.invalid(error.fieldErrors, FORUM_REQUIRED_MESSAGE);
    }
    throw error;
  }
}

async function limitPosting(db: Database, actor: Actor, what: keyof typeof FORUM_RATE_LIMITS, now: Date) {
  const result = await consumeRateLimit(db, `forum:${what}:${actor.id}`, { ...FORUM_RATE_LIMITS[what], now });
  if (!result.allowed) {
    throw AppError.rateLimited(`Vous publiez beaucoup en peu de temps : réessayez dans ${formatRetryAfter(result.retryAfterSeconds)}.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

export type ThreadSummary = {
  id: number;
  title: string;
  excerpt: string;
  category: ForumCategory;
  tags: string[];
  pinned: boolean;
  locked: boolean;
  hidden: boolean;
  author: ForumAuthor;
  createdAt: Date;
  lastActivityAt: Date;
  likeCount: number;
  replyCount: number;
  likedByMe: boolean;
};

export type ThreadFilters = { q?: string; category?: ForumCategory | null; tag?: string | null; page?: number };

function threadFiltersWhere(actor: Actor, filters: ThreadFilters) {
  return and(
    visibleThreadsWhere(actor),
    filters.category ? eq(forumThreads.category, filters.category) : undefined,
    filters.tag ? sql`${filters.tag.toLowerCase()} = any(${forumThreads.tags})` : undefined,
    filters.q ? containsText(filters.q, forumThreads.title, forumThreads.body, authorName) : undefined,
  );
}

/** The threads `actor` may read, pinned first then by latest activity, one page at a time. */
export async function listThreads(db: Database, actor: Actor, filters: ThreadFilters = {}) {
  const where = threadFiltersWhere(actor, filters);
  const {
    rows,
    total,
    page,
    pageCount: pages,
  } = await readPage({
    asked: filters.page,
    size: FORUM_PAGE_SIZE,
    count: () => db.select({ total: count() }).from(forumThreads).leftJoin(users, eq(users.id, forumThreads.authorId)).where(where),
    rows: (offset) =>
      db
        .select({
          id: forumThreads.id,
          title: forumThreads.title,
          excerpt: sql<string>`left(${forumThreads.body}, 320)`,
          category: forumThreads.category,
          tags: forumThreads.tags,
          pinned: forumThreads.pinned,
          locked: forumThreads.locked,
          hiddenAt: forumThreads.hiddenAt,
          authorId: forumThreads.authorId,
          authorName,
          authorRole: users.role,
          createdAt: forumThreads.createdAt,
          lastActivityAt: forumThreads.lastActivityAt,
          likeCount: forumThreads.likeCount,
          replyCount: forumThreads.replyCount,
          likedByMe: sql<boolean>`exists (select 1 from ${forumLikes} where ${forumLikes.threadId} = ${forumThreads.id} and ${forumLikes.userId} = ${actor.id})`,
        })
        .from(forumThreads)
        .leftJoin(users, eq(users.id, forumThreads.authorId))
        .where(where)
        .orderBy(desc(forumThreads.pinned), desc(forumThreads.lastActivityAt), desc(forumThreads.id))
        .limit(FORUM_PAGE_SIZE)
        .offset(offset),
  });
  const threads: ThreadSummary[] = rows.map((row) => ({
    id: row.id,
    title: row.title,
    excerpt: row.excerpt,
    category: asCategory(row.category),
    tags: row.tags,
    pinned: row.pinned,
    locked: row.locked,
    hidden: row.hiddenAt !== null,
    author: authorOf(row),
    createdAt: row.createdAt,
    lastActivityAt: row.lastActivityAt,
    likeCount: row.likeCount,
    replyCount: row.replyCount,
    likedByMe: Boolean(row.likedByMe),
  }));
  return { threads, total, page, pages };
}

function asCategory(value: string): ForumCategory {
  return (forumCategorySlugs as string[]).includes(value) ? (value as ForumCategory) : DEFAULT_FORUM_CATEGORY;
}

/** The left column: threads per category (and in all), and the most used hashtags of the last 30 days. */
export async function forumOverview(db: Database, actor: Actor, now: Date) {
  const tag = sql<string>`unnest(${forumThreads.tags})`;
  const [perCategory, trending] = await Promise.all([
    db
      .select({ category: forumThreads.category, total: count() })
      .from(forumThreads)
      .where(visibleThreadsWhere(actor))
      .groupBy(forumThreads.category),
    db
      .select({ tag, uses: count() })
      .from(forumThreads)
      .where(and(visibleThreadsWhere(actor), gte(forumThreads.createdAt, new Date(now.getTime() - TRENDING_WINDOW_MS))))
      .groupBy(sql`1`)
      .orderBy(desc(count()), asc(sql`1`))
      .limit(8),
  ]);
  const counts = new Map(perCategory.map((row) => [row.category, row.total]));
  return {
    categories: forumCategories.map((category) => ({ ...category, count: counts.get(category.slug) ?? 0 })),
    total: perCategory.reduce((sum, row) => sum + row.total, 0),
    trending: trending.map((row) => ({ tag: row.tag, uses: row.uses })),
  };
}

export type ReplyView = { id: number; body: string; author: ForumAuthor; createdAt: Date; editedAt: Date | null; hidden: boolean };

/** The thread, if `actor` may read it; otherwise not found, as if it did not exist. */
async function findThread(db: Database, actor: Actor, id: number) {
  const [thread] = await db.select().from(forumThreads).where(eq(forumThreads.id, id));
  if (!thread || !canReadPost(actor, thread)) throw AppError.notFound("Sujet introuvable.");
  return thread;
}

/** A thread as `actor` may read it, its replies `REPLIES_PAGE_SIZE` at a time, and what they may do with it. */
export async function getThread(db: Database, actor: Actor, id: number, options: { page?: number } = {}) {
  // The thread and its page of replies are read at once; the replies are returned only once the
  // actor may read the thread.
  const visible = and(eq(forumReplies.threadId, id), visibleRepliesWhere(actor));
  const repliesPage = readPage({
    asked: options.page,
    size: REPLIES_PAGE_SIZE,
    count: () => db.select({ total: count() }).from(forumReplies).where(visible),
    rows: (offset) =>
      db
        .select({
          id: forumReplies.id,
          body: forumReplies.body,
          authorId: forumReplies.authorId,
          authorName,
          authorRole: users.role,
          createdAt: forumReplies.createdAt,
          editedAt: forumReplies.editedAt,
          hiddenAt: forumReplies.hiddenAt,
        })
        .from(forumReplies)
        .leftJoin(users, eq(users.id, forumReplies.authorId))
        .where(visible)
        .orderBy(asc(forumReplies.id))
        .limit(REPLIES_PAGE_SIZE)
        .offset(offset),
  });
  repliesPage.catch(() => {});
  const [row] = await db
    .select({
      thread: forumThreads,
      authorName,
      authorRole: users.role,
      likedByMe: sql<boolean>`exists (select 1 from ${forumLikes} where ${forumLikes.threadId} = ${forumThreads.id} and ${forumLikes.userId} = ${actor.id})`,
    })
    .from(forumThreads)
    .leftJoin(users, eq(users.id, forumThreads.authorId))
    .where(eq(forumThreads.id, id));
  if (!row || !canReadPost(actor, row.thread)) throw AppError.notFound("Sujet introuvable.");
  const { thread } = row;
  const { rows: replies, total, page, pageCount: pages } = await repliesPage;
  return {
    thread: {
      id: thread.id,
      title: thread.title,
      body: thread.body,
      category: asCategory(thread.category),
      tags: thread.tags,
      pinned: thread.pinned,
      locked: thread.locked,
      hidden: thread.hiddenAt !== null,
      author: authorOf({ authorId: thread.authorId, authorName: row.authorName, authorRole: row.authorRole }),
      createdAt: thread.createdAt,
      editedAt: thread.editedAt,
      likeCount: thread.likeCount,
      replyCount: thread.replyCount,
      likedByMe: Boolean(row.likedByMe),
    },
    replies: replies.map((reply): ReplyView & { can: { edit: boolean; delete: boolean; report: boolean } } => ({
      id: reply.id,
      body: reply.body,
      author: authorOf(reply),
      createdAt: reply.createdAt,
      editedAt: reply.editedAt,
      hidden: reply.hiddenAt !== null,
      can: { edit: canEditPost(actor, reply), delete: canDeletePost(actor, reply), report: canReportPost(actor, reply) },
    })),
    page,
    pages,
    totalReplies: total,
    can: {
      edit: canEditPost(actor, thread),
      delete: canDeletePost(actor, thread),
      reply: canReply(actor, thread),
      moderate: canModerateForum(actor),
      report: canReportPost(actor, thread),
    },
  };
}

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

/** The replies counter: the replies everyone sees. */
async function recountReplies(tx: Database, threadId: number) {
  await tx
    .update(forumThreads)
    .set({
      replyCount: sql`(select count(*) from ${forumReplies} where ${forumReplies.threadId} = ${threadId} and ${forumReplies.hiddenAt} is null)`,
    })
    .where(eq(forumThreads.id, threadId));
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

async function findReply(db: Database, actor: Actor, replyId: number) {
  const [reply] = await db
    .select({ reply: forumReplies, thread: forumThreads })
    .from(forumReplies)
    .innerJoin(forumThreads, eq(forumThreads.id, forumReplies.threadId))
    .where(eq(forumReplies.id, replyId));
  if (!reply || !canReadPost(actor, reply.thread) || !canReadPost(actor, reply.reply)) throw AppError.notFound("Réponse introuvable.");
  return reply;
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

export type ModerationAction = "pin" | "unpin" | "lock" | "unlock" | "hide" | "unhide";

/** A teacher or an administrator pins, locks or hides a thread (and undoes it). */
export async function moderateThread(db: Database, actor: Actor, threadId: number, action: ModerationAction, now = new Date()) {
  await findThread(db, actor, threadId);
  if (!canModerateForum(actor)) throw AppError.forbidden("Seuls les enseignants et les administrateurs modèrent le forum.");
  const change = {
    pin: { pinned: true },
    unpin: { pinned: false },
    lock: { locked: true },
    unlock: { locked: false },
    hide: { hiddenAt: now, hiddenBy: actor.id },
    unhide: { hiddenAt: null, hiddenBy: null },
  }[action];
  await db.transaction(async (tx) => {
    await tx.update(forumThreads).set(change).where(eq(forumThreads.id, threadId));
    if (action === "hide") await resolveReportsOf(tx, actor, { threadId }, now);
    await publish(tx, threadTopic(threadId), { type: "thread_changed", id: threadId });
    await publish(tx, "forum", { type: "thread", id: threadId });
  });
}

/** A teacher or an administrator hides a reply (or shows it again). */
export async function moderateReply(db: Database, actor: Actor, replyId: number, action: "hide" | "unhide", now = new Date()) {
  const { reply } = await findReply(db, actor, replyId);
  if (!canModerateForum(actor)) throw AppError.forbidden("Seuls les enseignants et les administrateurs modèrent le forum.");
  await db.transaction(async (tx) => {
    await tx
      .update(forumReplies)
      .set(action === "hide" ? { hiddenAt: now, hiddenBy: actor.id } : { hiddenAt: null, hiddenBy: null })
      .where(eq(forumReplies.id, replyId));
    await recountReplies(tx, reply.threadId);
    if (action === "hide") await resolveReportsOf(tx, actor, { threadId: reply.threadId, replyId }, now);
    await publish(tx, threadTopic(reply.threadId), { type: "reply_changed", id: replyId });
  });
  return { threadId: reply.threadId };
}

// ---------------------------------------------------------------------------------------------
// Reports

/** Anyone reports a post they can read; reporting the same post again while it is open changes nothing. */
export async function reportPost(
  db: Database,
  actor: Actor,
  target: { threadId: number; replyId?: number | null },
  input: unknown,
  now = new Date(),
) {
  const reply = target.replyId ? (await findReply(db, actor, target.replyId)).reply : null;
  if (reply && reply.threadId !== target.threadId) throw AppError.notFound("Réponse introuvable.");
  const post = reply ?? (await findThread(db, actor, target.threadId));
  if (!canReportPost(actor, post)) throw AppError.forbidden("Vous ne pouvez pas signaler votre propre message.");
  const data = validate(reportInput, input);
  await limitPosting(db, actor, "report", now);
  await db
    .insert(forumReports)
    .values({ threadId: target.threadId, replyId: target.replyId ?? null, reporterId: actor.id, reason: data.reason, createdAt: now })
    .onConflictDoNothing();
}

async function resolveReportsOf(tx: Database, actor: Actor, target: { threadId: number; replyId?: number }, now: Date) {
  await tx
    .update(forumReports)
    .set({ resolvedAt: now, resolvedBy: actor.id })
    .where(
      and(
        eq(forumReports.threadId, target.threadId),
        target.replyId ? eq(forumReports.replyId, target.replyId) : isNull(forumReports.replyId),
        isNull(forumReports.resolvedAt),
      ),
    );
}

/** The open reports, oldest first, for administrators. */
export async function listOpenReports(db: Database, actor: Actor) {
  if (!canHandleReports(actor)) throw AppError.notFound("Page introuvable.");
  const reporter = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;
  const rows = await db
    .select({
      id: forumReports.id,
      threadId: forumReports.threadId,
      replyId: forumReports.replyId,
      reason: forumReports.reason,
      createdAt: forumReports.createdAt,
      reporter,
      threadTitle: forumThreads.title,
      threadHidden: sql<boolean>`${forumThreads.hiddenAt} is not null`,
      text: sql<string>`left(coalesce(${forumReplies.body}, ${forumThreads.body}), 400)`,
      replyHidden: sql<boolean>`${forumReplies.hiddenAt} is not null`,
    })
    .from(forumReports)
    .innerJoin(forumThreads, eq(forumThreads.id, forumReports.threadId))
    .leftJoin(forumReplies, eq(forumReplies.id, forumReports.replyId))
    .innerJoin(users, eq(users.id, forumReports.reporterId))
    .where(isNull(forumReports.resolvedAt))
    .orderBy(asc(forumReports.createdAt))
    .limit(200);
  return rows;
}

export async function countOpenReports(db: Database, actor: Actor): Promise<number> {
  if (!canHandleReports(actor)) return 0;
  const [row] = await db.select({ total: count() }).from(forumReports).where(isNull(forumReports.resolvedAt));
  return row?.total ?? 0;
}

/** An administrator closes a report: dismissed, or the post hidden (which closes every report of it). */
export async function resolveReport(db: Database, actor: Actor, reportId: number, decision: "dismiss" | "hide", now = new Date()) {
  if (!canHandleReports(actor)) throw AppError.notFound("Signalement introuvable.");
  const [report] = await db.select().from(forumReports).where(eq(forumReports.id, reportId));
  if (!report) throw AppError.notFound("Signalement introuvable.");
  if (report.resolvedAt) return;
  if (decision === "hide") {
    if (report.replyId) await moderateReply(db, actor, report.replyId, "hide", now);
    else await moderateThread(db, actor, report.threadId, "hide", now);
    return;
  }
  await db.update(forumReports).set({ resolvedAt: now, resolvedBy: actor.id }).where(eq(forumReports.id, reportId));
}

/** Search for the top bar: the first threads `actor` may read whose title, text or author match. */
export async function searchThreads(db: Database, actor: Actor, q: string, limit = 5) {
  const rows = await db
    .select({ id: forumThreads.id, title: forumThreads.title, category: forumThreads.category, replyCount: forumThreads.replyCount })
    .from(forumThreads)
    .leftJoin(users, eq(users.id, forumThreads.authorId))
    .where(and(visibleThreadsWhere(actor), containsText(q, forumThreads.title, forumThreads.body, authorName)))
    .orderBy(desc(forumThreads.lastActivityAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, category: asCategory(row.category) }));
}

/** Who may follow the forum's realtime topics: "forum" (every signed-in reader) and "thread:<id>" (its readers). */
export const forumTopicRules: TopicRule[] = [
  { prefix: "forum", allowed: async (_db, _actor, ids) => new Set(ids.filter((id) => id === "")) },
  {
    prefix: "thread",
    allowed: async (db, actor, ids) => {
      const wanted = ids.map(Number).filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_SERIAL_ID);
      if (!wanted.length) return new Set();
      const rows = await db
        .select({ id: forumThreads.id })
        .from(forumThreads)
        .where(and(inArray(forumThreads.id, wanted), visibleThreadsWhere(actor)));
      return new Set(rows.map((row) => String(row.id)));
    },
  },
];
