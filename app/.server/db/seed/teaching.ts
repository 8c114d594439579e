import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { followingEnrolment } from "../../learning";
import { newPaymentReference } from "../../payments/reference";
import type { Database } from "../client";
import {
  courses,
  enrolments,
  lessons,
  liveSessionAttendance,
  liveSessionRegistrations,
  liveSessions,
  payments,
  teacherProfiles,
  users,
} from "../schema";
import { countCourseLearners, recordLessonsDone } from "./learning";

/**
 * A trial's teaching data (never in a deployment): the demo teacher teaches three seeded courses,
 * demo learners follow them at various stages (just enrolled, halfway, finished, waiting for their
 * payment), and the courses have live sessions coming, past (with attendance) and cancelled, so
 * that every teacher screen shows something real on first start. The learners paid by mobile money
 * when they enrolled, from a week to three months back: the demo teacher has commissions of
 * finished months for the administrator to pay, and the admin's last 30 days show revenue. Runs
 * once: it does nothing when the demo teacher already has a session.
 */

const TEACHER_EMAIL = "enseignant@campus.test";
const COURSE_SLUGS = ["intelligence-artificielle", "cybersecurite", "developpement-web"];

const learners = [
  { email: "moussa.diallo@campus.test", firstName: "Moussa", lastName: "Diallo" },
  { email: "kadiatou.sangare@campus.test", firstName: "Kadiatou", lastName: "Sangaré" },
  { email: "oumar.toure@campus.test", firstName: "Oumar", lastName: "Touré" },
  { email: "mariam.kone@campus.test", firstName: "Mariam", lastName: "Koné" },
];

/** Per learner, per course (by index): [share of lessons done, status, days since enrolment]. */
const plan: Array<Array<[number, "active" | "completed" | "pending_payment", number] | null>> = [
  [[1, "completed", 80], [0.5, "active", 20], null],
  [[0.4, "active", 35], null, [0.2, "active", 9]],
  [[0, "active", 8], [1, "completed", 60], null],
  [null, [0, "pending_payment", 1], [0.6, "active", 12]],
];

export async function seedDemoTeaching(db: Database, now = new Date()): Promise<void> {
  const [teacher] = await db.select({ id: users.id }).from(users).where(eq(users.email, TEACHER_EMAIL));
  if (!teacher) return;
  const [already] = await db.select({ id: liveSessions.id }).from(liveSessions).where(eq(liveSessions.createdBy, teacher.id)).limit(1);
  if (already) return;
  const day = 24 * 60 * 60 * 1000;
  const at = (days: number, hour = 18) => {
    const date = new Date(now.getTime() + days * day);
    // 18:00 in Bamako (UTC all year).
    date.setUTCHours(hour, 0, 0, 0);
    return date;
  };
  await db.transaction(async (tx) => {
    // The courses nobody teaches yet become the demo teacher's.
    await tx
      .update(courses)
      .set({ instructorId: teacher.id })
      .where(and(inArray(courses.slug, COURSE_SLUGS), isNull(courses.instructorId)));
    const taught = await tx
      .select({ id: courses.id, slug: courses.slug, title: courses.title, priceFcfa: courses.priceFcfa })
      .from(courses)
      .where(and(inArray(courses.slug, COURSE_SLUGS), eq(courses.instructorId, teacher.id)));
    const ordered = COURSE_SLUGS.map((slug) => taught.find((course) => course.slug === slug)).filter((course) => course !== undefined);
    if (!ordered.length) return;

    await tx
      .insert(teacherProfiles)
      .values({
        userId: teacher.id,
        bio: "Ingénieur informaticien, formateur depuis dix ans en intelligence artificielle, cybersécurité et développement web. J'accompagne les apprenants du premier cours au projet final.",
        payoutMethod: "mobile_money",
        mobileMoneyOperator: "orange_money",
        mobileMoneyNumber: "+22376000001",
        updatedAt: now,
      })
      .onConflictDoNothing();

    const learnerIds: string[] = [];
    for (const learner of learners) {
      const [row] = await tx
        .insert(users)
        .values({
          id: randomBytes(24).toString("base64url").slice(0, 32),
          name: `${learner.firstName} ${learner.lastName}`,
          email: learner.email,
          emailVerified: true,
          firstName: learner.firstName,
          lastName: learner.lastName,
          role: "user",
          createdAt: new Date(now.getTime() - 90 * day),
          updatedAt: now,
        })
        .onConflictDoUpdate({ target: users.email, set: { updatedAt: sql`${users.updatedAt}` } })
        .returning({ id: users.id });
      learnerIds.push(row!.id);
    }

    for (const [courseIndex, course] of ordered.entries()) {
      const courseLessons = await tx
        .select({ id: lessons.id })
        .from(lessons)
        .where(eq(lessons.courseId, course.id))
        .orderBy(asc(lessons.position));
      let opened = 0;
      for (const [learnerIndex, learnerId] of learnerIds.entries()) {
        const stage = plan[learnerIndex]?.[courseIndex];
        if (!stage) continue;
        const [share, status, daysAgo] = stage;
        const done = courseLessons.slice(0, Math.round(courseLessons.length * share));
        const enrolledAt = new Date(now.getTime() - daysAgo * day);
        const doneAt = (index: number) => new Date(enrolledAt.getTime() + (index + 1) * ((daysAgo * day) / (done.length + 1)));
        // A finished course was finished with its last lesson.
        const completedAt = status !== "completed" ? null : done.length ? doneAt(done.length - 1) : enrolledAt;
        const [enrolment] = await tx
          .insert(enrolments)
          .values({
            userId: learnerId,
            courseId: course.id,
            status,
            progress: courseLessons.length ? Math.round((done.length / courseLessons.length) * 100) : 0,
            lastLessonId: done.at(-1)?.id ?? null,
            enrolledAt,
            activatedAt: status === "pending_payment" ? null : enrolledAt,
            completedAt,
            // Last changed by its last step, not today: the teacher's list says when each learner was last active.
            updatedAt: completedAt ?? (done.length ? doneAt(done.length - 1) : enrolledAt),
          })
          .onConflictDoNothing()
          .returning({ id: enrolments.id });
        if (!enrolment) continue;
        if (status !== "pending_payment") opened += 1;
        // A learner follows a paid course once paid, as the payments capability leaves it. All are
        // older than a week: the figures of the last 7 days stay those of the trial's own payments.
        if (status !== "pending_payment" && course.priceFcfa > 0) {
          await tx.insert(payments).values({
            reference: newPaymentReference(),
            enrolmentId: enrolment.id,
            userId: learnerId,
            courseId: course.id,
            amount: course.priceFcfa,
            method: "mobile_money",
            provider: "sandbox",
            status: "completed",
            createdAt: enrolledAt,
            completedAt: enrolledAt,
          });
        }
        await recordLessonsDone(tx, enrolment.id, done, doneAt);
      }
      if (opened) await countCourseLearners(tx, course.id, opened);

      // A session coming, one past (attended), and for the first course a cancelled one.
      const sessions = await tx
        .insert(liveSessions)
        .values([
          {
            courseId: course.id,
            createdBy: teacher.id,
            title: `Questions-réponses : ${course.title}`,
            description: "Venez avec vos questions sur les leçons de la semaine.",
            startsAt: at(2 + courseIndex),
            durationMinutes: 60,
            provider: "link" as const,
            joinUrl: "https://meet.jit.si/campus-demo-questions",
            createdAt: now,
            updatedAt: now,
          },
          {
            courseId: course.id,
            createdBy: teacher.id,
            title: `Atelier pratique : ${course.title}`,
            description: "Travaux pratiques guidés.",
            startsAt: at(-7 - courseIndex),
            durationMinutes: 90,
            provider: "link" as const,
            joinUrl: "https://meet.jit.si/campus-demo-atelier",
            recordingUrl: "https://meet.jit.si/campus-demo-atelier",
            createdAt: new Date(now.getTime() - 14 * day),
            updatedAt: new Date(now.getTime() - 14 * day),
          },
          ...(courseIndex === 0
            ? [
                {
                  courseId: course.id,
                  createdBy: teacher.id,
                  title: "Session annulée : révision",
                  startsAt: at(5),
                  durationMinutes: 60,
                  provider: "link" as const,
                  joinUrl: "https://meet.jit.si/campus-demo-revision",
                  status: "cancelled" as const,
                  cancelledAt: now,
                  createdAt: now,
                  updatedAt: now,
                },
              ]
            : []),
        ])
        .returning({ id: liveSessions.id, startsAt: liveSessions.startsAt });
      const following = await tx
        .select({ userId: enrolments.userId })
        .from(enrolments)
        .where(and(eq(enrolments.courseId, course.id), followingEnrolment()));
      const [coming, past] = sessions;
      if (following.length) {
        await tx
          .insert(liveSessionRegistrations)
          .values(following.map(({ userId }) => ({ sessionId: coming!.id, userId, registeredAt: now })))
          .onConflictDoNothing();
        await tx
          .insert(liveSessionRegistrations)
          .values(following.map(({ userId }) => ({ sessionId: past!.id, userId, registeredAt: new Date(now.getTime() - 10 * day) })))
          .onConflictDoNothing();
        // All but one came.
        const present = following.slice(0, Math.max(1, following.length - 1));
        await tx
          .insert(liveSessionAttendance)
          .values(
            present.map(({ userId }) => ({
              sessionId: past!.id,
              userId,
              firstJoinedAt: past!.startsAt,
              lastJoinedAt: past!.startsAt,
              joins: 1,
            })),
          )
          .onConflictDoNothing();
      }
    }
  });
}
