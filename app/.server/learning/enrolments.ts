import { and, count, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { courseLearnerCounts, courses, enrolments, lessonProgress, lessons } from "../db/schema";
import { followingEnrolment } from "./policy";

export type Enrolment = typeof enrolments.$inferSelect;
export type EnrolmentStatus = Enrolment["status"];

/** Statuses that hold a seat of a course with a maximum number of students. */
const SEAT_HOLDING: EnrolmentStatus[] = ["pending_payment", "active", "completed", "paused"];

export async function getEnrolment(db: Database, userId: string, courseId: number): Promise<Enrolment | null> {
  const [row] = await db
    .select()
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)));
  return row ?? null;
}

/** Whether the actor follows the course (an active or completed enrolment): lessons and their files open. */
export async function followsCourse(db: Database, actor: Actor | null, courseId: number): Promise<boolean> {
  if (!actor) return false;
  const [row] = await db
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(eq(enrolments.userId, actor.id), eq(enrolments.courseId, courseId), followingEnrolment()));
  return Boolean(row);
}

/** Seats taken on a course, by everyone but `exceptUserId`. */
async function seatsTaken(tx: Database, courseId: number, exceptUserId: string): Promise<number> {
  const [row] = await tx
    .select({ taken: count() })
    .from(enrolments)
    .where(and(eq(enrolments.courseId, courseId), inArray(enrolments.status, SEAT_HOLDING), ne(enrolments.userId, exceptUserId)));
  return Number(row?.taken ?? 0);
}

/** Seats left on a course with a maximum (null: no limit). */
export async function seatsLeft(db: Database, course: { id: number; maxStudents: number | null }): Promise<number | null> {
  if (course.maxStudents === null) return null;
  return Math.max(0, course.maxStudents - (await seatsTaken(db, course.id, "")));
}

export type EnrolmentStart =
  | { kind: "enrolled"; enrolment: Enrolment }
  | { kind: "payment_needed"; enrolment: Enrolment; amount: number }
  | { kind: "already"; enrolment: Enrolment };

/**
 * "S'inscrire": one enrolment per learner and course, whatever is clicked twice. A free course
 * opens at once; a paid one waits for its payment (pending_payment). A course not open is "not
 * found"; one at its maximum a conflict (reason "full"). Runs in the caller's transaction when
 * given one, with the course row locked, so two last seats are never sold twice.
 */
export async function startEnrolment(tx: Database, actor: Actor, courseId: number, now = new Date()): Promise<EnrolmentStart> {
  const [course] = await tx
    .select({ id: courses.id, status: courses.status, priceFcfa: courses.priceFcfa, maxStudents: courses.maxStudents })
    .from(courses)
    .where(eq(courses.id, courseId))
    .for("update");
  if (!course || course.status !== "published") throw AppError.notFound("Cette formation n'est pas ouverte aux inscriptions.");

  const existing = await getEnrolment(tx, actor.id, courseId);
  if (existing && existing.status !== "cancelled") {
    return existing.status === "pending_payment"
      ? { kind: "payment_needed", enrolment: existing, amount: course.priceFcfa }
      : { kind: "already", enrolment: existing };
  }
  if (course.maxStudents !== null && (await seatsTaken(tx, courseId, actor.id)) >= course.maxStudents) {
    throw AppError.conflict("Cette formation est complète : toutes les places sont prises.", "full");
  }

  const free = course.priceFcfa === 0;
  const values = {
    status: free ? ("active" as const) : ("pending_payment" as const),
    enrolledAt: now,
    activatedAt: free ? now : null,
    completedAt: null,
    updatedAt: now,
  };
  const [enrolment] = existing
    ? await tx.update(enrolments).set(values).where(eq(enrolments.id, existing.id)).returning()
    : await tx
        .insert(enrolments)
        .values({ userId: actor.id, courseId, ...values })
        // A second click racing the first: the unique index keeps one row.
        .onConflictDoUpdate({ target: [enrolments.userId, enrolments.courseId], set: { updatedAt: now } })
        .returning();
  if (free) {
    await countLearner(tx, courseId, 1);
    await recomputeProgress(tx, enrolment!.id, now);
    return { kind: "enrolled", enrolment: enrolment! };
  }
  return { kind: "payment_needed", enrolment: enrolment!, amount: course.priceFcfa };
}

/** The course's learners follow an enrolment opened (+1) or closed (-1), in the same transaction. */
async function countLearner(tx: Database, courseId: number, delta: 1 | -1) {
  await tx
    .insert(courseLearnerCounts)
    .values({ courseId, learners: Math.max(delta, 0) })
    .onConflictDoUpdate({
      target: courseLearnerCounts.courseId,
      set: { learners: sql`greatest(${courseLearnerCounts.learners} + ${delta}, 0)` },
    });
}

/** A completed payment opens the course (once: a second payment changes nothing here). */
export async function activateEnrolment(tx: Database, enrolmentId: number, now = new Date()): Promise<Enrolment> {
  const [opened] = await tx
    .update(enrolments)
    .set({ status: "active", activatedAt: now, updatedAt: now })
    .where(and(eq(enrolments.id, enrolmentId), inArray(enrolments.status, ["pending_payment", "cancelled"])))
    .returning();
  if (opened) {
    await countLearner(tx, opened.courseId, 1);
    // Lessons done before a refund count again.
    return (await recomputeProgress(tx, opened.id, now)) ?? opened;
  }
  const [row] = await tx.select().from(enrolments).where(eq(enrolments.id, enrolmentId));
  return row!;
}

/** A refund or an abandoned payment closes the enrolment; the seat is freed. Progress is kept. */
export async function cancelEnrolment(tx: Database, enrolmentId: number, now = new Date()): Promise<void> {
  const [before] = await tx
    .select({ status: enrolments.status, courseId: enrolments.courseId })
    .from(enrolments)
    .where(eq(enrolments.id, enrolmentId))
    .for("update");
  if (!before || before.status === "cancelled") return;
  await tx.update(enrolments).set({ status: "cancelled", updatedAt: now }).where(eq(enrolments.id, enrolmentId));
  if (before.status !== "pending_payment") await countLearner(tx, before.courseId, -1);
}

/**
 * A deleted account's enrolments all close, each freeing its seat as a refund would; the rows stay
 * (payments point at them) with their progress, which no longer names anyone.
 */
export async function closeEnrolmentsOf(tx: Database, userId: string, now: Date): Promise<number> {
  const open = await tx
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), ne(enrolments.status, "cancelled")));
  for (const row of open) await cancelEnrolment(tx, row.id, now);
  return open.length;
}

/**
 * The enrolment's progress from its lessons: the share of the course's lessons completed. An
 * active enrolment with every lesson done becomes completed (and back to active if lessons are
 * added later).
 */
export async function recomputeProgress(tx: Database, enrolmentId: number, now = new Date()): Promise<Enrolment | null> {
  const [row] = await tx.select().from(enrolments).where(eq(enrolments.id, enrolmentId));
  if (!row) return null;
  const [totals] = await tx
    .select({
      total: count(),
      done: count(sql`case when ${lessonProgress.completedAt} is not null then 1 end`),
    })
    .from(lessons)
    .leftJoin(lessonProgress, and(eq(lessonProgress.lessonId, lessons.id), eq(lessonProgress.enrolmentId, enrolmentId)))
    .where(eq(lessons.courseId, row.courseId));
  const total = Number(totals?.total ?? 0);
  const done = Number(totals?.done ?? 0);
  const progress = total === 0 ? 0 : Math.round((done / total) * 100);
  let status = row.status;
  let completedAt = row.completedAt;
  if (status === "active" && total > 0 && done === total) {
    status = "completed";
    completedAt = now;
  } else if (status === "completed" && done < total) {
    status = "active";
    completedAt = null;
  }
  if (progress === row.progress && status === row.status) return row;
  const [updated] = await tx
    .update(enrolments)
    .set({ progress, status, completedAt, updatedAt: now })
    .where(eq(enrolments.id, enrolmentId))
    .returning();
  return updated ?? null;
}

/** After a course's lessons change (added, removed), every learner's progress follows. */
export async function recomputeCourseProgress(tx: Database, courseId: number, now = new Date()): Promise<void> {
  const rows = await tx
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(eq(enrolments.courseId, courseId), isNotNull(enrolments.activatedAt)));
  for (const row of rows) await recomputeProgress(tx, row.id, now);
}
