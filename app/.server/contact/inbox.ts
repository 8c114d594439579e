import { and, count, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { inboxFilterWords, type ContactStatus, type InboxFilter } from "~/lib/contact-inbox";
import { formatDateTime } from "~/lib/dates";
import { LIMITS } from "~/lib/limits";
import { pageSchema, requiredText, searchQuerySchema, wordChoice } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import { recordAudit } from "../audit";
import type { Database } from "../db/client";
import { containsText } from "../db/like";
import { readPage } from "../db/paging";
import { contactMessages, contactReplies, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { enqueueJob } from "../jobs";
import { loadInstituteIdentity, renderActionMail, sendMail, type MailEnv } from "../mail";
import { assertCanManageInbox, inboxMessages } from "./policy";

/** The queue of the inbox's mails: the institute told of a new message, an answer to its sender. */
export const CONTACT_MAIL_QUEUE = "contact.mail";
export type ContactMailJob = { kind: "new"; messageId: number } | { kind: "reply"; replyId: number };

export const INBOX_PAGE_SIZE = 30;

export type InboxFilters = { status: InboxFilter; q: string; page: number };

const filtersSchema = z.object({ statut: wordChoice(inboxFilterWords, "ouverts"), q: searchQuerySchema, page: pageSchema });

/** The filters of the inbox's URL (?statut=, ?q=, ?page=); anything unreadable falls back to the default. */
export function parseInboxFilters(params: URLSearchParams): InboxFilters {
  const parsed = filtersSchema.parse(Object.fromEntries(params));
  return { status: parsed.statut, q: parsed.q, page: parsed.page };
}

function statusWhere(status: InboxFilter): SQL | undefined {
  if (status === "tous") return undefined;
  if (status === "ouverts") return ne(contactMessages.status, "archived");
  return eq(contactMessages.status, status);
}

/**
 * One page of messages, newest first, with the count per state (for the filter and the sidebar
 * figure). A page past the end (the last message of the last page archived) gives the last page.
 */
export async function listInbox(db: Database, actor: Actor, filters: InboxFilters) {
  assertCanManageInbox(actor);
  const where = and(
    statusWhere(filters.status),
    filters.q ? containsText(filters.q, contactMessages.name, contactMessages.email, contactMessages.subject) : undefined,
  );
  const [{ rows, total, page, pageCount }, perStatus] = await Promise.all([
    readPage({
      asked: filters.page,
      size: INBOX_PAGE_SIZE,
      count: () => db.select({ total: count() }).from(contactMessages).where(where),
      rows: (offset) =>
        db
          .select({
            id: contactMessages.id,
            name: contactMessages.name,
            email: contactMessages.email,
            subject: contactMessages.subject,
            excerpt: sql<string>`left(${contactMessages.message}, 160)`,
            status: contactMessages.status,
            createdAt: contactMessages.createdAt,
          })
          .from(contactMessages)
          .where(where)
          .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
          .limit(INBOX_PAGE_SIZE)
          .offset(offset),
    }),
    db.select({ status: contactMessages.status, value: count() }).from(contactMessages).groupBy(contactMessages.status),
  ]);
  const counts: Record<ContactStatus, number> = { new: 0, answered: 0, archived: 0 };
  for (const row of perStatus) counts[row.status] = row.value;
  return { messages: rows, total, page, pageCount, counts };
}

/** One message with its answers, oldest answer first. */
export async function getInboxMessage(db: Database, actor: Actor, id: number) {
  assertCanManageInbox(actor);
  const [message] = await db.select().from(contactMessages).where(eq(contactMessages.id, id));
  if (!message) throw AppError.notFound(inboxMessages.notFound);
  const replies = await db
    .select({
      id: contactReplies.id,
      body: contactReplies.body,
      sentAt: contactReplies.sentAt,
      createdAt: contactReplies.createdAt,
      author: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(contactReplies)
    .leftJoin(users, eq(users.id, contactReplies.authorId))
    .where(eq(contactReplies.messageId, id))
    .orderBy(contactReplies.createdAt, contactReplies.id);
  return { message, replies };
}

export const replySchema = z.object({
  body: requiredText({ label: "La réponse", max: LIMITS.longText }),
  /** Chosen when the form was shown: the same form sent twice is one answer. */
  token: z.string().trim().min(16, "Formulaire expiré : rechargez la page.").max(LIMITS.textId, "Formulaire expiré : rechargez la page."),
});

/**
 * Answers a message: the answer is kept, the message marked answered, the audit log told, and the
 * e-mail queued (sent once by the "contact.mail" queue), all in one transaction. The same form sent
 * again (same token) changes nothing and answers the first reply.
 */
export async function replyToMessage(db: Database, actor: Actor, messageId: number, input: unknown, now = new Date()) {
  assertCanManageInbox(actor);
  const data = validate(replySchema, input);
  return db.transaction(async (tx) => {
    const [message] = await tx
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId))
      .for("update");
    if (!message) throw AppError.notFound(inboxMessages.notFound);
    const [reply] = await tx
      .insert(contactReplies)
      .values({ messageId, authorId: actor.id, body: data.body, token: data.token, createdAt: now })
      .onConflictDoNothing({ target: contactReplies.token })
      .returning({ id: contactReplies.id });
    if (!reply) {
      const [first] = await tx
        .select({ id: contactReplies.id, messageId: contactReplies.messageId })
        .from(contactReplies)
        .where(eq(contactReplies.token, data.token));
      if (first?.messageId !== messageId) throw AppError.conflict("Formulaire expiré : rechargez la page.", "token_reused");
      return { replyId: first.id, created: false as const };
    }
    await tx.update(contactMessages).set({ status: "answered", answeredAt: now }).where(eq(contactMessages.id, messageId));
    await recordAudit(tx, { actorId: actor.id, action: "contact_replied", details: { messageId, replyId: reply.id }, createdAt: now });
    await enqueueJob(tx, CONTACT_MAIL_QUEUE, { kind: "reply", replyId: reply.id } satisfies ContactMailJob, {
      key: `contact.reply:${reply.id}`,
      now,
    });
    return { replyId: reply.id, created: true as const };
  });
}

/**
 * Archives a message, or brings it back (answered if it has an answer, new otherwise). Already in
 * that state: nothing changes, nothing is logged.
 */
export async function setMessageArchived(db: Database, actor: Actor, messageId: number, archived: boolean, now = new Date()) {
  assertCanManageInbox(actor);
  return db.transaction(async (tx) => {
    const [message] = await tx
      .select({ status: contactMessages.status, answeredAt: contactMessages.answeredAt })
      .from(contactMessages)
      .where(eq(contactMessages.id, messageId))
      .for("update");
    if (!message) throw AppError.notFound(inboxMessages.notFound);
    if ((message.status === "archived") === archived) return { changed: false as const };
    const status: ContactStatus = archived ? "archived" : message.answeredAt ? "answered" : "new";
    await tx.update(contactMessages).set({ status }).where(eq(contactMessages.id, messageId));
    await recordAudit(tx, {
      actorId: actor.id,
      action: archived ? "contact_archived" : "contact_restored",
      details: { messageId },
      createdAt: now,
    });
    return { changed: true as const, status };
  });
}

/** Asks for the institute to be told of a new message (called in the transaction that stores it). */
export async function queueNewMessageNotice(tx: Database, messageId: number, now = new Date()) {
  await enqueueJob(tx, CONTACT_MAIL_QUEUE, { kind: "new", messageId } satisfies ContactMailJob, { key: `contact.new:${messageId}`, now });
}

/**
 * The inbox's mails, run by the jobs service: the institute's address told of a new message (with
 * the visitor's address to answer to), or an answer sent to the visitor (once: `sent_at`).
 */
export async function sendContactMail(
  db: Database,
  services: { mailEnv: MailEnv; publicUrl: string },
  job: ContactMailJob,
  now = new Date(),
): Promise<"sent" | "skipped"> {
  const identity = await loadInstituteIdentity(db);
  const base = services.publicUrl.replace(/\/$/, "");
  if (job.kind === "new") {
    const [message] = await db.select().from(contactMessages).where(eq(contactMessages.id, job.messageId));
    if (!message) return "skipped";
    const mail = renderActionMail({
      to: identity.email,
      subject: `Nouveau message de contact : ${message.subject}`,
      greeting: "Bonjour,",
      paragraphs: [
        `${message.name} (${message.email}${message.phone ? `, ${message.phone}` : ""}) a écrit depuis le formulaire de contact le ${formatDateTime(message.createdAt)}.`,
        ...(message.interest ? [`Domaine d'intérêt : ${message.interest}`] : []),
        message.message,
      ],
      action: { label: "Répondre depuis le site", url: `${base}/admin/messages/${message.id}` },
      footnote: "Le visiteur attend une réponse sous 48 heures.",
      identity,
    });
    await sendMail(db, services.mailEnv, { ...mail, replyTo: message.email });
    return "sent";
  }
  const [reply] = await db
    .select({
      id: contactReplies.id,
      body: contactReplies.body,
      sentAt: contactReplies.sentAt,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      writtenAt: contactMessages.createdAt,
    })
    .from(contactReplies)
    .innerJoin(contactMessages, eq(contactMessages.id, contactReplies.messageId))
    .where(eq(contactReplies.id, job.replyId));
  if (!reply || reply.sentAt) return "skipped";
  const mail = renderActionMail({
    to: reply.email,
    subject: `Re : ${reply.subject} – ${identity.shortName}`,
    greeting: `Bonjour ${reply.name},`,
    paragraphs: reply.body
      .split(/\n{2,}/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean),
    action: { label: "Découvrir nos formations", url: `${base}/formations` },
    footnote: `Vous nous aviez écrit le ${formatDateTime(reply.writtenAt)} (« ${reply.subject} »). Pour nous répondre, répondez simplement à ce message.`,
    identity,
  });
  await sendMail(db, services.mailEnv, { ...mail, replyTo: identity.email });
  await db
    .update(contactReplies)
    .set({ sentAt: now })
    .where(and(eq(contactReplies.id, reply.id), sql`${contactReplies.sentAt} is null`));
  return "sent";
}

/** The jobs service's definition of the inbox's queue (app/.server/http/app.ts). */
export function contactMailQueue(services: { db: Database; mailEnv: MailEnv; publicUrl: string }) {
  return {
    queue: CONTACT_MAIL_QUEUE,
    run: (payload: ContactMailJob, { now }: { now: () => Date }) =>
      sendContactMail(services.db, { mailEnv: services.mailEnv, publicUrl: services.publicUrl }, payload, now()),
  };
}
