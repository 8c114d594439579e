import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { MAX_SERIAL_ID } from "~/lib/limits";
import { MESSAGE_MAX_LENGTH } from "~/lib/messaging";
import { isRole, type Role } from "~/lib/roles";
import { requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { conversations, courses, users } from "../db/schema";
import { AppError } from "../errors";
import { consumeRateLimit, formatRetryAfter } from "../rate-limit";
import { groupCoursesWhere, readableConversationsWhere } from "./policy";

/** What reading and writing share: people, the message form, the rate limit, readable conversations. */

/** Sending is limited per person: messages per minute. */
export const MESSAGE_RATE_LIMIT = { limit: 30, windowSeconds: 60 };

export type Person = { id: string; name: string; role: Role };

export const personName = sql<string>`trim(${users.firstName} || ' ' || ${users.lastName})`;

export function personOf(row: { id: string; name: string | null; role: string | null }): Person {
  return { id: row.id, name: row.name || "Membre", role: isRole(row.role) ? row.role : "user" };
}

export const messageInput = z.object({
  body: requiredText({ label: "Le message", max: MESSAGE_MAX_LENGTH }),
  /** Given by the form: sending it twice (double click, replay after a dropped connection) makes one message. */
  clientKey: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9_-]*$/)
    .optional()
    .transform((value) => value || null),
});

export async function limitSending(db: Database, actor: Actor, now: Date) {
  const result = await consumeRateLimit(db, `messages:${actor.id}`, { ...MESSAGE_RATE_LIMIT, now });
  if (!result.allowed) {
    throw AppError.rateLimited(`Vous envoyez beaucoup de messages : réessayez dans ${formatRetryAfter(result.retryAfterSeconds)}.`);
  }
}

/**
 * Course groups exist once their course has members: made here, the first time one of them looks
 * (two at once: the unique course id keeps one).
 */
export async function ensureGroups(db: Database, actor: Actor) {
  await db.execute(sql`insert into ${conversations} (kind, course_id)
    select 'course', ${courses.id} from ${courses}
    where ${groupCoursesWhere(actor)} and not exists (select 1 from ${conversations} where ${conversations.courseId} = ${courses.id})
    on conflict do nothing`);
}

export async function findReadable(db: Database, actor: Actor, conversationId: number) {
  if (!Number.isInteger(conversationId) || conversationId < 1 || conversationId > MAX_SERIAL_ID) return null;
  const [row] = await db
    .select({ id: conversations.id, kind: conversations.kind, courseId: conversations.courseId, courseTitle: courses.title })
    .from(conversations)
    .leftJoin(courses, eq(courses.id, conversations.courseId))
    .where(and(eq(conversations.id, conversationId), readableConversationsWhere(actor)));
  return row ?? null;
}
