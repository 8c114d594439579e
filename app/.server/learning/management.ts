import { and, asc, count, desc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import { LIMITS } from "~/lib/limits";
import { emailSchema, requiredText } from "~/lib/schemas";
import type { Actor } from "../auth/actor";
import { recordAudit } from "../audit";
import type { Database } from "../db/client";
import { readPage } from "../db/paging";
import { courses, enrolments, users } from "../db/schema";
import { AppError, validate } from "../errors";
import { notifyUser } from "../notifications";
import { activateEnrolment, cancelEnrolment, recomputeProgress } from "./enrolments";
import { canManageEnrolments } from "./policy";

/**
 * The administrators' management of a course's enrolments: by hand, pause, resume, cancel. The
 * learner is told of each change (a notification, and its e-mail through the outbox).
 */

export const enrolmentAdminMessages = {
  forbidden: "La gestion des inscriptions est réservée aux administrateurs.",
  courseNotFound: "Formation introuvable.",
  enrolmentNotFound: "Inscription introuvable.",
  learnerNotFound: "Aucun compte n'a cette adresse e-mail.",
} as const;

function assertCanManageEnrolments(actor: Actor | null | undefined): asserts actor is Actor {
  if (!canManageEnrolments(actor)) throw AppError.forbidden(enrolmentAdminMessages.forbidden, "not_admin");
}

/** The courses an administrator can pick (every course but archived ones), by title. */
export async function listCoursesForEnrolments(db: Database, actor: Actor) {
  assertCanManageEnrolments(actor);
  return db
    .select({ id: courses.id, title: courses.title })
    .from(courses)
    .where(ne(courses.status, "archived"))
    .orderBy(asc(courses.title));
}

export const ENROLMENTS_PAGE_SIZE = 50;

/** A course's enrolments, newest first, with the learner's name and address, by pages of 50 (a page past the last: the last). */
export async function listCourseEnrolments(db: Database, actor: Actor, courseId: number, page = 1) {
  assertCanManageEnrolments(actor);
  // The course and the page at once.
  const [[course], list] = await Promise.all([
    db.select({ id: courses.id, title: courses.title }).from(courses).where(eq(courses.id, courseId)),
    readPage({
      asked: page,
      size: ENROLMENTS_PAGE_SIZE,
      count: () => db.select({ total: count() }).from(enrolments).where(eq(enrolments.courseId, courseId)),
      rows: (offset) =>
        db
          .select({
            id: enrolments.id,
            status: enrolments.status,
            progress: enrolments.progress,
            enrolledAt: enrolments.enrolledAt,
            firstName: users.firstName,
            lastName: users.lastName,
            email: users.email,
          })
          .from(enrolments)
          .innerJoin(users, eq(users.id, enrolments.userId))
          .where(eq(enrolments.courseId, courseId))
          .orderBy(desc(enrolments.enrolledAt), desc(enrolments.id))
          .limit(ENROLMENTS_PAGE_SIZE)
          .offset(offset),
    }),
  ]);
  if (!course) throw AppError.notFound(enrolmentAdminMessages.courseNotFound);
  return { course, enrolments: list.rows, total: list.total, page: list.page, pageCount: list.pageCount };
}

export const GRANT_KINDS = ["free_place", "scholarship"] as const;

export const manualEnrolmentSchema = z.object({
  email: emailSchema,
  kind: z.enum(GRANT_KINDS, { error: "Choisissez place gratuite ou bourse." }),
  reason: requiredText({ label: "Le motif", max: LIMITS.shortText }),
});

/**
 * Enrols a learner by hand (a free place or a scholarship, with a reason): the course opens at
 * once, whatever its price, within its maximum of students. One enrolment per learner and course:
 * enrolling again someone who follows it changes nothing ("already"); a cancelled or unpaid
 * enrolment is opened. Logged in the audit log.
 */
export async function enrolByHand(db: Database, actor: Actor, courseId: number, input: unknown, now = new Date()) {
  assertCanManageEnrolments(actor);
  const data = validate(manualEnrolmentSchema, input);
  return db.transaction(async (tx) => {
    const [course] = await tx
      .select({ id: courses.id, title: courses.title, maxStudents: courses.maxStudents })
      .from(courses)
      .where(eq(courses.id, courseId))
      .for("update");
    if (!course) throw AppError.notFound(enrolmentAdminMessages.courseNotFound);
    const [learner] = await tx.select({ id: users.id }).from(users).where(eq(users.email, data.email));
    if (!learner) throw AppError.invalid({ email: enrolmentAdminMessages.learnerNotFound });

    const [existing] = await tx
      .select()
      .from(enrolments)
      .where(and(eq(enrolments.userId, learner.id), eq(enrolments.courseId, courseId)))
      .for("update");
    if (existing && existing.status !== "cancelled" && existing.status !== "pending_payment") {
      return { kind: "already" as const, enrolmentId: existing.id };
    }
    if (course.maxStudents !== null) {
      const taken = await tx
        .select({ id: enrolments.id })
        .from(enrolments)
        .where(
          and(
            eq(enrolments.courseId, courseId),
            inArray(enrolments.status, ["pending_payment", "active", "completed", "paused"]),
            ne(enrolments.userId, learner.id),
          ),
        );
      if (taken.length >= course.maxStudents)
        throw AppError.conflict("Cette formation est complète : toutes les places sont prises.", "full");
    }
    let enrolmentId = existing?.id;
    if (!enrolmentId) {
      const [created] = await tx
        .insert(enrolments)
        .values({ userId: learner.id, courseId, status: "pending_payment", enrolledAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [enrolments.userId, enrolments.courseId], set: { updatedAt: now } })
        .returning({ id: enrolments.id });
      enrolmentId = created!.id;
    }
    await activateEnrolment(tx, enrolmentId, now);
    await recordAudit(tx, {
      actorId: actor.id,
      action: "enrolment_granted",
      targetUserId: learner.id,
      details: { courseId, enrolmentId, kind: data.kind, reason: data.reason },
      createdAt: now,
    });
    await tellLearner(tx, learner.id, enrolmentId, "enrol", course.title, now);
    return { kind: "enrolled" as const, enrolmentId };
  });
}

export const ENROLMENT_ACTIONS = ["pause", "resume", "cancel"] as const;
export type EnrolmentAction = (typeof ENROLMENT_ACTIONS)[number];

/**
 * Pauses an active enrolment (the lessons close, the seat is kept), resumes a paused one, or
 * cancels one (the seat is freed, progress kept). An enrolment not in a state the action applies
 * to is a conflict; each change is logged in the audit log.
 */
export async function changeEnrolment(db: Database, actor: Actor, enrolmentId: number, action: EnrolmentAction, now = new Date()) {
  assertCanManageEnrolments(actor);
  return db.transaction(async (tx) => {
    const [enrolment] = await tx.select().from(enrolments).where(eq(enrolments.id, enrolmentId)).for("update");
    if (!enrolment) throw AppError.notFound(enrolmentAdminMessages.enrolmentNotFound);
    const from = enrolment.status;
    if (action === "pause") {
      if (from !== "active" && from !== "completed")
        throw AppError.conflict("Seule une inscription en cours peut être suspendue.", "not_active");
      await tx.update(enrolments).set({ status: "paused", updatedAt: now }).where(eq(enrolments.id, enrolmentId));
    } else if (action === "resume") {
      if (from !== "paused") throw AppError.conflict("Seule une inscription suspendue peut reprendre.", "not_paused");
      await tx.update(enrolments).set({ status: "active", updatedAt: now }).where(eq(enrolments.id, enrolmentId));
      // Every lesson done meanwhile (or before the pause): completed again.
      await recomputeProgress(tx, enrolmentId, now);
    } else {
      if (from === "cancelled") throw AppError.conflict("Cette inscription est déjà annulée.", "cancelled");
      await cancelEnrolment(tx, enrolmentId, now);
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: `enrolment_${action === "pause" ? "paused" : action === "resume" ? "resumed" : "cancelled"}`,
      targetUserId: enrolment.userId,
      details: { courseId: enrolment.courseId, enrolmentId, from },
      createdAt: now,
    });
    const [course] = await tx.select({ title: courses.title }).from(courses).where(eq(courses.id, enrolment.courseId));
    await tellLearner(tx, enrolment.userId, enrolmentId, action, course!.title, now);
    return { courseId: enrolment.courseId };
  });
}

const changeNotices: Record<EnrolmentAction | "enrol", { title: string; body: (course: string) => string }> = {
  enrol: {
    title: "Inscription ouverte",
    body: (course) => `L'institut vous a ouvert la formation « ${course} » : ses leçons vous attendent.`,
  },
  pause: {
    title: "Inscription suspendue",
    body: (course) =>
      `Votre inscription à « ${course} » est suspendue par l'institut : ses leçons sont fermées jusqu'à sa reprise. Votre progression est gardée.`,
  },
  resume: {
    title: "Inscription reprise",
    body: (course) => `Votre inscription à « ${course} » a repris : ses leçons vous sont de nouveau ouvertes.`,
  },
  cancel: {
    title: "Inscription annulée",
    body: (course) => `Votre inscription à « ${course} » a été annulée par l'institut. Votre progression est gardée.`,
  },
};

/** Tells the learner of an administrator's change to their enrolment (in its transaction: only if it commits). */
async function tellLearner(
  db: Database,
  userId: string,
  enrolmentId: number,
  change: EnrolmentAction | "enrol",
  courseTitle: string,
  now: Date,
) {
  const notice = changeNotices[change];
  await notifyUser(db, {
    userId,
    kind: "enrolment_changed",
    title: notice.title,
    body: notice.body(courseTitle),
    link: "/dashboard/formations",
    key: `enrolment:${enrolmentId}:${change}:${now.getTime()}`,
    now,
  });
}
