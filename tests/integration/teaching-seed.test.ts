/** A trial's teaching data: the demo teacher's screens show real figures on first start, and a restart adds nothing. */
import { and, eq, gt, gte, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, enrolments, liveSessions, payments, users } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { listManagedSessions } from "~/.server/live-sessions";
import { getTeacherDashboard, listTeacherStudents } from "~/.server/reports";
import { listInstructorCommissions } from "~/.server/finance";
import { getPayoutDetails } from "~/.server/teaching";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  await seedDatabase(handle.db, { demoAccounts: true });
});
afterAll(async () => handle?.close());

it("gives the demo teacher courses, learners at various stages, and sessions coming, past and cancelled", async () => {
  const [row] = await handle.db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, "enseignant@campus.test"));
  const teacher = { id: row!.id, role: "teacher" as const };
  const { cards } = await getTeacherDashboard(handle.db, teacher);
  expect(cards.courses).toBe(3);
  expect(cards.activeStudents).toBeGreaterThan(0);
  expect(cards.completed).toBeGreaterThan(0);
  const students = await listTeacherStudents(handle.db, teacher);
  const statuses = new Set(students.map((student) => student.status));
  // Each learner was last active at their last step, days ago, not at the seed's own time.
  expect(students.filter((student) => student.lastActivityAt.getTime() > Date.now() - 24 * 60 * 60 * 1000)).toEqual([]);
  expect([...statuses].sort()).toEqual(["active", "completed", "pending_payment"]);
  const sessions = await listManagedSessions(handle.db, teacher);
  expect(sessions.upcoming.length).toBe(3);
  expect(sessions.past.some((session) => session.attended > 0)).toBe(true);
  expect(sessions.past.some((session) => session.status === "cancelled")).toBe(true);
  expect(await getPayoutDetails(handle.db, teacher, teacher.id)).toMatchObject({ method: "mobile_money" });
  // Finished months to pay (tests/e2e/admin-commissions.spec.ts pays two), none within the last week.
  const { months } = await listInstructorCommissions(handle.db, teacher, teacher.id);
  const currentPeriod = new Date().toISOString().slice(0, 7);
  expect(months.filter((month) => month.period < currentPeriod && month.commissionFcfa > 0).length).toBeGreaterThanOrEqual(2);
  const weekAgo = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
  expect(await handle.db.$count(payments, gte(payments.completedAt, weekAgo))).toBe(0);
  // Whoever follows a paid course has paid for it, as the payments capability leaves it, and the
  // admin's last 30 days show some of it.
  const unpaid = await handle.db
    .select({ id: enrolments.id })
    .from(enrolments)
    .innerJoin(courses, eq(courses.id, enrolments.courseId))
    .leftJoin(payments, and(eq(payments.enrolmentId, enrolments.id), eq(payments.status, "completed")))
    .where(and(inArray(enrolments.status, ["active", "completed"]), gt(courses.priceFcfa, 0), isNull(payments.id)));
  expect(unpaid).toEqual([]);
  const monthAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
  expect(await handle.db.$count(payments, gte(payments.completedAt, monthAgo))).toBeGreaterThan(0);

  const before = [await handle.db.$count(liveSessions), await handle.db.$count(payments)];
  await seedDatabase(handle.db, { demoAccounts: true });
  expect([await handle.db.$count(liveSessions), await handle.db.$count(payments)]).toEqual(before);
});
