import { eq } from "drizzle-orm";
import { z } from "zod";
import { NEWSLETTER_MESSAGES, newsletterEmailSchema } from "~/lib/newsletter";
import type { Database } from "../db/client";
import { newsletterSubscriptions } from "../db/schema";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { queueConfirmationMail } from "./confirmation";

/**
 * Subscription attempts accepted per IP address per hour (generous: many mobile subscribers share
 * one address behind carrier-grade NAT; subscribing is idempotent anyway).
 */
export const NEWSLETTER_RATE_LIMIT = { limit: 30, windowSeconds: 60 * 60 } as const;

export type SubscribeResult =
  | { status: "subscribed" | "pending" | "already"; email: string }
  | { status: "invalid"; message: string }
  | { status: "rate-limited"; message: string; retryAfterSeconds: number };

/** A second request for an address still waiting sends a new link only after this long. */
const RESEND_AFTER_MS = 10 * 60 * 1000;

/**
 * Asks to subscribe an address to the newsletter (double opt-in): a new address, or one that had
 * unsubscribed, waits for confirmation (pending_since) and its confirmation mail is queued;
 * "subscribed" then means "confirmation mail on its way". An address still waiting answers
 * "pending" (a new link after RESEND_AFTER_MS, so a double submit mails once); a confirmed one,
 * "already". The address is trimmed and lower-cased. With `ip`, attempts are rate-limited per
 * address of the client.
 */
export async function subscribeToNewsletter(
  db: Database,
  email: unknown,
  options: { ip?: string; now?: Date } = {},
): Promise<SubscribeResult> {
  const parsed = newsletterEmailSchema.safeParse(email);
  if (!parsed.success) return { status: "invalid", message: z.flattenError(parsed.error).formErrors[0] ?? NEWSLETTER_MESSAGES.invalid };
  const now = options.now ?? new Date();

  if (options.ip) {
    const limit = await consumeRateLimit(db, `newsletter:ip:${options.ip}`, { ...NEWSLETTER_RATE_LIMIT, now });
    if (!limit.allowed) {
      return {
        status: "rate-limited",
        message: `Trop de tentatives. Réessayez dans ${formatRetryAfter(limit.retryAfterSeconds)}.`,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }

  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(newsletterSubscriptions)
      .values({ email: parsed.data, pendingSince: now, createdAt: now })
      .onConflictDoNothing({ target: newsletterSubscriptions.email })
      .returning({ id: newsletterSubscriptions.id });
    if (created) {
      await queueConfirmationMail(tx, { id: created.id, pendingSince: now }, now);
      return { status: "subscribed" as const, email: parsed.data };
    }
    // Locked: two submits of one address at once decide one after the other.
    const [row] = await tx.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, parsed.data)).for("update");
    if (!row) return { status: "pending" as const, email: parsed.data };
    if (!row.unsubscribedAt && !row.pendingSince) return { status: "already" as const, email: parsed.data };
    const waiting = !row.unsubscribedAt && row.pendingSince && now.getTime() - row.pendingSince.getTime() < RESEND_AFTER_MS;
    if (!waiting) {
      await tx
        .update(newsletterSubscriptions)
        .set({ unsubscribedAt: null, pendingSince: now })
        .where(eq(newsletterSubscriptions.id, row.id));
      await queueConfirmationMail(tx, { id: row.id, pendingSince: now }, now);
    }
    return { status: row.unsubscribedAt ? ("subscribed" as const) : ("pending" as const), email: parsed.data };
  });
}

export { CONFIRMATION_DAYS, confirmSubscription, pendingSubscriptionOfToken, type NewsletterConfirmJob } from "./confirmation";
export {
  exportSubscribersCsv,
  listIssues,
  countRecipients,
  listSubscribers,
  newsletterQueue,
  parseSubscriberFilters,
  prepareNewsletter,
  previewNewsletter,
  sendNewsletter,
  sendNewsletterBatch,
  sendNewsletterTest,
  subscriptionOfToken,
  unsubscribeByToken,
  unsubscribeToken,
  unsubscribeUrl,
  type NewsletterBatchJob,
  type NewsletterPreview,
  type NewsletterTestJob,
  type NewsletterServices,
  type SubscriberFilters,
} from "./sending";
export { NEWSLETTER_QUEUE } from "./confirmation";
