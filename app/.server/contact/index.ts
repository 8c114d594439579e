import { z } from "zod";
import { CONTACT_FIELDS, CONTACT_LIMITS, type ContactFieldErrors, type ContactValues } from "~/lib/contact";
import { contactSchema } from "~/lib/contact-schema";
import type { Database } from "../db/client";
import { contactMessages } from "../db/schema";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { queueNewMessageNotice } from "./inbox";

/**
 * Messages accepted per hour: 5 per e-mail address, and 20 per IP address (higher, because Malian
 * mobile operators put many subscribers behind one address with carrier-grade NAT).
 */
export const CONTACT_RATE_LIMITS = {
  perEmail: { limit: 5, windowSeconds: 60 * 60 },
  perIp: { limit: 20, windowSeconds: 60 * 60 },
} as const;

export type SendContactResult =
  | { ok: true }
  | { ok: false; reason: "invalid"; fieldErrors: ContactFieldErrors; values: ContactValues }
  | { ok: false; reason: "rate-limited"; message: string; retryAfterSeconds: number; values: ContactValues };

/** The longest value echoed back into the form: enough to keep what a person typed, no more. */
const ECHO_LIMIT = CONTACT_LIMITS.message * 2;

/** What was typed, as strings, to put back into the form after an error. */
export function contactValuesFrom(input: Record<string, unknown>): ContactValues {
  const values: ContactValues = {};
  for (const field of CONTACT_FIELDS) {
    const value = input[field];
    if (typeof value === "string") values[field] = value.slice(0, ECHO_LIMIT);
  }
  return values;
}

export function rateLimitMessage(retryAfterSeconds: number): string {
  return `Trop de messages envoyés. Réessayez dans ${formatRetryAfter(retryAfterSeconds)}.`;
}

/**
 * Stores a message from the contact form.
 *
 * - `website` is a honeypot (a field hidden from people): when it is filled, the caller is told the
 *   message was sent and nothing is stored.
 * - Input is validated with the schema the browser uses; errors come back per field, in French.
 * - At most CONTACT_RATE_LIMITS messages per IP address and per e-mail address.
 * - The text is stored as typed (markup included); pages render it escaped.
 * - The institute's address is told of it by e-mail (queued in the same transaction).
 */
export async function sendContactMessage(
  db: Database,
  input: Record<string, unknown>,
  options: { ip: string; now?: Date },
): Promise<SendContactResult> {
  if (typeof input.website === "string" && input.website.trim() !== "") return { ok: true };

  const values = contactValuesFrom(input);
  const parsed = contactSchema.safeParse(input);
  if (!parsed.success) {
    const { fieldErrors } = z.flattenError(parsed.error);
    const firstErrors: ContactFieldErrors = {};
    for (const field of CONTACT_FIELDS) {
      const message = fieldErrors[field]?.[0];
      if (message) firstErrors[field] = message;
    }
    return { ok: false, reason: "invalid", fieldErrors: firstErrors, values };
  }
  const data = parsed.data;

  const limits = [
    await consumeRateLimit(db, `contact:ip:${options.ip}`, { ...CONTACT_RATE_LIMITS.perIp, now: options.now }),
    await consumeRateLimit(db, `contact:email:${data.email.toLowerCase()}`, { ...CONTACT_RATE_LIMITS.perEmail, now: options.now }),
  ];
  const refused = limits.filter((limit) => !limit.allowed);
  if (refused.length > 0) {
    const retryAfterSeconds = Math.max(...refused.map((limit) => limit.retryAfterSeconds));
    return { ok: false, reason: "rate-limited", message: rateLimitMessage(retryAfterSeconds), retryAfterSeconds, values };
  }

  await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(contactMessages)
      .values({
        name: data.name,
        email: data.email,
        phone: data.phone ?? null,
        subject: data.subject,
        message: data.message,
        interest: data.interest ?? null,
        ipAddress: options.ip,
        ...(options.now ? { createdAt: options.now } : {}),
      })
      .returning({ id: contactMessages.id });
    // The institute's address is told by e-mail (the "contact.mail" queue).
    await queueNewMessageNotice(tx, stored!.id, options.now);
  });
  return { ok: true };
}

export {
  CONTACT_MAIL_QUEUE,
  contactMailQueue,
  getInboxMessage,
  listInbox,
  parseInboxFilters,
  replyToMessage,
  sendContactMail,
  setMessageArchived,
  type ContactMailJob,
  type InboxFilters,
} from "./inbox";
export { canManageInbox } from "./policy";

/** The most recent messages first (tests). */
export async function listContactMessages(db: Database, options: { limit?: number } = {}) {
  return db.query.contactMessages.findMany({
    orderBy: (message, { desc }) => [desc(message.createdAt), desc(message.id)],
    limit: options.limit ?? 50,
  });
}
