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
 * The demo student's courses, so the dashboard, "Mes Formations", the player and the certificates
 * show something on a first try: "Intelligence Artificielle" paid in cash at the office, two
 * lessons done; "Énergie Solaire" paid by mobile money and finished, its lessons done over two
 * months up to two days ago (its final quiz, passed, and so its certificate: ./assessment.ts).
 */
const demoStudentCourses = [
  { slug: "intelligence-artificielle", lessonsDone: 2, enrolledDaysAgo: 40, doneDaysAgo: [30, 18], method: "cash" },
  { slug: "energie-solaire", lessonsDone: "all", enrolledDaysAgo: 75, doneDaysAgo: [70, 2], method: "mobile_money" },
] as const;

async function seedDemoLearning(db: Database, studentId: string, adminId: string | null) {
  const now = new Date();
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  for (const plan of demoStudentCourses) {
    const [course] = await db.select({ id: courses.id, priceFcfa: courses.priceFcfa }).from(courses).where(eq(courses.slug, plan.slug));
    if (!course) continue;
    const courseLessons = await db
      .select({ id: lessons.id })
      .from(lessons)
      .where(eq(lessons.courseId, course.id))
      .orderBy(asc(lessons.position));
    const done = plan.lessonsDone === "all" ? courseLessons : courseLessons.slice(0, plan.lessonsDone);
    const finished = done.length > 0 && done.length === courseLessons.length;
    // Her lessons done at even steps between the first day and the last of `doneDaysAgo`.
    const [first, last] = plan.doneDaysAgo;
    const doneAt = (index: number) => daysAgo(done.length > 1 ? first - (index * (first - last)) / (done.length - 1) : first);
    const lastStep = done.length ? doneAt(done.length - 1) : daysAgo(plan.enrolledDaysAgo - 1);
    await db.transaction(async (tx) => {
      const [enrolment] = await tx
        .insert(enrolments)
        .values({
          userId: studentId,
          courseId: course.id,
          status: finished ? "completed" : "active",
          progress: courseLessons.length ? Math.round((done.length / courseLessons.length) * 100) : 0,
          lastLessonId: finished ? (done.at(-1)?.id ?? null) : (courseLessons[done.length]?.id ?? null),
          enrolledAt: daysAgo(plan.enrolledDaysAgo),
          activatedAt: daysAgo(plan.enrolledDaysAgo - 1),
          completedAt: finished ? lastStep : null,
          // Her last lesson done, not today.
          updatedAt: lastStep,
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
        ...(plan.method === "cash"
          ? { method: "cash" as const, provider: "office", receiptNumber: "R-DEMO-0001", recordedBy: adminId }
          : { method: "mobile_money" as const, provider: "sandbox" }),
        status: "completed",
        createdAt: daysAgo(plan.enrolledDaysAgo),
        completedAt: daysAgo(plan.enrolledDaysAgo - 1),
      });
      await recordLessonsDone(tx, enrolment.id, done, doneAt);
    });
  }
}
