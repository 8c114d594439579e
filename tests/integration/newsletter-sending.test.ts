/**
 * The newsletter, through its route modules: an administrator sends one to every active
 * subscriber in batches through the jobs queue and the mail outbox, each subscriber once however
 * often the form is sent or the batches run; each mail carries a signed one-click unsubscribe
 * (List-Unsubscribe, List-Unsubscribe-Post, a link) that works without signing in; the
 * subscribers are listed and exported; nobody but an administrator gets in.
 */
import { eq, like } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { auditLog, jobs, mailOutbox, newsletterIssues, newsletterSubscriptions } from "~/.server/db/schema";
import { createJobService } from "~/.server/jobs";
import {
  CONFIRMATION_DAYS,
  countRecipients,
  NEWSLETTER_QUEUE,
  newsletterQueue,
  previewNewsletter,
  sendNewsletter,
  sendNewsletterBatch,
  sendNewsletterTest,
  subscribeToNewsletter,
} from "~/.server/newsletter";
import { loader as exportLoader } from "~/routes/admin/newsletter-export";
import { action as newsletterAction, loader as newsletterLoader } from "~/routes/admin/newsletter";
import { action as confirmAction, loader as confirmLoader } from "~/routes/public/newsletter-confirmation";
import { action as unsubscribeAction, loader as unsubscribeLoader } from "~/routes/public/newsletter-desinscription";
import { createSignedInUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let secret = "";
const cookies: Record<"admin" | "learner" | "teacher", string> = {} as never;
let adminEmail = "";
const actors: Array<{ id: string; role: "user" | "teacher"; email: string }> = [];
/** More than one batch (50), one address unsubscribed beforehand. */
const SUBSCRIBERS = 53;
const address = (index: number) => `abonne-${index}@lettre.ml`;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  secret = (await campus.auth.$context).secret;
  for (const role of ["admin", "learner", "teacher"] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { role: role === "learner" ? "user" : role });
    cookies[role] = cookie;
    if (role === "admin") adminEmail = user.email;
    else actors.push({ id: user.id, role: role === "learner" ? "user" : role, email: user.email });
  }
  for (let index = 1; index <= SUBSCRIBERS; index += 1) await subscribeToNewsletter(handle.db, address(index));
  // Subscribers who confirmed (as those from before double opt-in are): no mail of theirs is waiting.
  await handle.db.update(newsletterSubscriptions).set({ pendingSince: null });
  await handle.db.delete(jobs);
  await handle.db
    .update(newsletterSubscriptions)
    .set({ unsubscribedAt: new Date() })
    .where(eq(newsletterSubscriptions.email, address(SUBSCRIBERS)));
}, 180_000);
afterAll(async () => handle?.close());

function args(path: string, options: { cookie?: string; form?: Record<string, string> } = {}) {
  const headers = new Headers(options.cookie ? { cookie: options.cookie } : {});
  const body = options.form ? new URLSearchParams(options.form) : undefined;
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { method: body ? "POST" : "GET", headers, body });
  const context: RouterContextProvider = routerContext(handle.db, campus);
  return { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
}

async function runQueue() {
  const service = createJobService({
    database: handle,
    queues: [newsletterQueue({ db: handle.db, mailEnv: { LOG_LEVEL: "silent" }, publicUrl: TEST_PUBLIC_URL, secret })],
    tickMs: 3_600_000,
    pollMs: 3_600_000,
  });
  await service.runDue();
  await service.stop({ graceMs: 10 });
}

const newsletterMails = () => handle.db.select().from(mailOutbox).where(like(mailOutbox.to, "abonne-%@lettre.ml"));

describe("sending a newsletter", () => {
  it("states the number of recipients first, then mails each confirmed subscriber once, in batches, however often it is sent", async () => {
    const page = await routeOutcome(() => asServer(newsletterLoader, args("/admin/newsletter", { cookie: cookies.admin })));
    const { token, active } = page.data as { token: string; active: number };
    expect(active).toBe(SUBSCRIBERS - 1);
    const draft = {
      intent: "send",
      token,
      subject: "Nouvelles sessions de janvier",
      body: "Bonjour à tous.\n\nLes inscriptions sont ouvertes.",
    };

    // The first "send" is the confirmation step: the number of recipients, nothing sent.
    const step = await routeOutcome(() => asServer(newsletterAction, args("/admin/newsletter", { cookie: cookies.admin, form: draft })));
    expect(step).toMatchObject({ status: 200, data: { ok: true, confirmation: { token, recipients: SUBSCRIBERS - 1 } } });
    expect(await handle.db.select().from(newsletterIssues)).toHaveLength(0);
    expect(await handle.db.$count(jobs)).toBe(0);

    // "Oui, envoyer", clicked twice: one newsletter.
    const form = { ...draft, confirm: "oui" };
    const first = await routeOutcome(() => asServer(newsletterAction, args("/admin/newsletter", { cookie: cookies.admin, form })));
    const again = await routeOutcome(() => asServer(newsletterAction, args("/admin/newsletter", { cookie: cookies.admin, form })));
    expect(first).toMatchObject({ status: 303, location: "/admin/newsletter" });
    expect(again).toMatchObject({ status: 303, location: "/admin/newsletter" });
    const issues = await handle.db.select().from(newsletterIssues);
    expect(issues).toHaveLength(1);

    await runQueue();
    await runQueue();
    // A batch run again (a retry, another process) mails no one twice.
    expect(
      await sendNewsletterBatch(
        handle.db,
        { mailEnv: { LOG_LEVEL: "silent" }, publicUrl: TEST_PUBLIC_URL, secret },
        { issueId: issues[0]!.id, afterId: 0 },
      ),
    ).toEqual({ sent: 0 });

    const mails = await newsletterMails();
    expect(mails).toHaveLength(SUBSCRIBERS - 1);
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(SUBSCRIBERS - 1);
    expect(mails.map((mail) => mail.to)).not.toContain(address(SUBSCRIBERS));
    const batches = await handle.db.select().from(jobs).where(eq(jobs.queue, NEWSLETTER_QUEUE));
    expect(batches.length).toBe(2);
    const [sent] = await handle.db.select().from(newsletterIssues);
    expect(sent).toMatchObject({ status: "sent" });
    expect(sent!.sentAt).not.toBeNull();

    const mail = mails[0]!;
    expect(mail.subject).toBe("Nouvelles sessions de janvier");
    expect(mail.text).toContain("Les inscriptions sont ouvertes.");
    expect(mail.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const link = /^<(.+)>$/.exec(mail.headers["List-Unsubscribe"]!)![1]!;
    expect(link).toMatch(new RegExp(`^${TEST_PUBLIC_URL}/newsletter/desinscription\\?jeton=`));
    expect(mail.text).toContain(link);

    const audit = await handle.db.select().from(auditLog).where(eq(auditLog.action, "newsletter_sent"));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ subscribers: SUBSCRIBERS - 1 });
  });

  it("refuses an empty newsletter beside its fields", async () => {
    const result = await routeOutcome(() =>
      asServer(
        newsletterAction,
        args("/admin/newsletter", {
          cookie: cookies.admin,
          form: { intent: "send", token: "0123456789abcdef-vide", subject: " ", body: "", confirm: "oui" },
        }),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ fieldErrors: { subject: "L'objet est obligatoire.", body: "Le texte est obligatoire." } });
    expect(await handle.db.select().from(newsletterIssues)).toHaveLength(1);
  });
});

describe("unsubscribing by the link", () => {
  it("works without signing in, by the page's button or a mail client's one-click POST, and refuses a bad token", async () => {
    const [mail] = await handle.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, address(1)));
    const link = /^<(.+)>$/.exec(mail!.headers["List-Unsubscribe"]!)![1]!;
    const path = link.slice(TEST_PUBLIC_URL.length);
    const jeton = new URL(link).searchParams.get("jeton")!;

    // Opening the link (or a scanner fetching it) unsubscribes no one.
    const shown = await routeOutcome(() => unsubscribeLoader(args(path)));
    expect(shown).toMatchObject({ status: 200, data: { state: "confirm", email: address(1) } });
    const stillThere = await handle.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, address(1)));
    expect(stillThere[0]!.unsubscribedAt).toBeNull();

    // Forged or altered tokens: refused, nothing changes.
    const [other] = await handle.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, address(2)));
    const forged = [
      `${other!.id}.${jeton.split(".")[1]}`,
      `${jeton.slice(0, -1)}${jeton.endsWith("A") ? "B" : "A"}`,
      "",
      "1.abc",
      "x".repeat(500),
    ];
    for (const token of forged) {
      const refused = await routeOutcome(() =>
        unsubscribeAction(
          args(`/newsletter/desinscription?jeton=${encodeURIComponent(token)}`, { form: { "List-Unsubscribe": "One-Click" } }),
        ),
      );
      expect(refused).toMatchObject({ status: 400, data: { state: "invalid" } });
    }
    expect((await routeOutcome(() => unsubscribeLoader(args("/newsletter/desinscription?jeton=nimporte")))).status).toBe(400);
    const active = await handle.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, address(2)));
    expect(active[0]!.unsubscribedAt).toBeNull();

    // RFC 8058: the mail client POSTs "List-Unsubscribe=One-Click" to the link itself.
    const done = await routeOutcome(() => unsubscribeAction(args(path, { form: { "List-Unsubscribe": "One-Click" } })));
    expect(done).toMatchObject({ status: 200, data: { state: "done", email: address(1) } });
    const twice = await routeOutcome(() => unsubscribeAction(args(path, { form: {} })));
    expect(twice).toMatchObject({ status: 200, data: { state: "done" } });
    const [gone] = await handle.db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, address(1)));
    expect(gone!.unsubscribedAt).not.toBeNull();
    expect((await routeOutcome(() => unsubscribeLoader(args(path)))).data).toMatchObject({ state: "done" });

    // Subscribing again brings the address back, once confirmed again.
    expect(await subscribeToNewsletter(handle.db, address(1))).toMatchObject({ status: "subscribed" });
    expect(await subscribeToNewsletter(handle.db, address(1))).toMatchObject({ status: "pending" });
    await runQueue();
    const confirmations = await handle.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, "Confirmez votre abonnement à la lettre d'information"));
    expect(confirmations.map((mail) => mail.to)).toEqual([address(1)]);
  });
});

describe("the subscribers", () => {
  it("are listed, filtered and exported as CSV for an administrator", async () => {
    const list = await routeOutcome(() =>
      asServer(newsletterLoader, args("/admin/newsletter?statut=desinscrits", { cookie: cookies.admin })),
    );
    expect((list.data as { subscribers: Array<{ email: string }> }).subscribers.map((row) => row.email)).toEqual([address(SUBSCRIBERS)]);
    // A page past the end (the list shrank since the link was made) shows the last page.
    const beyond = await routeOutcome(() =>
      asServer(newsletterLoader, args("/admin/newsletter?statut=desinscrits&page=7", { cookie: cookies.admin })),
    );
    expect(beyond.data).toMatchObject({ filters: { page: 1 }, pages: 1, subscribers: [{ email: address(SUBSCRIBERS) }] });
    const csv = await routeOutcome(() =>
      asServer(exportLoader, args("/admin/newsletter/abonnes.csv?statut=tous", { cookie: cookies.admin })),
    );
    expect(csv.status).toBe(200);
    expect(csv.body).toContain("E-mail;Abonné le;En attente de confirmation depuis le;Désinscrit le");
    expect(csv.body!.split("\r\n").filter(Boolean)).toHaveLength(SUBSCRIBERS + 1);
    expect(await handle.db.select().from(auditLog).where(eq(auditLog.action, "newsletter_exported"))).toHaveLength(1);
  });

  it("are not shown, exported or written to by anyone else", async () => {
    for (const cookie of [cookies.learner, cookies.teacher, undefined]) {
      expect((await routeOutcome(() => asServer(newsletterLoader, args("/admin/newsletter", { cookie })))).status).toBe(302);
      expect((await routeOutcome(() => asServer(exportLoader, args("/admin/newsletter/abonnes.csv", { cookie })))).status).toBe(302);
      const form = { intent: "send", token: `intrus-${cookie ?? "anonyme"}-00000000`, subject: "Spam", body: "Spam" };
      expect((await routeOutcome(() => asServer(newsletterAction, args("/admin/newsletter", { cookie, form })))).status).toBe(302);
    }
    expect(await handle.db.select().from(newsletterIssues)).toHaveLength(1);
  });
});

describe("trying a newsletter before sending it", () => {
  const draft = { subject: "Portes ouvertes du 12 décembre", body: "Venez nous voir.\n\nAu programme : démonstrations et inscriptions." };
  const post = (cookie: string, form: Record<string, string>) =>
    routeOutcome(() => asServer(newsletterAction, args("/admin/newsletter", { cookie, form })));
  const state = async () => ({
    issues: (await handle.db.select().from(newsletterIssues)).length,
    batches: (await handle.db.select().from(jobs).where(eq(jobs.queue, NEWSLETTER_QUEUE))).length,
    mails: (await handle.db.select().from(mailOutbox)).length,
  });

  it("shows the newsletter as subscribers will read it, and writes nothing", async () => {
    const before = await state();
    const result = await post(cookies.admin, { intent: "preview", ...draft });
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({
      ok: true,
      intent: "preview",
      values: draft,
      preview: { subject: draft.subject, paragraphs: ["Venez nous voir.", "Au programme : démonstrations et inscriptions."] },
    });
    expect(await state()).toEqual(before);
  });

  it("mails a trial to the administrator's own address only, through the queue and the outbox", async () => {
    const before = await state();
    const result = await post(cookies.admin, { intent: "test", ...draft });
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ ok: true, intent: "test", values: draft });
    expect((result.data as { message: string }).message).toContain(adminEmail);

    await runQueue();
    const trials = await handle.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.subject, `[Essai] ${draft.subject}`));
    expect(trials.map((mail) => mail.to)).toEqual([adminEmail]);
    expect(trials[0]!.text).toContain("Au programme : démonstrations et inscriptions.");
    expect(trials[0]!.text).toContain("Ceci est un essai envoyé à vous seul.");
    // No newsletter recorded, no subscriber written to: only the trial's mail (and its job).
    const after = await state();
    expect(after).toEqual({ issues: before.issues, batches: before.batches + 1, mails: before.mails + 1 });
    expect(await handle.db.select().from(auditLog).where(eq(auditLog.action, "newsletter_test_sent"))).toHaveLength(1);
  });

  it("keeps what was typed and says what is missing, beside the fields", async () => {
    const result = await post(cookies.admin, { intent: "test", subject: "", body: "Un texte sans objet." });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      intent: "test",
      fieldErrors: { subject: "L'objet est obligatoire." },
      values: { subject: "", body: "Un texte sans objet." },
    });
  });

  it("lets nobody but an administrator preview or try a newsletter", async () => {
    const before = await state();
    // Sent back by the administration's guard...
    for (const cookie of [cookies.learner, cookies.teacher]) {
      for (const intent of ["preview", "test"]) {
        expect((await post(cookie, { intent, ...draft })).status).toBe(302);
      }
    }
    // ...and refused by the capability itself.
    for (const actor of actors) {
      expect(() => previewNewsletter(actor, draft)).toThrow(expect.objectContaining({ code: "forbidden" }));
      await expect(sendNewsletterTest(handle.db, actor, draft)).rejects.toMatchObject({ code: "forbidden" });
    }
    expect(await state()).toEqual(before);
  });
});

describe("double opt-in", () => {
  const confirmationLink = async (to: string) => {
    const mails = await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Confirmez votre abonnement à la lettre d'information");
    return new RegExp(`${TEST_PUBLIC_URL}/newsletter/confirmation\\?jeton=\\S+`).exec(mails[0]!.text)![0]!;
  };

  it("mails a new subscriber a signed link; until it is used the address waits « en attente » and receives nothing", async () => {
    const newcomer = "nouvelle@lettre.test";
    const confirmedBefore = await countRecipients(handle.db, { id: "x", role: "admin" });
    expect(await subscribeToNewsletter(handle.db, newcomer)).toMatchObject({ status: "subscribed" });
    await runQueue();
    const link = await confirmationLink(newcomer);
    const path = link.slice(TEST_PUBLIC_URL.length);

    const waiting = await routeOutcome(() =>
      asServer(newsletterLoader, args("/admin/newsletter?statut=en-attente", { cookie: cookies.admin })),
    );
    expect(waiting.data).toMatchObject({ active: confirmedBefore, pending: 2 });
    expect((waiting.data as { subscribers: Array<{ email: string; pending: string | null }> }).subscribers).toContainEqual(
      expect.objectContaining({ email: newcomer, pending: expect.any(String) }),
    );
    // A newsletter prepared now would not reach it.
    const step = await routeOutcome(() =>
      asServer(
        newsletterAction,
        args("/admin/newsletter", {
          cookie: cookies.admin,
          form: { intent: "send", token: "0123456789abcdef-opt-in", subject: "Essai", body: "Texte" },
        }),
      ),
    );
    expect(step.data).toMatchObject({ confirmation: { recipients: confirmedBefore } });

    // Opening the link (or a scanner fetching it) confirms no one; the button does.
    expect(await routeOutcome(() => confirmLoader(args(path)))).toMatchObject({ status: 200, data: { state: "confirm", email: newcomer } });
    expect(await countRecipients(handle.db, { id: "x", role: "admin" })).toBe(confirmedBefore);
    const done = await routeOutcome(() => confirmAction(args(path, { form: {} })));
    expect(done).toMatchObject({ status: 200, data: { state: "done", email: newcomer } });
    expect(await countRecipients(handle.db, { id: "x", role: "admin" })).toBe(confirmedBefore + 1);
    // Used once: the link no longer works.
    expect(await routeOutcome(() => confirmAction(args(path, { form: {} })))).toMatchObject({ status: 400, data: { state: "invalid" } });
  });

  it("refuses a forged, altered or expired link", async () => {
    const late = "tardive@lettre.test";
    const then = new Date(Date.now() - (CONFIRMATION_DAYS + 1) * 24 * 3600 * 1000);
    await subscribeToNewsletter(handle.db, late, { now: then });
    await runQueue();
    const link = await confirmationLink(late);
    const jeton = new URL(link).searchParams.get("jeton")!;
    for (const token of [jeton, `${jeton.slice(0, -1)}${jeton.endsWith("A") ? "B" : "A"}`, "1.abc", ""]) {
      const refused = await routeOutcome(() =>
        confirmAction(args(`/newsletter/confirmation?jeton=${encodeURIComponent(token)}`, { form: {} })),
      );
      expect(refused, token).toMatchObject({ status: 400, data: { state: "invalid" } });
    }
    const [row] = await handle.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, late));
    expect(row!.pendingSince).not.toBeNull();
    // A newsletter cannot be sent without the confirmation step.
    await expect(
      sendNewsletter(handle.db, { id: "x", role: "admin" }, { subject: "Sans étape", body: "Texte", token: "0123456789abcdef-direct" }),
    ).rejects.toMatchObject({ code: "invalid" });
  });
});
