import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { auditLog, forumThreads, notifications } from "~/.server/db/schema";
import { AppError } from "~/.server/errors";
import {
  countOpenReports,
  deleteReply,
  deleteThread,
  editThread,
  forumOverview,
  getThread,
  listOpenReports,
  listThreads,
  moderateReply,
  moderateThread,
  reportPost,
  resolveReport,
  toggleLike,
} from "~/.server/forum";
import { FORUM_REQUIRED_MESSAGE } from "~/lib/forum";
import { createCourse, createReply, createThread, createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let learner: TestUser;
let other: TestUser;
let teacher: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  learner = await createUser(handle.db, { firstName: "Aïssata", lastName: "Keïta" });
  other = await createUser(handle.db, { firstName: "Moussa", lastName: "Diarra" });
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Traoré" });
  admin = await createUser(handle.db, { role: "admin" });
  // Moderators are the administrators and the teachers of a course.
  await createCourse(handle.db, { instructor: teacher });
});
afterAll(async () => handle?.close());

/** The AppError a call was refused with (or null if it was not). */
async function refusal(work: Promise<unknown>): Promise<AppError | null> {
  try {
    await work;
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe("posting", () => {
  it("refuses a post without title or content with the specification's message, and keeps category and hashtags", async () => {
    const missing = await refusal(createThread(handle.db, learner, { title: "   ", body: "" }));
    expect(missing).toMatchObject({ code: "invalid", message: FORUM_REQUIRED_MESSAGE });
    expect(missing?.fieldErrors).toMatchObject({ title: "Le titre est obligatoire.", body: "Le contenu est obligatoire." });

    const { id } = await createThread(handle.db, learner, {
      title: "Débuter en #IA",
      body: "Quels cours pour commencer ? #Python #ia",
      category: "intelligence-artificielle",
    });
    const { thread, can } = await getThread(handle.db, learner, id);
    expect(thread).toMatchObject({
      category: "intelligence-artificielle",
      tags: ["ia", "python"],
      likeCount: 0,
      replyCount: 0,
      pinned: false,
    });
    expect(thread.author).toEqual({ id: learner.id, name: "Aïssata Keïta", role: "user" });
    expect(can).toEqual({ edit: true, delete: true, reply: true, moderate: false, report: false });
  });

  it("limits how fast one person opens threads", async () => {
    const eager = await createUser(handle.db);
    const now = new Date("2027-02-01T10:00:00Z");
    for (let index = 0; index < 5; index++) await createThread(handle.db, eager, { now });
    expect(await refusal(createThread(handle.db, eager, { now }))).toMatchObject({ code: "rate_limited" });
    await createThread(handle.db, eager, { now: new Date(now.getTime() + 11 * 60 * 1000) });
  });

  it("lets only the author edit or delete their thread", async () => {
    const { id } = await createThread(handle.db, learner, { title: "À corriger" });
    expect(await refusal(editThread(handle.db, other, id, { title: "Volé", body: "x" }))).toMatchObject({ code: "forbidden" });
    expect(await refusal(deleteThread(handle.db, teacher, id))).toMatchObject({ code: "forbidden" });
    await editThread(handle.db, learner, id, { title: "Corrigé #sécurité", body: "Texte revu", category: "cybersecurite" });
    expect((await getThread(handle.db, other, id)).thread).toMatchObject({
      title: "Corrigé #sécurité",
      tags: ["sécurité"],
      category: "cybersecurite",
    });
    await deleteThread(handle.db, learner, id);
    expect(await refusal(getThread(handle.db, learner, id))).toMatchObject({ code: "not_found" });
  });
});

describe("replies and likes", () => {
  it("counts replies, notifies the thread's author of others' replies, and lets authors delete theirs", async () => {
    const { id } = await createThread(handle.db, learner, { title: "Question sur les réseaux" });
    await createReply(handle.db, learner, { id }, "Je précise ma question.");
    const reply = await createReply(handle.db, other, { id }, "Voici une piste.");
    const bell = await handle.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(bell.map((row) => [row.kind, row.body, row.link])).toEqual([
      ["forum_reply", "Moussa Diarra a répondu à « Question sur les réseaux ».", `/dashboard/forum/${id}#reponse-${reply.id}`],
    ]);
    expect((await getThread(handle.db, learner, id)).thread.replyCount).toBe(2);
    expect(await refusal(deleteReply(handle.db, learner, reply.id))).toMatchObject({ code: "forbidden" });
    await deleteReply(handle.db, other, reply.id);
    const after = await getThread(handle.db, learner, id);
    expect(after.thread.replyCount).toBe(1);
    expect(after.replies.map((row) => row.body)).toEqual(["Je précise ma question."]);
  });

  it("toggles one like per person", async () => {
    const { id } = await createThread(handle.db, teacher);
    expect(await toggleLike(handle.db, learner, id)).toEqual({ liked: true, likeCount: 1 });
    expect(await toggleLike(handle.db, other, id)).toEqual({ liked: true, likeCount: 2 });
    expect(await toggleLike(handle.db, learner, id)).toEqual({ liked: false, likeCount: 1 });
    expect(await toggleLike(handle.db, learner, id)).toEqual({ liked: true, likeCount: 2 });
    await Promise.all([toggleLike(handle.db, other, id), toggleLike(handle.db, other, id)]).catch(() => {});
    const [row] = await handle.db.select({ likeCount: forumThreads.likeCount }).from(forumThreads).where(eq(forumThreads.id, id));
    const { thread } = await getThread(handle.db, other, id);
    expect(row!.likeCount).toBe(thread.likedByMe ? 2 : 1);
  });
});

describe("moderation", () => {
  it("lets teachers and admins pin, lock and hide; learners not", async () => {
    const { id } = await createThread(handle.db, learner, { title: "Sujet à modérer" });
    expect(await refusal(moderateThread(handle.db, other, id, "pin"))).toMatchObject({ code: "forbidden" });
    await moderateThread(handle.db, teacher, id, "pin");
    const { threads } = await listThreads(handle.db, other);
    expect(threads[0]).toMatchObject({ id, pinned: true });

    await moderateThread(handle.db, admin, id, "lock");
    expect(await refusal(createReply(handle.db, other, { id }))).toMatchObject({ code: "conflict", reason: "locked" });
    await createReply(handle.db, teacher, { id }, "Sujet fermé, voir le cours.");

    await moderateThread(handle.db, teacher, id, "hide");
    expect(await refusal(getThread(handle.db, other, id))).toMatchObject({ code: "not_found" });
    expect(await refusal(toggleLike(handle.db, other, id))).toMatchObject({ code: "not_found" });
    expect((await listThreads(handle.db, other)).threads.map((thread) => thread.id)).not.toContain(id);
    // Its author and the moderators still see it, marked hidden.
    expect((await getThread(handle.db, learner, id)).thread.hidden).toBe(true);
    expect((await listThreads(handle.db, admin)).threads.find((thread) => thread.id === id)?.hidden).toBe(true);
    await moderateThread(handle.db, teacher, id, "unhide");
    expect((await getThread(handle.db, other, id)).thread.hidden).toBe(false);
  });

  it("refuses a teacher without a course; the course's teacher and an admin moderate, each action in the audit log", async () => {
    const newcomer = await createUser(handle.db, { role: "teacher", firstName: "Sans", lastName: "Cours" });
    const { id } = await createThread(handle.db, learner, { title: "Sujet à épingler" });
    const reply = await createReply(handle.db, other, { id }, "Une réponse");
    for (const action of ["pin", "lock", "hide"] as const) {
      expect(await refusal(moderateThread(handle.db, newcomer, id, action)), action).toMatchObject({ code: "forbidden" });
    }
    expect(await refusal(moderateReply(handle.db, newcomer, reply.id, "hide"))).toMatchObject({ code: "forbidden" });
    expect((await getThread(handle.db, newcomer, id)).can.moderate).toBe(false);
    expect((await getThread(handle.db, teacher, id)).can.moderate).toBe(true);
    const [untouched] = await handle.db.select().from(forumThreads).where(eq(forumThreads.id, id));
    expect(untouched).toMatchObject({ pinned: false, locked: false, hiddenAt: null });

    await moderateThread(handle.db, teacher, id, "lock");
    await moderateThread(handle.db, admin, id, "pin");
    await moderateReply(handle.db, admin, reply.id, "hide");
    const logged = await handle.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.details}->>'threadId' = ${String(id)}`);
    expect(logged.map((row) => [row.actorId, row.action]).sort()).toEqual(
      [
        [admin.id, "forum_reply_hide"],
        [admin.id, "forum_thread_pin"],
        [teacher.id, "forum_thread_lock"],
      ].sort(),
    );
    expect(logged.find((row) => row.action === "forum_reply_hide")).toMatchObject({
      targetUserId: other.id,
      details: { replyId: reply.id },
    });
  });

  it("hides a reply from readers but not from its author, and counts only visible replies", async () => {
    const { id } = await createThread(handle.db, teacher);
    const rude = await createReply(handle.db, other, { id }, "Message déplacé");
    expect(await refusal(moderateReply(handle.db, learner, rude.id, "hide"))).toMatchObject({ code: "forbidden" });
    await moderateReply(handle.db, teacher, rude.id, "hide");
    expect((await getThread(handle.db, learner, id)).replies).toEqual([]);
    expect((await getThread(handle.db, learner, id)).thread.replyCount).toBe(0);
    expect((await getThread(handle.db, other, id)).replies.map((reply) => reply.hidden)).toEqual([true]);
  });
});

describe("reports", () => {
  it("takes one open report per person and post, shows them to admins only, and closes them when the post is hidden", async () => {
    const { id } = await createThread(handle.db, other, { title: "Publicité" });
    await reportPost(handle.db, learner, { threadId: id }, { reason: "Spam" });
    await reportPost(handle.db, learner, { threadId: id }, { reason: "Spam encore" });
    await reportPost(handle.db, teacher, { threadId: id }, { reason: "Hors sujet" });
    expect(await refusal(reportPost(handle.db, learner, { threadId: id }, { reason: " " }))).toMatchObject({ code: "invalid" });
    // Nobody reports their own post: the thread's author, nor a reply's.
    expect(await refusal(reportPost(handle.db, other, { threadId: id }, { reason: "Le mien" }))).toMatchObject({ code: "forbidden" });
    expect((await getThread(handle.db, other, id)).can.report).toBe(false);
    expect((await getThread(handle.db, learner, id)).can.report).toBe(true);
    const ownReply = await createReply(handle.db, learner, { id }, "Ma réponse");
    expect(await refusal(reportPost(handle.db, learner, { threadId: id, replyId: ownReply.id }, { reason: "La mienne" }))).toMatchObject({
      code: "forbidden",
    });
    const replyRights = async (reader: typeof learner) =>
      (await getThread(handle.db, reader, id)).replies.find((reply) => reply.id === ownReply.id)?.can;
    expect(await replyRights(learner)).toEqual({ edit: true, delete: true, report: false });
    expect(await replyRights(other)).toEqual({ edit: false, delete: false, report: true });
    expect(await refusal(listOpenReports(handle.db, teacher))).toMatchObject({ code: "not_found" });
    const reports = (await listOpenReports(handle.db, admin)).filter((report) => report.threadId === id);
    expect(reports.map((report) => report.reason)).toEqual(["Spam", "Hors sujet"]);
    expect(await countOpenReports(handle.db, learner)).toBe(0);

    await resolveReport(handle.db, admin, reports[0]!.id, "hide");
    expect((await listOpenReports(handle.db, admin)).filter((report) => report.threadId === id)).toEqual([]);
    expect(await refusal(getThread(handle.db, learner, id))).toMatchObject({ code: "not_found" });
  });
});

describe("finding threads", () => {
  it("filters by category, hashtag and text (title, content or author), and counts per category", async () => {
    const fresh = await createTestDatabase();
    try {
      const author = await createUser(fresh.db, { firstName: "Ibrahima", lastName: "Sangaré" });
      const reader = await createUser(fresh.db);
      const now = new Date();
      await createThread(fresh.db, author, { title: "Pare-feu maison", body: "#réseau #sécurité", category: "cybersecurite", now });
      await createThread(fresh.db, author, {
        title: "Projet solaire",
        body: "Dimensionner des panneaux #solaire #réseau",
        category: "projets",
        now,
      });
      await createThread(fresh.db, reader, { title: "Bonjour", body: "Présentation", now });
      expect((await listThreads(fresh.db, reader, { category: "cybersecurite" })).threads.map((t) => t.title)).toEqual(["Pare-feu maison"]);
      expect((await listThreads(fresh.db, reader, { tag: "réseau" })).threads).toHaveLength(2);
      expect((await listThreads(fresh.db, reader, { q: "PANNEAUX" })).threads.map((t) => t.title)).toEqual(["Projet solaire"]);
      expect((await listThreads(fresh.db, reader, { q: "sangaré" })).total).toBe(2);
      const overview = await forumOverview(fresh.db, reader, now);
      expect(overview.total).toBe(3);
      expect(overview.categories.find((category) => category.slug === "projets")?.count).toBe(1);
      expect(overview.trending[0]).toEqual({ tag: "réseau", uses: 2 });
    } finally {
      await fresh.close();
    }
  });
});
