import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { recordAudit } from "../audit";
import type { Database } from "../db/client";
import { forumReplies, forumReports, forumThreads, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { publish, threadTopic } from "../realtime";
import { canHandleReports, canModerateForum, canReportPost } from "./policy";
import { reportInput, limitPosting, findThread, findReply, recountReplies, taughtCourses } from "./shared";

export type ModerationAction = "pin" | "unpin" | "lock" | "unlock" | "hide" | "unhide";

const MODERATORS_ONLY = "Seuls les administrateurs et les enseignants d'une formation modèrent le forum.";

/** An administrator or a teacher of a course pins, locks or hides a thread (and undoes it); logged in the audit log. */
export async function moderateThread(db: Database, actor: Actor, threadId: number, action: ModerationAction, now = new Date()) {
  const thread = await findThread(db, actor, threadId);
  if (!canModerateForum(actor, await taughtCourses(db, actor))) throw AppError.forbidden(MODERATORS_ONLY);
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
    await recordAudit(tx, {
      actorId: actor.id,
      action: `forum_thread_${action}`,
      targetUserId: thread.authorId,
      details: { threadId, title: thread.title },
      createdAt: now,
    });
    await publish(tx, threadTopic(threadId), { type: "thread_changed", id: threadId });
    await publish(tx, "forum", { type: "thread", id: threadId });
  });
}

/** An administrator or a teacher of a course hides a reply (or shows it again); logged in the audit log. */
export async function moderateReply(db: Database, actor: Actor, replyId: number, action: "hide" | "unhide", now = new Date()) {
  const { reply, thread } = await findReply(db, actor, replyId);
  if (!canModerateForum(actor, await taughtCourses(db, actor))) throw AppError.forbidden(MODERATORS_ONLY);
  await db.transaction(async (tx) => {
    await tx
      .update(forumReplies)
      .set(action === "hide" ? { hiddenAt: now, hiddenBy: actor.id } : { hiddenAt: null, hiddenBy: null })
      .where(eq(forumReplies.id, replyId));
    await recountReplies(tx, reply.threadId);
    if (action === "hide") await resolveReportsOf(tx, actor, { threadId: reply.threadId, replyId }, now);
    await recordAudit(tx, {
      actorId: actor.id,
      action: `forum_reply_${action}`,
      targetUserId: reply.authorId,
      details: { threadId: reply.threadId, replyId, title: thread.title },
      createdAt: now,
    });
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
