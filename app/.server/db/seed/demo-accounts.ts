import { asc, eq, inArray } from "drizzle-orm";
import { canTeach, type Role } from "~/lib/roles";
import { createAccount } from "../../auth/accounts";
import { isAppError } from "../../errors";
import type { Database } from "../client";
import { newPaymentReference } from "../../payments/reference";
import { courses, enrolments, lessons, payments, users } from "../schema";
import { countCourseLearners, recordLessonsDone } from "./learning";

/**
 * Accounts for trying Campus on a laptop (development only, never with NODE_ENV=production):
 * confirmed addresses, passwords that pass the policy. Listed in README.md.
 */
export const demoAccounts: ReadonlyArray<{ email: string; password: string; firstName: string; lastName: string; role: Role }> = [
  { email: "admin@campus.test", password: "Demo-Admin-ICEF-2025", firstName: "Fatoumata", lastName: "Coulibaly", role: "admin" },
  { email: "enseignant@campus.test", password: "Demo-Enseignant-2025", firstName: "Seydou", lastName: "Traoré", role: "teacher" },
  { email: "etudiant@campus.test", password: "Demo-Etudiant-2025", firstName: "Aïssata", lastName: "Keïta", role: "user" },
];

/** Creates the demo accounts that do not exist yet (matched by e-mail); existing ones are left alone. */
export async function seedDemoAccounts(db: Database): Promise<number> {
  const existing = new Set(
    (
      await db
        .select({ email: users.email })
        .from(users)
        .where(
          inArray(
            users.email,
            demoAccounts.map((account) => account.email),
          ),
        )
    ).map((row) => row.email),
  );
  const missing = demoAccounts.filter((account) => !existing.has(account.email));
  if (missing.length === 0) return 0;
  // The one way accounts are created (auth's createAccount); a second process seeding at once
  // finds the address taken (a conflict) and leaves that account alone.
  let created = 0;
  let studentId: string | null = null;
  for (const account of missing) {
    const { password, ...person } = account;
    try {
      const { id } = await createAccount(db, { ...person, password, emailVerified: true });
      created += 1;
      if (!canTeach(account.role)) studentId = id;
    } catch (error) {
      if (!isAppError(error, "conflict")) throw error;
    }
  }
  const admin = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@campus.test"));
  if (studentId) await seedDemoLearning(db, studentId, admin[0]?.id ?? null);
  return created;
}

/**
 * The demo student follows "Intelligence Artificielle" (paid in cash at the office, two lessons
 * done), so the dashboard, "Mes Formations" and the player show something on a first try.
 */
async function seedDemoLearning(db: Database, studentId: string, adminId: string | null) {
  const [course] = await db
    .select({ id: courses.id, priceFcfa: courses.priceFcfa })
    .from(courses)
    .where(eq(courses.slug, "intelligence-artificielle"));
  if (!course) return;
  const courseLessons = await db
    .select({ id: lessons.id })
    .from(lessons)
    .where(eq(lessons.courseId, course.id))
    .orderBy(asc(lessons.position));
  const now = new Date();
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const doneAt = (index: number) => daysAgo(30 - index * 12);
  await db.transaction(async (tx) => {
    const done = courseLessons.slice(0, 2);
    const [enrolment] = await tx
      .insert(enrolments)
      .values({
        userId: studentId,
        courseId: course.id,
        status: "active",
        progress: courseLessons.length ? Math.round((done.length / courseLessons.length) * 100) : 0,
        lastLessonId: courseLessons[2]?.id ?? null,
        enrolledAt: daysAgo(40),
        activatedAt: daysAgo(39),
        // Her last lesson done (below), not today.
        updatedAt: done.length ? doneAt(done.length - 1) : daysAgo(39),
      })
      .onConflictDoNothing()
      .returning({ id: enrolments.id });
    if (!enrolment) return;
    await countCourseLearners(tx, course.id, 1);
    await tx.insert(payments).values({
      reference: newPaymentReference(),
      enrolmentId: enrolment.id,
      userId: studentId,
      courseId: course.id,
      amount: course.priceFcfa,
      method: "cash",
      provider: "office",
      status: "completed",
      receiptNumber: "R-DEMO-0001",
      recordedBy: adminId,
      createdAt: daysAgo(40),
      completedAt: daysAgo(39),
    });
    await recordLessonsDone(tx, enrolment.id, done, doneAt);
  });
}
