import { and, asc, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { forumCategories, type ForumCategory } from "~/lib/forum";
import { MAX_SERIAL_ID } from "~/lib/limits";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { readPage } from "../db/paging";
import { containsText } from "../db/like";
import { forumLikes, forumReplies, forumThreads, users } from "../db/schema";
import { AppError } from "../errors";
import { type TopicRule } from "../realtime";
import {
  canDeletePost,
  canEditPost,
  canModerateForum,
  canReadPost,
  canReportPost,
  canReply,
  visibleRepliesWhere,
  visibleThreadsWhere,
} from "./policy";
import {
  FORUM_PAGE_SIZE,
  REPLIES_PAGE_SIZE,
  TRENDING_WINDOW_MS,
  type ForumAuthor,
  authorName,
  authorOf,
  asCategory,
  taughtCourses,
} from "./shared";

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
      moderate: canModerateForum(actor, await taughtCourses(db, actor)),
      report: canReportPost(actor, thread),
    },
  };
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
