import { desc, eq } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import type { Database } from "../db/client";
import { institute, mailOutbox } from "../db/schema";
import type { InstituteIdentity, MailMessage } from "./message";

export type { InstituteIdentity, MailAttachment, MailMessage } from "./message";

/** What sendMail needs from the environment (the app's Env satisfies it). */
export interface MailEnv {
  SMTP_URL?: string;
  MAIL_FROM?: string;
  LOG_LEVEL?: string;
}

export interface SentMail {
  via: "smtp" | "outbox";
  outboxId?: number;
}

const transporters = new Map<string, Transporter>();

// nodemailer is loaded on the first mail sent over SMTP (decision 0012: a process carries only what it uses).
async function transporterFor(url: string): Promise<Transporter> {
  let transporter = transporters.get(url);
  if (!transporter) {
    const { default: nodemailer } = await import("nodemailer");
    transporter = nodemailer.createTransport(url);
    transporters.set(url, transporter);
  }
  return transporter;
}

/** The institute's name and address for mail headers and templates (a safe default before seeding). */
export async function loadInstituteIdentity(db: Database): Promise<InstituteIdentity> {
  const [row] = await db
    .select({ name: institute.name, shortName: institute.shortName, email: institute.email })
    .from(institute)
    .where(eq(institute.id, 1))
    .limit(1);
  return row ?? { name: "Campus", shortName: "Campus", email: "no-reply@localhost" };
}

/** Every http(s) link of a text, for the outbox log line. */
export function extractLinks(text: string): string[] {
  // A link that ends a sentence keeps its address without the sentence's full stop.
  return [...new Set((text.match(/https?:\/\/[^\s<>"')]+/g) ?? []).map((link) => link.replace(/[.,;:!?]+$/, "")))];
}

/**
 * Sends a mail over SMTP when SMTP_URL is set; otherwise keeps it in the `mail_outbox` table and
 * prints its subject and links in the server log, so sign-up and recovery work on a laptop.
 */
export async function sendMail(db: Database, env: MailEnv, message: MailMessage): Promise<SentMail> {
  if (env.SMTP_URL) {
    const identity = await loadInstituteIdentity(db);
    const from = env.MAIL_FROM ?? `"${identity.name.replace(/"/g, "'")}" <${identity.email}>`;
    await (await transporterFor(env.SMTP_URL)).sendMail({ from, ...message });
    return { via: "smtp" };
  }
  const { attachments = [], replyTo, headers = {}, ...rest } = message;
  const [row] = await db
    .insert(mailOutbox)
    .values({
      ...rest,
      headers: replyTo ? { ...headers, "Reply-To": replyTo } : headers,
      attachments: attachments.map(({ filename, contentType, content }) => ({ filename, contentType, size: content.length })),
    })
    .returning({ id: mailOutbox.id });
  if (env.LOG_LEVEL !== "silent" && process.env.NODE_ENV !== "test") {
    const links = extractLinks(message.text);
    console.log(
      `[mail] (pas de SMTP_URL : gardé dans mail_outbox #${row?.id}) à ${message.to} : ${message.subject}` +
        (links.length ? `\n${links.map((link) => `  ${link}`).join("\n")}` : ""),
    );
  }
  return { via: "outbox", outboxId: row?.id };
}

/** The latest outbox mails sent to `to` (tests and the development log). */
export async function listOutbox(db: Database, to?: string, limit = 20) {
  const query = db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
  return to ? query.where(eq(mailOutbox.to, to.toLowerCase())) : query;
}

export * from "./templates";
