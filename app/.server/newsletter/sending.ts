import { and, count, desc, eq, gt, isNotNull, isNull, notExists, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { isoDay } from "~/lib/dates";
import { LIMITS } from "~/lib/limits";
import { SUBSCRIBER_FILTERS, type SubscriberFilter } from "~/lib/newsletter-subscribers";
import { choice, pageSchema, requiredText, searchQuerySchema } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import { recordAudit } from "../audit";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { readPage } from "../db/paging";
import { newsletterDeliveries, newsletterIssues, newsletterSubscriptions } from "../db/schema";
import { AppError, validate } from "../errors";
import { toCsv } from "../http/csv";
import { enqueueJob } from "../jobs";
import { loadInstituteIdentity, renderActionMail, sendMail, type MailEnv } from "../mail";
import {
  NEWSLETTER_QUEUE,
  parseSubscriptionToken,
  sameSignature,
  sendConfirmationMail,
  subscriptionSignature,
  type NewsletterConfirmJob,
} from "./confirmation";
import { canManageNewsletter } from "./policy";

export const newsletterAdminMessages = { forbidden: "La lettre d'information est gérée par les administrateurs." } as const;

function assertCanManageNewsletter(actor: Actor | null | undefined): asserts actor is Actor {
  if (!canManageNewsletter(actor)) throw AppError.forbidden(newsletterAdminMessages.forbidden, "not_admin");
}

/* ---------- The unsubscribe link: signed, so that it works without signing in ---------- */

/** The token of a subscriber's unsubscribe link: its id and a signature of id and address. */
export function unsubscribeToken(secret: string, subscription: { id: number; email: string }): string {
  return `${subscription.id}.${subscriptionSignature(secret, "unsubscribe", subscription.id, subscription.email)}`;
}

export function unsubscribeUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, "")}/newsletter/desinscription?jeton=${encodeURIComponent(token)}`;
}

/** The subscription a token names, if its signature holds; null for anything else. */
export async function subscriptionOfToken(db: Database, secret: string, token: unknown) {
  const parsed = parseSubscriptionToken(token);
  if (!parsed) return null;
  const [subscription] = await db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.id, parsed.id));
  if (!subscription) return null;
  return sameSignature(subscriptionSignature(secret, "unsubscribe", subscription.id, subscription.email), parsed.signature)
    ? subscription
    : null;
}

/**
 * One-click unsubscribe (RFC 8058, and the link of every newsletter): a valid token unsubscribes
 * its address (again: nothing changes); anything else is refused.
 */
export async function unsubscribeByToken(db: Database, secret: string, token: unknown, now = new Date()) {
  const subscription = await subscriptionOfToken(db, secret, token);
  if (!subscription)
    throw AppError.invalid({ jeton: "Ce lien de désinscription n'est pas valide." }, "Ce lien de désinscription n'est pas valide.");
  if (!subscription.unsubscribedAt) {
    await db
      .update(newsletterSubscriptions)
      .set({ unsubscribedAt: now })
      .where(and(eq(newsletterSubscriptions.id, subscription.id), isNull(newsletterSubscriptions.unsubscribedAt)));
  }
  return { email: subscription.email };
}

/* ---------- The administrators' screen: subscribers, export, history ---------- */

export type SubscriberFilters = { status: SubscriberFilter; q: string; page: number };
export const SUBSCRIBERS_PAGE_SIZE = 50;

const filtersSchema = z.object({ statut: choice(SUBSCRIBER_FILTERS, "actifs"), q: searchQuerySchema, page: pageSchema });

export function parseSubscriberFilters(params: URLSearchParams): SubscriberFilters {
  const parsed = filtersSchema.parse(Object.fromEntries(params));
  return { status: parsed.statut, q: parsed.q, page: parsed.page };
}

/** Who receives newsletters: subscribed, and confirmed (double opt-in). */
const confirmedSubscribers = and(isNull(newsletterSubscriptions.unsubscribedAt), isNull(newsletterSubscriptions.pendingSince));

const statusWhere: Record<SubscriberFilter, SQL | undefined> = {
  actifs: confirmedSubscribers,
  "en-attente": and(isNull(newsletterSubscriptions.unsubscribedAt), isNotNull(newsletterSubscriptions.pendingSince)),
  desinscrits: isNotNull(newsletterSubscriptions.unsubscribedAt),
  tous: undefined,
};

function subscriberWhere(filters: Pick<SubscriberFilters, "status" | "q">): SQL | undefined {
  return and(statusWhere[filters.status], filters.q ? containsText(filters.q, newsletterSubscriptions.email) : undefined);
}

export async function listSubscribers(db: Database, actor: Actor, filters: SubscriberFilters) {
  assertCanManageNewsletter(actor);
  const where = subscriberWhere(filters);
  const [{ rows, total, page, pageCount }, [totals]] = await Promise.all([
    readPage({
      asked: filters.page,
      size: SUBSCRIBERS_PAGE_SIZE,
      count: () => db.select({ total: count() }).from(newsletterSubscriptions).where(where),
      rows: (offset) =>
        db
          .select()
          .from(newsletterSubscriptions)
          .where(where)
          .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id))
          .limit(SUBSCRIBERS_PAGE_SIZE)
          .offset(offset),
    }),
    db
      .select({
        active: sql<number>`count(*) filter (where ${confirmedSubscribers})::int`,
        pending: sql<number>`count(*) filter (where ${statusWhere["en-attente"]})::int`,
        unsubscribed: sql<number>`count(*) filter (where ${newsletterSubscriptions.unsubscribedAt} is not null)::int`,
      })
      .from(newsletterSubscriptions),
  ]);
  return {
    subscribers: rows,
    total,
    page,
    pageCount,
    active: totals?.active ?? 0,
    pending: totals?.pending ?? 0,
    unsubscribed: totals?.unsubscribed ?? 0,
  };
}

/** The subscribers of the filter as CSV (every page), logged in the audit log. */
export async function exportSubscribersCsv(db: Database, actor: Actor, filters: Pick<SubscriberFilters, "status" | "q">, now = new Date()) {
  assertCanManageNewsletter(actor);
  const rows = await db
    .select()
    .from(newsletterSubscriptions)
    .where(subscriberWhere(filters))
    .orderBy(desc(newsletterSubscriptions.createdAt), desc(newsletterSubscriptions.id));
  const body = toCsv(
    ["E-mail", "Abonné le", "En attente de confirmation depuis le", "Désinscrit le"],
    rows.map((row) => [
      row.email,
      isoDay(row.createdAt),
      row.pendingSince && !row.unsubscribedAt ? isoDay(row.pendingSince) : "",
      row.unsubscribedAt ? isoDay(row.unsubscribedAt) : "",
    ]),
  );
  await recordAudit(db, { actorId: actor.id, action: "newsletter_exported", details: { count: rows.length, statut: filters.status } });
  return { filename: `abonnes-newsletter-${isoDay(now)}.csv`, body, count: rows.length };
}

/** The newsletters sent, newest first, with how many received each so far. */
export async function listIssues(db: Database, actor: Actor, limit = 20) {
  assertCanManageNewsletter(actor);
  return db
    .select({
      id: newsletterIssues.id,
      subject: newsletterIssues.subject,
      status: newsletterIssues.status,
      createdAt: newsletterIssues.createdAt,
      sentAt: newsletterIssues.sentAt,
      delivered: sql<number>`(select count(*)::int from ${newsletterDeliveries} where ${newsletterDeliveries.issueId} = ${newsletterIssues.id})`,
    })
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.createdAt), desc(newsletterIssues.id))
    .limit(limit);
}

/* ---------- Sending, in batches through the jobs queue ---------- */

/** One job sends to this many subscribers, then queues the next batch. */
export const NEWSLETTER_BATCH_SIZE = 50;
export type NewsletterBatchJob = { issueId: number; afterId: number };
/** An administrator's trial of a newsletter, sent to their own address only. */
export type NewsletterTestJob = { test: { to: string; subject: string; body: string } };

export const newsletterSchema = z.object({
  subject: requiredText({ label: "L'objet", max: LIMITS.title }),
  body: requiredText({ label: "Le texte", max: LIMITS.longText }),
  /** Chosen when the form was shown: the same form sent twice is one newsletter. */
  token: z.string().trim().min(16, "Formulaire expiré : rechargez la page.").max(LIMITS.textId, "Formulaire expiré : rechargez la page."),
});

/** The second step: the administrator saw how many would receive it and said yes. */
const confirmedSendSchema = newsletterSchema.extend({
  confirm: z.literal("oui", { error: "Confirmez l'envoi : le nombre de destinataires vous est montré avant." }),
});

/** How many would receive a newsletter sent now: the confirmed subscribers. */
export async function countRecipients(db: Database, actor: Actor) {
  assertCanManageNewsletter(actor);
  return db.$count(newsletterSubscriptions, confirmedSubscribers);
}

/**
 * The confirmation step before sending: the newsletter checked as it would be sent, and the number
 * of subscribers who would receive it. Nothing is written.
 */
export async function prepareNewsletter(db: Database, actor: Actor, input: unknown) {
  assertCanManageNewsletter(actor);
  const data = validate(newsletterSchema, input);
  return { ...data, recipients: await countRecipients(db, actor) };
}

/**
 * Sends a newsletter to every confirmed subscriber, once confirmed on the step that showed their
 * number (`confirm: "oui"`): the newsletter is kept, logged, and its first batch queued, in one
 * transaction. The same form sent again (same token) sends nothing more.
 */
export async function sendNewsletter(db: Database, actor: Actor, input: unknown, now = new Date()) {
  assertCanManageNewsletter(actor);
  const data = validate(confirmedSendSchema, input);
  return db.transaction(async (tx) => {
    const [issue] = await tx
      .insert(newsletterIssues)
      .values({ subject: data.subject, body: data.body, token: data.token, authorId: actor.id, createdAt: now })
      .onConflictDoNothing({ target: newsletterIssues.token })
      .returning({ id: newsletterIssues.id });
    if (!issue) {
      const [first] = await tx.select({ id: newsletterIssues.id }).from(newsletterIssues).where(eq(newsletterIssues.token, data.token));
      return { issueId: first!.id, created: false as const };
    }
    const [active] = await tx.select({ value: count() }).from(newsletterSubscriptions).where(confirmedSubscribers);
    await recordAudit(tx, {
      actorId: actor.id,
      action: "newsletter_sent",
      details: { issueId: issue.id, subject: data.subject, subscribers: active?.value ?? 0 },
      createdAt: now,
    });
    await queueBatch(tx, { issueId: issue.id, afterId: 0 }, now);
    return { issueId: issue.id, created: true as const };
  });
}

function queueBatch(tx: Database, job: NewsletterBatchJob, now: Date) {
  return enqueueJob(tx, NEWSLETTER_QUEUE, job, { key: `newsletter:${job.issueId}:after:${job.afterId}`, now });
}

const newsletterDraftSchema = newsletterSchema.pick({ subject: true, body: true });

/** A newsletter's text as its mail shows it: one paragraph per block separated by a blank line. */
function paragraphsOf(body: string): string[] {
  return body
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

export interface NewsletterPreview {
  subject: string;
  paragraphs: string[];
}

/** What subscribers will read, before anything is sent: nothing is written. */
export function previewNewsletter(actor: Actor, input: unknown): NewsletterPreview {
  assertCanManageNewsletter(actor);
  const data = validate(newsletterDraftSchema, input);
  return { subject: data.subject, paragraphs: paragraphsOf(data.body) };
}

/**
 * The newsletter as written, mailed to the administrator's own address only (through the jobs
 * queue and the outbox, like the real thing): no newsletter is recorded, no subscriber is written to.
 */
export async function sendNewsletterTest(db: Database, actor: Actor & { email: string }, input: unknown, now = new Date()) {
  assertCanManageNewsletter(actor);
  const data = validate(newsletterDraftSchema, input);
  await db.transaction(async (tx) => {
    await enqueueJob(
      tx,
      NEWSLETTER_QUEUE,
      { test: { to: actor.email, subject: data.subject, body: data.body } } satisfies NewsletterTestJob,
      { now },
    );
    await recordAudit(tx, { actorId: actor.id, action: "newsletter_test_sent", details: { subject: data.subject }, createdAt: now });
  });
  return { sentTo: actor.email };
}

export interface NewsletterServices {
  mailEnv: MailEnv;
  publicUrl: string;
  /** Signs the unsubscribe links (the application secret). */
  secret: string;
}

/**
 * One batch of a newsletter: the next NEWSLETTER_BATCH_SIZE active subscribers (by id, after
 * `afterId`) who have not received it. Each delivery is recorded before its mail leaves, so a batch
 * run again (a retry, a second process) mails no one twice; then the next batch is queued, or the
 * newsletter marked sent.
 */
export async function sendNewsletterBatch(db: Database, services: NewsletterServices, job: NewsletterBatchJob, now = new Date()) {
  const [issue] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, job.issueId));
  if (!issue || issue.status === "sent") return { sent: 0 };
  const recipients = await db
    .select({ id: newsletterSubscriptions.id, email: newsletterSubscriptions.email })
    .from(newsletterSubscriptions)
    .where(
      and(
        gt(newsletterSubscriptions.id, job.afterId),
        confirmedSubscribers,
        notExists(
          db
            .select({ one: sql`1` })
            .from(newsletterDeliveries)
            .where(and(eq(newsletterDeliveries.issueId, issue.id), eq(newsletterDeliveries.subscriptionId, newsletterSubscriptions.id))),
        ),
      ),
    )
    .orderBy(newsletterSubscriptions.id)
    .limit(NEWSLETTER_BATCH_SIZE);
  const identity = await loadInstituteIdentity(db);
  const base = services.publicUrl.replace(/\/$/, "");
  let sent = 0;
  for (const recipient of recipients) {
    const claimed = await db
      .insert(newsletterDeliveries)
      .values({ issueId: issue.id, subscriptionId: recipient.id, sentAt: now })
      .onConflictDoNothing()
      .returning({ id: newsletterDeliveries.subscriptionId });
    if (!claimed.length) continue;
    const link = unsubscribeUrl(base, unsubscribeToken(services.secret, recipient));
    const mail = newsletterMail({
      to: recipient.email,
      subject: issue.subject,
      body: issue.body,
      base,
      footnote: `Vous recevez cette lettre parce que vous y êtes abonné. Pour vous désinscrire en un clic : ${link}`,
      identity,
    });
    try {
      await sendMail(db, services.mailEnv, {
        ...mail,
        headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
    } catch (error) {
      // Not sent: the delivery is given back, and the job's retry sends it.
      await db
        .delete(newsletterDeliveries)
        .where(and(eq(newsletterDeliveries.issueId, issue.id), eq(newsletterDeliveries.subscriptionId, recipient.id)));
      throw error;
    }
    sent += 1;
  }
  const last = recipients.at(-1);
  if (recipients.length === NEWSLETTER_BATCH_SIZE && last) await queueBatch(db, { issueId: issue.id, afterId: last.id }, now);
  else await db.update(newsletterIssues).set({ status: "sent", sentAt: now }).where(eq(newsletterIssues.id, issue.id));
  return { sent };
}

/** The mail of a newsletter: its text, a link to the catalogue, and the footnote given. */
function newsletterMail(options: {
  to: string;
  subject: string;
  body: string;
  base: string;
  footnote: string;
  identity: Awaited<ReturnType<typeof loadInstituteIdentity>>;
}) {
  return renderActionMail({
    to: options.to,
    subject: options.subject,
    greeting: "Bonjour,",
    paragraphs: paragraphsOf(options.body),
    action: { label: "Voir nos formations", url: `${options.base}/formations` },
    footnote: options.footnote,
    identity: options.identity,
  });
}

/** An administrator's trial: the newsletter's mail to their own address, marked as a trial. */
export async function sendNewsletterTestMail(db: Database, services: NewsletterServices, job: NewsletterTestJob) {
  const identity = await loadInstituteIdentity(db);
  const mail = newsletterMail({
    ...job.test,
    subject: `[Essai] ${job.test.subject}`,
    base: services.publicUrl.replace(/\/$/, ""),
    footnote: "Ceci est un essai envoyé à vous seul. Chaque abonné trouvera ici son lien de désinscription en un clic.",
    identity,
  });
  await sendMail(db, services.mailEnv, mail);
}

/** The jobs service's definition of the newsletter's queue (app/.server/http/app.ts): batches, trials, confirmation mails. */
export function newsletterQueue(services: NewsletterServices & { db: Database }) {
  return {
    queue: NEWSLETTER_QUEUE,
    run: (payload: NewsletterBatchJob | NewsletterTestJob | NewsletterConfirmJob, { now }: { now: () => Date }) =>
      "test" in payload
        ? sendNewsletterTestMail(services.db, services, payload)
        : "confirm" in payload
          ? sendConfirmationMail(services.db, services, payload)
          : sendNewsletterBatch(services.db, services, payload, now()),
  };
}
