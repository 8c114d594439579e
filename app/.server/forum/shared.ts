import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { DEFAULT_FORUM_CATEGORY, FORUM_LIMITS, FORUM_REQUIRED_MESSAGE, forumCategorySlugs, type ForumCategory } from "~/lib/forum";
import { isRole, type Role } from "~/lib/roles";
import { choice, requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, forumReplies, forumThreads, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { canReadPost, moderatesThroughTeaching } from "./policy";

/** What the forum's reading, writing and moderation modules share: limits, inputs, lookups. */

export const FORUM_PAGE_SIZE = 15;
export const REPLIES_PAGE_SIZE = 50;
/** Trending hashtags are counted over the threads of the last 30 days. */
export const TRENDING_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** Posting is limited per person: threads and replies per 10 minutes. */
export const FORUM_RATE_LIMITS = {
  thread: { limit: 5, windowSeconds: 10 * 60 },
  reply: { limit: 20, windowSeconds: 10 * 60 },
  report: { limit: 20, windowSeconds: 60 * 60 },
};

export type ForumAuthor = { id: string; name: string; role: Role } | null;

export const authorName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

export function authorOf(row: { authorId: string | null; authorName: string | null; authorRole: string | null }): ForumAuthor {
  if (!row.authorId) return null;
  return { id: row.authorId, name: row.authorName || "Membre", role: isRole(row.authorRole) ? row.authorRole : "user" };
}

export const threadInput = z.object({
  title: requiredText({ label: "Le titre", max: FORUM_LIMITS.title }),
  body: requiredText({ label: "Le contenu", max: FORUM_LIMITS.body }),
  category: choice(forumCategorySlugs, DEFAULT_FORUM_CATEGORY),
});
export const replyInput = z.object({ body: requiredText({ label: "La réponse", max: FORUM_LIMITS.reply }) });
export const reportInput = z.object({ reason: requiredText({ label: "La raison", max: FORUM_LIMITS.reportReason }) });

/** Parses a post: a missing title or content is the specification's one message above the form. */
export function validatePost<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  try {
    return validate(schema, input);
  } catch (error) {
    if (error instanceof AppError && Object.values(error.fieldErrors).some((message) => message.endsWith("est obligatoire."))) {
      throw AppError.invalid(error.fieldErrors, FORUM_REQUIRED_MESSAGE);
    }
    throw error;
  }
}

export async function limitPosting(db: Database, actor: Actor, what: keyof typeof FORUM_RATE_LIMITS, now: Date) {
  const result = await consumeRateLimit(db, `forum:${what}:${actor.id}`, { ...FORUM_RATE_LIMITS[what], now });
  if (!result.allowed) {
    throw AppError.rateLimited(`Vous publiez beaucoup en peu de temps : réessayez dans ${formatRetryAfter(result.retryAfterSeconds)}.`);
  }
}

/** The thread, if `actor` may read it; otherwise not found, as if it did not exist. */
export async function findThread(db: Database, actor: Actor, id: number) {
  const [thread] = await db.select().from(forumThreads).where(eq(forumThreads.id, id));
  if (!thread || !canReadPost(actor, thread)) throw AppError.notFound("Sujet introuvable.");
  return thread;
}

/** The reply and its thread, if `actor` may read both; otherwise not found. */
export async function findReply(db: Database, actor: Actor, replyId: number) {
  const [reply] = await db
    .select({ reply: forumReplies, thread: forumThreads })
    .from(forumReplies)
    .innerJoin(forumThreads, eq(forumThreads.id, forumReplies.threadId))
    .where(eq(forumReplies.id, replyId));
  if (!reply || !canReadPost(actor, reply.thread) || !canReadPost(actor, reply.reply)) throw AppError.notFound("Réponse introuvable.");
  return reply;
}

/** The replies counter: the replies everyone sees. */
export async function recountReplies(tx: Database, threadId: number) {
  await tx
    .update(forumThreads)
    .set({
      replyCount: sql`(select count(*) from ${forumReplies} where ${forumReplies.threadId} = ${threadId} and ${forumReplies.hiddenAt} is null)`,
    })
    .where(eq(forumThreads.id, threadId));
}

export function asCategory(value: string): ForumCategory {
  return (forumCategorySlugs as string[]).includes(value) ? (value as ForumCategory) : DEFAULT_FORUM_CATEGORY;
}

/** How many courses `actor` teaches: what canModerateForum needs to know of a teacher. */
export async function taughtCourses(db: Database, actor: Actor): Promise<{ taughtCourses: number }> {
  if (!moderatesThroughTeaching(actor)) return { taughtCourses: 0 };
  return { taughtCourses: await db.$count(courses, eq(courses.instructorId, actor.id)) };
}
