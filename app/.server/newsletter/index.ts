import { isNotNull } from "drizzle-orm";
import { z } from "zod";
import { NEWSLETTER_MESSAGES, newsletterEmailSchema } from "~/lib/newsletter";
import type { Database } from "../db/client";
import { newsletterSubscriptions } from "../db/schema";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";

/**
 * Subscription attempts accepted per IP address per hour (generous: many mobile subscribers share
 * one address behind carrier-grade NAT; subscribing is idempotent anyway).
 */
export const NEWSLETTER_RATE_LIMIT = { limit: 30, windowSeconds: 60 * 60 } as const;

export type SubscribeResult =
  | { status: "subscribed" | "already"; email: string }
  | { status: "invalid"; message: string }
  | { status: "rate-limited"; message: string; retryAfterSeconds: number };

/**
 * Subscribes an address to the newsletter. The address is trimmed and lower-cased; subscribing an
 * address twice changes nothing and answers "already"; an address that had unsubscribed is back. With `ip`, attempts are rate-limited per
 * address of the client.
 */
export async function subscribeToNewsletter(
  db: Database,
  email: unknown,
  options: { ip?: string; now?: Date } = {},
): Promise<SubscribeResult> {
  const parsed = newsletterEmailSchema.safeParse(email);
  if (!parsed.success) return { status: "invalid", message: z.flattenError(parsed.error).formErrors[0] ?? NEWSLETTER_MESSAGES.invalid };

  if (options.ip) {
    const limit = await consumeRateLimit(db, `newsletter:ip:${options.ip}`, { ...NEWSLETTER_RATE_LIMIT, now: options.now });
    if (!limit.allowed) {
      return {
        status: "rate-limited",
        message: `Trop de tentatives. Réessayez dans ${formatRetryAfter(limit.retryAfterSeconds)}.`,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }

  // An address that had unsubscribed is subscribed again; one already subscribed is left as it is.
  const inserted = await db
    .insert(newsletterSubscriptions)
    .values({ email: parsed.data })
    .onConflictDoUpdate({
      target: newsletterSubscriptions.email,
      set: { unsubscribedAt: null },
      setWhere: isNotNull(newsletterSubscriptions.unsubscribedAt),
    })
    .returning({ id: newsletterSubscriptions.id });
  return { status: inserted.length > 0 ? "subscribed" : "already", email: parsed.data };
}

export {
  exportSubscribersCsv,
  listIssues,
  listSubscribers,
  NEWSLETTER_QUEUE,
  newsletterQueue,
  parseSubscriberFilters,
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
