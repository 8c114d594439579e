import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { newsletterSubscriptions } from "../db/schema";
import { CONFIRMATION_INVALID } from "~/lib/newsletter";
import { AppError } from "../errors";
import { enqueueJob } from "../jobs";
import { loadInstituteIdentity, renderActionMail, sendMail, type MailEnv } from "../mail";

/** The newsletter's jobs queue (batches, trials, confirmation mails). */
export const NEWSLETTER_QUEUE = "newsletter.send";

/** How long a confirmation link works; an address not confirmed by then stays « en attente ». */
export const CONFIRMATION_DAYS = 7;

type Subscription = typeof newsletterSubscriptions.$inferSelect;

/** A signature of one subscription for one purpose: the link of one mail cannot serve another. */
export function subscriptionSignature(secret: string, purpose: string, id: number, email: string, extra = ""): string {
  return createHmac("sha256", secret).update(`newsletter-${purpose}:${id}:${email}:${extra}`).digest("base64url").slice(0, 32);
}

/** Whether `given` is the signature expected, in constant time. */
export function sameSignature(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Parses "<id>.<signature>"; null for anything else. */
export function parseSubscriptionToken(token: unknown): { id: number; signature: string } | null {
  if (typeof token !== "string" || token.length > 80) return null;
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match || Number(match[1]) > 2_147_483_647) return null;
  return { id: Number(match[1]), signature: match[2]! };
}

/** The token of a confirmation link: tied to the request (pending_since), so a later request's link replaces it. */
export function confirmationToken(secret: string, subscription: { id: number; email: string; pendingSince: Date }): string {
  return `${subscription.id}.${subscriptionSignature(secret, "confirm", subscription.id, subscription.email, subscription.pendingSince.toISOString())}`;
}

export function confirmationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, "")}/newsletter/confirmation?jeton=${encodeURIComponent(token)}`;
}

export type NewsletterConfirmJob = { confirm: { subscriptionId: number } };

/** Queues the confirmation mail of a subscription just (re)requested, in the caller's transaction. */
export function queueConfirmationMail(tx: Database, subscription: { id: number; pendingSince: Date }, now: Date) {
  return enqueueJob(tx, NEWSLETTER_QUEUE, { confirm: { subscriptionId: subscription.id } } satisfies NewsletterConfirmJob, {
    key: `newsletter:confirm:${subscription.id}:${subscription.pendingSince.getTime()}`,
    now,
  });
}

/** The confirmation mail, written when its job runs: to an address still waiting, with its signed link. */
export async function sendConfirmationMail(
  db: Database,
  services: { mailEnv: MailEnv; publicUrl: string; secret: string },
  job: NewsletterConfirmJob,
) {
  const [subscription] = await db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.id, job.confirm.subscriptionId));
  if (!subscription?.pendingSince || subscription.unsubscribedAt) return;
  const identity = await loadInstituteIdentity(db);
  const link = confirmationUrl(
    services.publicUrl,
    confirmationToken(services.secret, { ...subscription, pendingSince: subscription.pendingSince }),
  );
  await sendMail(
    db,
    services.mailEnv,
    renderActionMail({
      to: subscription.email,
      subject: "Confirmez votre abonnement à la lettre d'information",
      greeting: "Bonjour,",
      paragraphs: [
        "Cette adresse a été inscrite à la lettre d'information de l'institut. Pour la recevoir, confirmez votre abonnement.",
        `Le lien est valable ${CONFIRMATION_DAYS} jours. Si vous n'avez rien demandé, ignorez ce message : vous ne recevrez rien.`,
      ],
      action: { label: "Confirmer mon abonnement", url: link },
      footnote: "Aucune lettre ne part vers une adresse qui n'a pas été confirmée.",
      identity,
    }),
  );
}

/** The subscription a confirmation token names, if it still waits and the link is valid and recent. */
export async function pendingSubscriptionOfToken(
  db: Database,
  secret: string,
  token: unknown,
  now = new Date(),
): Promise<Subscription | null> {
  const parsed = parseSubscriptionToken(token);
  if (!parsed) return null;
  const [subscription] = await db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.id, parsed.id));
  if (!subscription?.pendingSince || subscription.unsubscribedAt) return null;
  const expected = subscriptionSignature(secret, "confirm", subscription.id, subscription.email, subscription.pendingSince.toISOString());
  if (!sameSignature(expected, parsed.signature)) return null;
  if (now.getTime() - subscription.pendingSince.getTime() > CONFIRMATION_DAYS * 24 * 3600 * 1000) return null;
  return subscription;
}

/**
 * Confirms a subscription by its link: from then on it receives newsletters. A link used already
 * (pending_since is cleared, so its signature no longer holds), expired or forged is refused.
 */
export async function confirmSubscription(db: Database, secret: string, token: unknown, now = new Date()) {
  const subscription = await pendingSubscriptionOfToken(db, secret, token, now);
  if (!subscription?.pendingSince) throw AppError.invalid({ jeton: CONFIRMATION_INVALID }, CONFIRMATION_INVALID);
  await db
    .update(newsletterSubscriptions)
    .set({ pendingSince: null })
    .where(and(eq(newsletterSubscriptions.id, subscription.id), eq(newsletterSubscriptions.pendingSince, subscription.pendingSince)));
  return { email: subscription.email };
}
