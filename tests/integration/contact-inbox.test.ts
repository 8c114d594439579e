/**
 * The administrators' contact inbox, through its route modules: the institute told of each new
 * message, a reply kept and sent once through the mail outbox, archive and restore, the filters,
 * each action in the audit log, and nobody but an administrator let in.
 */
import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import { contactMailQueue } from "~/.server/contact";
import type { DatabaseHandle } from "~/.server/db/client";
import { auditLog, contactMessages, contactReplies, jobs } from "~/.server/db/schema";
import { createJobService } from "~/.server/jobs";
import { listOutbox, loadInstituteIdentity } from "~/.server/mail";
import { action as messageAction, loader as messageLoader } from "~/routes/admin/message";
import { loader as inboxLoader } from "~/routes/admin/messages";
import { createContactMessage, createSignedInUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
const cookies: Record<"admin" | "learner" | "teacher", string> = {} as never;
let adminId = "";

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  for (const role of ["admin", "learner", "teacher"] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { role: role === "learner" ? "user" : role });
    cookies[role] = cookie;
    if (role === "admin") adminId = user.id;
  }
}, 180_000);
afterAll(async () => handle?.close());

function args(path: string, options: { cookie?: string; form?: Record<string, string>; params?: Record<string, string> } = {}) {
  const headers = new Headers(options.cookie ? { cookie: options.cookie } : {});
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: body ? "POST" : "GET", headers, body });
  const context: RouterContextProvider = routerContext(handle.db, campus);
  return { request, params: options.params ?? {}, context, url: new URL(request.url), pattern: path } as never;
}

/** Runs the queued inbox mails as a server process would. */
async function runMailQueue() {
  const service = createJobService({
    database: handle,
    queues: [contactMailQueue({ db: handle.db, mailEnv: { LOG_LEVEL: "silent" }, publicUrl: TEST_PUBLIC_URL })],
    tickMs: 3_600_000,
    pollMs: 3_600_000,
  });
  await service.runDue();
  await service.stop({ graceMs: 10 });
}

describe("the contact inbox", () => {
  it("tells the institute's address of each new message, with the visitor to answer to", async () => {
    const message = await createContactMessage(handle.db, { subject: "Partenariat entreprise", message: "Nous voulons former 20 agents." });
    await runMailQueue();
    const identity = await loadInstituteIdentity(handle.db);
    const [mail] = await listOutbox(handle.db, identity.email, 1);
    expect(mail).toMatchObject({ subject: "Nouveau message de contact : Partenariat entreprise" });
    expect(mail!.headers).toMatchObject({ "Reply-To": message.email });
    expect(mail!.text).toContain("Nous voulons former 20 agents.");
    expect(mail!.text).toContain(`${TEST_PUBLIC_URL}/admin/messages/${message.id}`);
  });

  it("sends an answer once through the outbox, however often the form is sent", async () => {
    const message = await createContactMessage(handle.db, { name: "Awa Traoré", subject: "Certification" });
    const path = `/admin/messages/${message.id}`;
    const page = await routeOutcome(() =>
      asServer(messageLoader, args(path, { cookie: cookies.admin, params: { id: String(message.id) } })),
    );
    const token = (page.data as { token: string }).token;
    const form = { intent: "reply", token, body: "Bonjour,\n\nLa prochaine session commence le 5 janvier." };

    const first = await routeOutcome(() =>
      asServer(messageAction, args(path, { cookie: cookies.admin, form, params: { id: String(message.id) } })),
    );
    const second = await routeOutcome(() =>
      asServer(messageAction, args(path, { cookie: cookies.admin, form, params: { id: String(message.id) } })),
    );
    expect(first).toMatchObject({ status: 303, location: path });
    expect(second).toMatchObject({ status: 303, location: path });

    const replies = await handle.db.select().from(contactReplies).where(eq(contactReplies.messageId, message.id));
    expect(replies).toHaveLength(1);
    expect(replies[0]!.sentAt).toBeNull();
    const [stored] = await handle.db.select().from(contactMessages).where(eq(contactMessages.id, message.id));
    expect(stored!.status).toBe("answered");

    await runMailQueue();
    await runMailQueue();
    const mails = await listOutbox(handle.db, message.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Re : Certification/);
    expect(mails[0]!.text).toContain("Bonjour Awa Traoré,");
    expect(mails[0]!.text).toContain("La prochaine session commence le 5 janvier.");
    const [sent] = await handle.db.select().from(contactReplies).where(eq(contactReplies.messageId, message.id));
    expect(sent!.sentAt).not.toBeNull();

    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.action, "contact_replied"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: adminId, details: { messageId: message.id } });

    const after = await routeOutcome(() =>
      asServer(messageLoader, args(path, { cookie: cookies.admin, params: { id: String(message.id) } })),
    );
    expect((after.data as { replies: Array<{ sent: boolean }> }).replies).toEqual([expect.objectContaining({ sent: true })]);
  });

  it("refuses an empty answer beside the field, keeping nothing and queueing nothing", async () => {
    const message = await createContactMessage(handle.db);
    const before = (await handle.db.select().from(jobs)).length;
    const result = await routeOutcome(() =>
      asServer(
        messageAction,
        args(`/admin/messages/${message.id}`, {
          cookie: cookies.admin,
          form: { intent: "reply", token: "0123456789abcdef0123", body: "   " },
          params: { id: String(message.id) },
        }),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ ok: false, intent: "reply", fieldErrors: { body: "La réponse est obligatoire." } });
    expect(await handle.db.select().from(contactReplies).where(eq(contactReplies.messageId, message.id))).toHaveLength(0);
    expect((await handle.db.select().from(jobs)).length).toBe(before);
  });

  it("archives and restores a message, filters by state and search, and logs both", async () => {
    const message = await createContactMessage(handle.db, { name: "Moussa Keïta", subject: "Formation sur mesure" });
    const path = `/admin/messages/${message.id}`;
    const archive = await routeOutcome(() =>
      asServer(
        messageAction,
        args(`${path}?retour=%3Fstatut%3Dnouveaux`, {
          cookie: cookies.admin,
          form: { intent: "archive" },
          params: { id: String(message.id) },
        }),
      ),
    );
    expect(archive).toMatchObject({ status: 303, location: "/admin/messages?statut=nouveaux" });

    const list = async (query: string) =>
      (
        (await routeOutcome(() => asServer(inboxLoader, args(`/admin/messages${query}`, { cookie: cookies.admin })))).data as {
          messages: Array<{ id: number; status: string }>;
        }
      ).messages.map((row) => row.id);
    expect(await list("")).not.toContain(message.id);
    expect(await list("?statut=archives")).toContain(message.id);
    expect(await list("?statut=tous&q=keita")).toEqual([message.id]);
    // A page past the end (its last message archived from there) shows the last page.
    expect(await list("?statut=tous&q=keita&page=4")).toEqual([message.id]);

    await routeOutcome(() =>
      asServer(messageAction, args(path, { cookie: cookies.admin, form: { intent: "restore" }, params: { id: String(message.id) } })),
    );
    const [restored] = await handle.db.select().from(contactMessages).where(eq(contactMessages.id, message.id));
    expect(restored!.status).toBe("new");
    expect(await list("?statut=nouveaux")).toContain(message.id);
    const actions = (await handle.db.select().from(auditLog)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["contact_archived", "contact_restored"]));
  });

  it("lets no one but an administrator read, answer or archive", async () => {
    const message = await createContactMessage(handle.db);
    const path = `/admin/messages/${message.id}`;
    const params = { id: String(message.id) };
    for (const cookie of [cookies.learner, cookies.teacher, undefined]) {
      const list = await routeOutcome(() => asServer(inboxLoader, args("/admin/messages", { cookie })));
      expect(list.status).toBe(302);
      const read = await routeOutcome(() => asServer(messageLoader, args(path, { cookie, params })));
      expect(read.status).toBe(302);
      const reply = await routeOutcome(() =>
        asServer(
          messageAction,
          args(path, { cookie, params, form: { intent: "reply", token: `intrus-${cookie ?? "anonyme"}-0000000`, body: "Non." } }),
        ),
      );
      expect(reply.status).toBe(302);
      await routeOutcome(() => asServer(messageAction, args(path, { cookie, params, form: { intent: "archive" } })));
    }
    expect(await handle.db.select().from(contactReplies).where(eq(contactReplies.messageId, message.id))).toHaveLength(0);
    const [untouched] = await handle.db.select().from(contactMessages).where(eq(contactMessages.id, message.id));
    expect(untouched!.status).toBe("new");

    const missing = await routeOutcome(() =>
      asServer(messageLoader, args("/admin/messages/999999", { cookie: cookies.admin, params: { id: "999999" } })),
    );
    expect(missing.status).toBe(404);
  });
});
