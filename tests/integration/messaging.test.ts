/**
 * Messaging through its capability and its route module: who may write to whom (the policy), who
 * may read which conversation (another learner's is 404), course groups that follow enrolments,
 * unread counts and read state per person, a form sent twice, and the screen without JavaScript
 * (form posts and redirects). Unread badges and delayed notices: message-notices.test.ts.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { enrolments } from "~/.server/db/schema";
import { cancelEnrolment } from "~/.server/learning";
import {
  getConversation,
  listContacts,
  listConversations,
  markConversationRead,
  messagingTopicRules,
  sendMessage,
  sendMessageTo,
  startConversation,
} from "~/.server/messaging";
import { action, loader } from "~/routes/messages/messages";
import { createCourse, createUser, enrol, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { refusalOf } from "../setup/refusal";
import { routeOutcome, sessionOf } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let teacher: TestUser;
let otherTeacher: TestUser;
let awa: TestUser;
let moussa: TestUser;
let stranger: TestUser;
let admin: TestUser;
let courseId: number;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Seydou", lastName: "Konaté" });
  otherTeacher = await createUser(handle.db, { role: "teacher", firstName: "Bakary", lastName: "Diarra" });
  awa = await createUser(handle.db, { firstName: "Awa", lastName: "Traoré" });
  moussa = await createUser(handle.db, { firstName: "Moussa", lastName: "Keïta" });
  stranger = await createUser(handle.db, { firstName: "Fanta", lastName: "Sidibé" });
  admin = await createUser(handle.db, { role: "admin", firstName: "Fatoumata", lastName: "Coulibaly" });
  const { course } = await createCourse(handle.db, { instructor: teacher, title: "Cybersécurité des PME", priceFcfa: 0 });
  courseId = course.id;
  await enrol(handle.db, awa, course);
  await enrol(handle.db, moussa, course);
  await createCourse(handle.db, { instructor: otherTeacher, title: "Agribusiness", priceFcfa: 0 });
});
afterAll(async () => handle?.close());

const db = () => handle.db;

describe("who may write to whom", () => {
  it("lets a learner write to the teachers of their courses and the administration, nobody else", async () => {
    const contacts = (await listContacts(db(), awa, { limit: 50 })).map((person) => person.id);
    expect(contacts).toContain(teacher.id);
    expect(contacts).toContain(admin.id);
    expect(contacts).not.toContain(otherTeacher.id);
    expect(contacts).not.toContain(moussa.id);
    expect(contacts).not.toContain(awa.id);
    expect(await refusalOf(startConversation(db(), awa, moussa.id))).toMatchObject({ code: "forbidden" });
    expect(await refusalOf(startConversation(db(), awa, otherTeacher.id))).toMatchObject({ code: "forbidden" });
    expect(await refusalOf(startConversation(db(), awa, awa.id))).toMatchObject({ code: "not_found" });
    expect(await refusalOf(startConversation(db(), awa, "personne"))).toMatchObject({ code: "not_found" });
  });

  it("lets a teacher write to their learners, and an administrator to anyone", async () => {
    const forTeacher = (await listContacts(db(), teacher, { limit: 50 })).map((person) => person.id);
    expect(forTeacher).toEqual(expect.arrayContaining([awa.id, moussa.id, admin.id]));
    expect(forTeacher).not.toContain(stranger.id);
    expect(await refusalOf(sendMessageTo(db(), teacher, stranger.id, { body: "Bonjour" }))).toMatchObject({ code: "forbidden" });
    const { conversationId } = await startConversation(db(), admin, stranger.id);
    // The same pair, the same conversation; and the person written to may answer.
    expect((await startConversation(db(), admin, stranger.id)).conversationId).toBe(conversationId);
    expect((await startConversation(db(), stranger, admin.id)).conversationId).toBe(conversationId);
    await sendMessage(db(), stranger, conversationId, { body: "Merci pour votre message." });
  });

  it("finds people by name ignoring accents", async () => {
    expect((await listContacts(db(), admin, { q: "sidibe" })).map((person) => person.id)).toEqual([stranger.id]);
  });
});

describe("reading and writing a conversation", () => {
  it("is 'not found' for anyone outside it, whatever they try", async () => {
    const { conversationId } = await sendMessageTo(db(), awa, teacher.id, { body: "Bonjour, une question sur le module 2." });
    for (const outsider of [moussa, otherTeacher, stranger]) {
      expect(await refusalOf(getConversation(db(), outsider, conversationId))).toMatchObject({ code: "not_found" });
      expect(await refusalOf(sendMessage(db(), outsider, conversationId, { body: "Intrus" }))).toMatchObject({ code: "not_found" });
      expect(await refusalOf(markConversationRead(db(), outsider, conversationId))).toMatchObject({ code: "not_found" });
      expect((await listConversations(db(), outsider)).map((item) => item.id)).not.toContain(conversationId);
    }
    // Not even an administrator reads a conversation between two other people.
    expect(await refusalOf(getConversation(db(), admin, conversationId))).toMatchObject({ code: "not_found" });
    const rule = messagingTopicRules.find((candidate) => candidate.prefix === "conversation")!;
    expect(await rule.allowed(db(), moussa, [String(conversationId)])).toEqual(new Set());
    expect(await rule.allowed(db(), teacher, [String(conversationId), "abc", "0"])).toEqual(new Set([String(conversationId)]));
  });

  it("counts unread messages per conversation and per person, and keeps read state per person", async () => {
    const { conversationId } = await startConversation(db(), moussa, teacher.id);
    await sendMessage(db(), moussa, conversationId, { body: "Premier message" });
    await sendMessage(db(), moussa, conversationId, { body: "Deuxième message" });
    const unreadFor = async (user: TestUser) => (await listConversations(db(), user)).find((item) => item.id === conversationId)?.unread;
    expect(await unreadFor(teacher)).toBe(2);
    expect(await unreadFor(moussa)).toBe(0);

    await markConversationRead(db(), teacher, conversationId);
    expect(await unreadFor(teacher)).toBe(0);
    // Moussa's pane can say his messages were seen.
    const view = await getConversation(db(), moussa, conversationId);
    expect(view.seenUpTo).toBe(view.messages.at(-1)!.id);

    await sendMessage(db(), teacher, conversationId, { body: "Réponse" });
    expect(await unreadFor(moussa)).toBe(1);
    expect(await unreadFor(teacher)).toBe(0);
  });

  it("refuses a flood of messages with a clear message", async () => {
    const hasty = await createUser(db(), { role: "admin" });
    const { conversationId } = await startConversation(db(), hasty, awa.id);
    const at = new Date();
    for (let index = 0; index < 30; index++) await sendMessage(db(), hasty, conversationId, { body: `Rappel ${index}` }, at);
    expect(await refusalOf(sendMessage(db(), hasty, conversationId, { body: "Un de trop" }, at))).toMatchObject({
      code: "rate_limited",
      message: "Vous envoyez beaucoup de messages : réessayez dans 1 minute.",
    });
  });

  it("makes one message of a form sent twice, and refuses an empty one", async () => {
    const { conversationId } = await startConversation(db(), awa, teacher.id);
    const first = await sendMessage(db(), awa, conversationId, { body: "Une seule fois", clientKey: "cle-unique-1" });
    const again = await sendMessage(db(), awa, conversationId, { body: "Une seule fois", clientKey: "cle-unique-1" });
    expect(again).toEqual({ ...first, created: false });
    const view = await getConversation(db(), awa, conversationId);
    expect(view.messages.filter((message) => message.body === "Une seule fois")).toHaveLength(1);
    expect(await refusalOf(sendMessage(db(), awa, conversationId, { body: "  \n " }))).toMatchObject({
      code: "invalid",
      fieldErrors: { body: "Le message est obligatoire." },
    });
  });

  it("pages back through older messages", async () => {
    const { conversationId } = await startConversation(db(), admin, otherTeacher.id);
    // Three seconds apart: under the sending limit.
    const start = Date.now();
    for (let index = 1; index <= 35; index++) {
      await sendMessage(db(), admin, conversationId, { body: `Message ${index}` }, new Date(start + index * 3000));
    }
    const latest = await getConversation(db(), otherTeacher, conversationId);
    expect(latest.messages).toHaveLength(30);
    expect(latest.messages.at(-1)!.body).toBe("Message 35");
    expect(latest.olderBefore).toBe(latest.messages[0]!.id);
    const older = await getConversation(db(), otherTeacher, conversationId, { before: latest.olderBefore });
    expect(older.messages.map((message) => message.body)).toEqual(["Message 1", "Message 2", "Message 3", "Message 4", "Message 5"]);
    expect(older.olderBefore).toBeNull();
  });
});

describe("course groups", () => {
  it("gathers the teacher and the active learners, and follows enrolments", async () => {
    const groupOf = async (user: TestUser) => (await listConversations(db(), user)).find((item) => item.kind === "course");
    const group = await groupOf(awa);
    expect(group).toMatchObject({ title: "Cybersécurité des PME", course: { id: courseId } });
    expect((await groupOf(teacher))?.id).toBe(group!.id);
    expect(await groupOf(stranger)).toBeUndefined();
    // An administrator may open it, without it filling their list.
    expect((await getConversation(db(), admin, group!.id)).memberCount).toBe(3);
    expect((await listConversations(db(), admin)).some((item) => item.id === group!.id)).toBe(false);

    await sendMessage(db(), teacher, group!.id, { body: "Bienvenue dans le groupe !" });
    expect((await groupOf(awa))?.unread).toBe(1);
    expect((await groupOf(moussa))?.unread).toBe(1);

    const rule = messagingTopicRules.find((candidate) => candidate.prefix === "conversation")!;
    expect(await rule.audience!(db(), String(group!.id), [awa.id, moussa.id, stranger.id, admin.id])).toEqual(
      new Set([awa.id, moussa.id, admin.id]),
    );
    // Moussa's enrolment ends: he leaves the group, its list and its live events.
    const [enrolment] = await db()
      .select({ id: enrolments.id })
      .from(enrolments)
      .where(and(eq(enrolments.userId, moussa.id), eq(enrolments.courseId, courseId)));
    await db().transaction((tx) => cancelEnrolment(tx, enrolment!.id));
    expect(await groupOf(moussa)).toBeUndefined();
    expect(await refusalOf(sendMessage(db(), moussa, group!.id, { body: "Encore là ?" }))).toMatchObject({ code: "not_found" });
    expect(await rule.audience!(db(), String(group!.id), [awa.id, moussa.id])).toEqual(new Set([awa.id]));
  });
});

describe("the messaging screen", () => {
  function call(run: typeof loader | typeof action, user: TestUser, path: string, form?: Record<string, string>) {
    const request = new Request(`${TEST_PUBLIC_URL}${path}`, form ? { method: "POST", body: new URLSearchParams(form) } : {});
    const id = /\/messages\/(\d+|[^/?]+)/.exec(path)?.[1];
    const params = id && id !== "nouveau" ? { id } : {};
    const context = routerContext(db(), campus, { user: sessionOf(user) });
    return routeOutcome(() => run({ request, params, context, url: new URL(request.url), pattern: path } as never));
  }

  it("starts a conversation by a form post, then sends and reads without JavaScript", async () => {
    const learner = await createUser(db(), { firstName: "Oumou" });
    const { course } = await createCourse(db(), { instructor: teacher, priceFcfa: 0 });
    await enrol(db(), learner, course);

    const page = await call(loader, learner, `/dashboard/messages/nouveau?avec=${teacher.id}`);
    expect(page.data).toMatchObject({ newConversation: { person: { id: teacher.id, role: "teacher" } } });
    // The pane says whom each may write to, as the policy has it.
    expect((await call(loader, learner, "/dashboard/messages/nouveau")).data).toMatchObject({
      newConversation: { hint: "Vous pouvez écrire aux enseignants de vos formations et à l'administration." },
    });
    expect((await call(loader, teacher, "/teacher/messages/nouveau")).data).toMatchObject({
      newConversation: { hint: "Vous pouvez écrire aux apprenants de vos formations et à l'administration." },
    });
    const started = await call(action, learner, "/dashboard/messages/nouveau", {
      intent: "start",
      avec: teacher.id,
      body: "Bonjour Monsieur Konaté",
      clientKey: "k1",
    });
    expect(started).toMatchObject({ status: 302, location: expect.stringMatching(/^\/dashboard\/messages\/\d+$/) });
    const conversationPath = started.location!;
    // Asking again for a new conversation with him leads to this one.
    expect(await call(loader, learner, `/dashboard/messages/nouveau?avec=${teacher.id}`)).toMatchObject({
      status: 302,
      location: conversationPath,
    });

    const teacherPath = conversationPath.replace("/dashboard", "/teacher");
    const before = (await call(loader, teacher, "/teacher/messages")).data as { conversations: Array<{ id: number; unread: number }> };
    const id = Number(conversationPath.split("/").at(-1));
    expect(before.conversations.find((item) => item.id === id)?.unread).toBe(1);
    const opened = (await call(loader, teacher, teacherPath)).data as {
      conversation: { messages: Array<{ body: string; mine: boolean }> };
    };
    expect(opened.conversation.messages).toEqual([expect.objectContaining({ body: "Bonjour Monsieur Konaté", mine: false })]);
    const after = (await call(loader, teacher, "/teacher/messages")).data as { conversations: Array<{ id: number; unread: number }> };
    expect(after.conversations.find((item) => item.id === id)?.unread).toBe(0);

    expect(await call(action, teacher, teacherPath, { intent: "send", body: "Bonjour Oumou", clientKey: "k2" })).toMatchObject({
      status: 302,
      location: teacherPath,
    });
    expect(
      await call(action, teacher, teacherPath, { intent: "send", body: "Avec le script", clientKey: "k3", enhanced: "1" }),
    ).toMatchObject({
      status: 200,
      data: { ok: true, intent: "send" },
    });
    const empty = await call(action, teacher, teacherPath, { intent: "send", body: "   ", clientKey: "k4" });
    expect(empty).toMatchObject({ status: 400, data: { ok: false, intent: "send", fieldErrors: { body: "Le message est obligatoire." } } });
  });

  it("answers 404 for another learner's conversation and 403 for someone one may not write to", async () => {
    const { conversationId } = await startConversation(db(), awa, teacher.id);
    expect((await call(loader, stranger, `/dashboard/messages/${conversationId}`)).status).toBe(404);
    expect((await call(action, stranger, `/dashboard/messages/${conversationId}`, { intent: "send", body: "Intrus" })).status).toBe(404);
    expect((await call(loader, stranger, "/dashboard/messages/abc")).status).toBe(404);
    expect((await call(loader, stranger, `/dashboard/messages/nouveau?avec=${teacher.id}`)).status).toBe(403);
    expect(
      (await call(action, stranger, "/dashboard/messages/nouveau", { intent: "start", avec: teacher.id, body: "Bonjour" })).status,
    ).toBe(403);
  });

  it("filters the list by name or course, ignoring accents", async () => {
    const list = async (q: string) =>
      ((await call(loader, awa, `/dashboard/messages?q=${encodeURIComponent(q)}`)).data as { conversations: Array<{ title: string }> })
        .conversations;
    expect((await list("konate")).map((item) => item.title)).toEqual(["Seydou Konaté"]);
    expect((await list("CYBERSECURITE")).map((item) => item.title)).toEqual(["Cybersécurité des PME"]);
    expect(await list("personne de ce nom")).toEqual([]);
  });
});
