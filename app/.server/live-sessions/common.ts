import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { fromDateTimeLocal } from "~/lib/dates";
import { sessionDurations, sessionRooms } from "~/lib/live-sessions";
import { LIMITS, optionalText, requiredChoice, requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, enrolments, liveSessions } from "../db/schema";
import { AppError } from "../errors";
import { followingEnrolment, followsCourse } from "../learning";
import { canManageSessions } from "./policy";
import { bigBlueButtonFrom, newMeetingId, type BigBlueButton } from "./providers";

/** What the verbs of live sessions share: the form, the rooms, finding a session and its followers. */

/** What this process knows of the room providers (BigBlueButton when configured). */
export interface LiveRooms {
  bigBlueButton: BigBlueButton | null;
  publicUrl: string;
}

export type LiveSession = typeof liveSessions.$inferSelect;

/** The rooms of this configuration (routes build it from the environment). */
export function liveRoomsFrom(env: { BBB_URL?: string; BBB_SECRET?: string; PUBLIC_URL: string }): LiveRooms {
  return { bigBlueButton: bigBlueButtonFrom(env), publicUrl: env.PUBLIC_URL };
}

const urlMessage = "Saisissez un lien valide (http:// ou https://).";
const optionalUrl = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .max(2000, urlMessage)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
      } catch {
        return false;
      }
    }, urlMessage)
    .optional(),
);

export const sessionFormSchema = z.object({
  courseId: requiredChoice("Choisissez un cours."),
  title: requiredText({ label: "Le titre", max: LIMITS.title }),
  description: optionalText({ label: "La description", max: LIMITS.longText }),
  startsAt: z
    .string({ error: "Indiquez la date et l'heure de début." })
    .trim()
    .min(1, "Indiquez la date et l'heure de début.")
    .transform((value, ctx) => {
      const date = fromDateTimeLocal(value);
      if (!date) {
        ctx.addIssue({ code: "custom", message: "Saisissez une date et une heure valides." });
        return z.NEVER;
      }
      return date;
    }),
  durationMinutes: z.coerce
    .number({ error: "Choisissez une durée." })
    .int("Choisissez une durée.")
    .refine((value) => (sessionDurations as readonly number[]).includes(value), "Choisissez une durée de la liste."),
  room: z.enum(sessionRooms, { error: "Choisissez la salle." }).default("link"),
  joinUrl: optionalUrl,
  recordingUrl: optionalUrl,
});
export type SessionFormInput = z.input<typeof sessionFormSchema>;

export const notFound = () => AppError.notFound("Session introuvable.");

export async function courseFor(db: Database, courseId: number) {
  const [course] = await db
    .select({ id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId, status: courses.status })
    .from(courses)
    .where(eq(courses.id, courseId));
  return course ?? null;
}

/** The session and its course, if the actor manages the course; "not found" otherwise. */
export async function managedSession(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({
      session: liveSessions,
      course: { id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId },
    })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(eq(liveSessions.id, id));
  if (!row || !canManageSessions(actor, row.course)) throw notFound();
  return row;
}

/** The learners following a course (active or completed): who is told of its sessions. */
export async function followersOf(db: Database, courseId: number): Promise<string[]> {
  const rows = await db
    .select({ userId: enrolments.userId })
    .from(enrolments)
    .where(and(eq(enrolments.courseId, courseId), followingEnrolment()));
  return rows.map((row) => row.userId);
}

export function roomFields(data: z.output<typeof sessionFormSchema>, rooms: LiveRooms, existing?: LiveSession) {
  if (data.room === "bigbluebutton") {
    if (!rooms.bigBlueButton) {
      throw AppError.invalid({ room: "Les salles BigBlueButton ne sont pas configurées : collez le lien de votre salle." });
    }
    return { provider: "bigbluebutton" as const, joinUrl: null, meetingId: existing?.meetingId ?? newMeetingId() };
  }
  if (!data.joinUrl) throw AppError.invalid({ joinUrl: "Collez le lien de la salle (Zoom, Google Meet, Jitsi…)." });
  return { provider: "link" as const, joinUrl: data.joinUrl, meetingId: null };
}

export const sessionLink = "/dashboard/sessions";

/** The session, its course, and whether the actor follows the course, if they may see it at all. */
export async function visibleSession(db: Database, actor: Actor, id: number) {
  const [row] = await db
    .select({
      session: liveSessions,
      course: { id: courses.id, title: courses.title, slug: courses.slug, instructorId: courses.instructorId },
    })
    .from(liveSessions)
    .innerJoin(courses, eq(courses.id, liveSessions.courseId))
    .where(eq(liveSessions.id, id));
  if (!row) throw notFound();
  const follows = await followsCourse(db, actor, row.course.id);
  if (!follows && !canManageSessions(actor, row.course)) throw notFound();
  return { ...row, follows };
}
