/**
 * The forum's screens through their route modules: posting (and its refusal), likes, the thread's
 * forms for the author, another reader and a moderator, and the admin's reports page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { getThread, listOpenReports } from "~/.server/forum";
import { countUnreadNotifications } from "~/.server/notifications";
import { FORUM_REQUIRED_MESSAGE } from "~/lib/forum";
import { loader as reportsLoader, action as reportsAction } from "~/routes/admin/forum-signalements";
import { action as forumAction, loader as forumLoader } from "~/routes/dashboard/forum";
import { action as threadAction, loader as threadLoader } from "~/routes/dashboard/forum-sujet";
import { createCourse, createReply, createThread, createUser, type TestUser } from "../factories";
import { createTestAuth } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeCaller } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let learner: TestUser;
let other: TestUser;
let teacher: TestUser;
let admin: TestUser;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  learner = await createUser(handle.db);
  other = await createUser(handle.db, { firstName: "Moussa" });
  teacher = await createUser(handle.db, { role: "teacher" });
  admin = await createUser(handle.db, { role: "admin" });
  // A moderator: the teacher of a course.
  await createCourse(handle.db, { instructor: teacher });
});
afterAll(async () => handle?.close());

const call = routeCaller(() => ({ db: handle.db, campus }));

describe("/dashboard/forum", () => {
  it("publishes a post, then shows it first with its category, tags and author", async () => {
    const posted = await call(forumAction, learner, "/dashboard/forum", {
      form: { intent: "create", title: "Réseau #Wifi", body: "Comment sécuriser ma borne ?", category: "cybersecurite" },
    });
    expect(posted).toMatchObject({ status: 302, location: "/dashboard/forum" });
    const page = (await call(forumLoader, other, "/dashboard/forum?categorie=cybersecurite")).data as {
      threads: Array<{ title: string; tags: string[]; category: string; author: { name: string } }>;
    };
    expect(page.threads[0]).toMatchObject({
      title: "Réseau #Wifi",
      tags: ["wifi"],
      category: "cybersecurite",
      author: { name: "Awa Traoré" },
    });
    // A page past the end shows the last page.
    const beyond = (await call(forumLoader, other, "/dashboard/forum?categorie=cybersecurite&page=40")).data as {
      page: number;
      threads: Array<{ title: string }>;
    };
    expect(beyond.page).toBe(1);
    expect(beyond.threads.map((thread) => thread.title)).toEqual(page.threads.map((thread) => thread.title));
  });

  it("keeps what was typed and says the specification's message when a field is empty", async () => {
    const refused = await call(forumAction, learner, "/dashboard/forum", { form: { intent: "create", title: "Sans contenu", body: "  " } });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ ok: false, intent: "create", message: FORUM_REQUIRED_MESSAGE, values: { title: "Sans contenu" } });
  });

  it("toggles a like from the list and ignores a forged thread id", async () => {
    const { id } = await createThread(handle.db, teacher);
    expect((await call(forumAction, learner, "/dashboard/forum", { form: { intent: "like", threadId: String(id) } })).data).toMatchObject({
      liked: true,
      likeCount: 1,
    });
    expect((await call(forumAction, learner, "/dashboard/forum", { form: { intent: "like", threadId: String(id) } })).data).toMatchObject({
      liked: false,
      likeCount: 0,
    });
    expect((await call(forumAction, learner, "/dashboard/forum", { form: { intent: "like", threadId: "abc" } })).status).toBe(400);
    expect((await call(forumAction, learner, "/dashboard/forum", { form: { intent: "like", threadId: "999999" } })).status).toBe(404);
  });
});

describe("/dashboard/forum/:id", () => {
  it("answers 404 for a thread one may not read, or an id that is not one", async () => {
    expect((await call(threadLoader, learner, "/dashboard/forum/abc", { params: { id: "abc" } })).status).toBe(404);
    expect((await call(threadLoader, learner, "/dashboard/forum/99999999999", { params: { id: "99999999999" } })).status).toBe(404);
  });

  it("lets a reader reply (its author's notification is read when they open the thread), not edit", async () => {
    const { id } = await createThread(handle.db, learner, { title: "Ma question" });
    const params = { id: String(id) };
    const replied = await call(threadAction, other, `/dashboard/forum/${id}`, {
      params,
      form: { intent: "reply", body: "Voici la réponse" },
    });
    expect(replied.status).toBe(302);
    expect(replied.location).toMatch(new RegExp(`^/dashboard/forum/${id}\\?page=9999#reponse-\\d+$`));
    // The link leads to the last page of replies, which holds the new one.
    const landing = (await call(threadLoader, other, replied.location!.split("#")[0]!, { params })).data as {
      page: number;
      pages: number;
      replies: Array<{ id: number; body: string }>;
    };
    expect(landing).toMatchObject({ page: 1, pages: 1, replies: [{ body: "Voici la réponse" }] });
    expect(replied.location).toContain(`#reponse-${landing.replies[0]!.id}`);
    expect(await countUnreadNotifications(handle.db, learner)).toBeGreaterThan(0);
    await call(threadLoader, learner, `/dashboard/forum/${id}`, { params });
    expect(await countUnreadNotifications(handle.db, learner)).toBe(0);

    expect(
      (await call(threadAction, other, `/dashboard/forum/${id}`, { params, form: { intent: "edit", title: "Piraté", body: "x" } })).status,
    ).toBe(403);
    expect(
      (await call(threadAction, other, `/dashboard/forum/${id}`, { params, form: { intent: "moderate", action: "pin" } })).status,
    ).toBe(403);
    const empty = await call(threadAction, other, `/dashboard/forum/${id}`, { params, form: { intent: "reply", body: "" } });
    expect(empty).toMatchObject({ status: 400, data: { intent: "reply", fieldErrors: { body: "La réponse est obligatoire." } } });
    expect((await getThread(handle.db, learner, id)).thread.title).toBe("Ma question");
  });

  it("lets a teacher lock a thread, after which learners cannot reply", async () => {
    const { id } = await createThread(handle.db, learner);
    const params = { id: String(id) };
    expect(
      (await call(threadAction, teacher, `/dashboard/forum/${id}`, { params, form: { intent: "moderate", action: "lock" } })).status,
    ).toBe(302);
    const refused = await call(threadAction, other, `/dashboard/forum/${id}`, { params, form: { intent: "reply", body: "Encore moi" } });
    expect(refused).toMatchObject({ status: 409, data: { message: "Ce sujet est verrouillé : il ne reçoit plus de réponses." } });
  });

  it("takes reports, which the admin page lists and resolves; a teacher cannot read it", async () => {
    const { id } = await createThread(handle.db, other, { title: "Message douteux" });
    const reply = await createReply(handle.db, other, { id }, "Réponse douteuse");
    const params = { id: String(id) };
    await call(threadAction, learner, `/dashboard/forum/${id}`, {
      params,
      form: { intent: "report", replyId: String(reply.id), reason: "Insultes" },
    });
    expect((await call(reportsLoader, teacher, "/admin/forum")).status).toBe(404);
    const page = (await call(reportsLoader, admin, "/admin/forum")).data as {
      reports: Array<{ id: number; replyId: number | null; reason: string }>;
    };
    const report = page.reports.find((row) => row.replyId === reply.id)!;
    expect(report.reason).toBe("Insultes");
    await call(reportsAction, admin, "/admin/forum", { form: { reportId: String(report.id), decision: "hide" } });
    expect((await listOpenReports(handle.db, admin)).some((row) => row.id === report.id)).toBe(false);
    expect((await getThread(handle.db, learner, id)).replies).toEqual([]);
  });
});
