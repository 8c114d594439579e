/** A trial's community: the forum, the messaging and the notifications show something real on first start, and a restart adds nothing. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Actor } from "~/.server/auth/actor";
import type { DatabaseHandle } from "~/.server/db/client";
import { forumReplies, forumThreads, jobs, messages, notifications, users } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { forumOverview, getThread, listThreads } from "~/.server/forum";
import { listConversations } from "~/.server/messaging";
import { listNotifications, NOTIFICATION_EMAIL_QUEUE } from "~/.server/notifications";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
const who: Record<"student" | "teacher", Actor> = {} as never;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  await seedDatabase(handle.db, { demoAccounts: true });
  for (const [key, email] of [
    ["student", "etudiant@campus.test"],
    ["teacher", "enseignant@campus.test"],
  ] as const) {
    const [row] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    who[key] = { id: row!.id, role: key === "student" ? "user" : "teacher" };
  }
});
afterAll(async () => handle?.close());

it("gives the forum threads in several categories, with replies, likes, hashtags and a pinned welcome", async () => {
  const { threads, total } = await listThreads(handle.db, who.student);
  expect(total).toBeGreaterThanOrEqual(5);
  expect(threads[0]).toMatchObject({ pinned: true, author: { role: "teacher" } });
  expect(new Set(threads.map((thread) => thread.category)).size).toBeGreaterThanOrEqual(4);
  expect(threads.some((thread) => thread.replyCount > 0 && thread.likeCount > 0)).toBe(true);
  // Counters are the rows themselves, as the capability keeps them.
  for (const thread of threads) {
    expect(thread.replyCount).toBe(await handle.db.$count(forumReplies, eq(forumReplies.threadId, thread.id)));
  }
  const overview = await forumOverview(handle.db, who.student, new Date());
  expect(overview.trending.length).toBeGreaterThan(0);

  // The student's own question was answered, by a learner and by her teacher, and she was told.
  const own = threads.find((thread) => thread.author?.id === who.student.id);
  expect(own).toBeDefined();
  const { replies } = await getThread(handle.db, who.student, own!.id);
  expect(replies.map((reply) => reply.author?.role)).toContain("teacher");
  const { items } = await listNotifications(handle.db, who.student);
  expect(items.filter((item) => item.kind === "forum_reply")).toHaveLength(replies.length);
});

it("opens a conversation between the student and her teacher, whose last answer she has not read yet, and greets her course's group", async () => {
  const [conversation] = (await listConversations(handle.db, who.student)).filter((row) => row.with?.id === who.teacher.id);
  expect(conversation?.unread).toBe(1);
  expect((await listConversations(handle.db, who.teacher)).find((row) => row.id === conversation!.id)?.unread).toBe(0);
  // Each of her teacher's two answers was notified after her delay: she read the first, not the last.
  const told = (await listNotifications(handle.db, who.student)).items.filter((item) => item.kind === "message_received");
  expect(told.map((item) => item.read)).toEqual([false, true]);
  // Her course's group has the teacher's welcome, read.
  const groups = (await listConversations(handle.db, who.student)).filter((row) => row.kind === "course");
  expect(groups.map((group) => [group.lastMessage?.mine, group.unread])).toEqual([[false, 0]]);
  expect((await listNotifications(handle.db, who.teacher)).items.filter((item) => item.kind === "message_received" && !item.read)).toEqual(
    [],
  );
});

it("sends no e-mail for these past events", async () => {
  expect(await handle.db.$count(jobs, eq(jobs.queue, NOTIFICATION_EMAIL_QUEUE))).toBe(0);
});

it("adds nothing on a restart", async () => {
  const count = async () => [
    await handle.db.$count(forumThreads),
    await handle.db.$count(forumReplies),
    await handle.db.$count(messages),
    await handle.db.$count(notifications),
  ];
  const before = await count();
  await seedDatabase(handle.db, { demoAccounts: true });
  expect(await count()).toEqual(before);
});
