/**
 * The administration's figures on a known data set: the dashboard's cards, the finance summary,
 * commissions (a mid-period rate change, a refund), payouts (twice at once gives one), a
 * teacher's own commissions.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { commissionPayouts, notifications } from "~/.server/db/schema";
import { AppError } from "~/.server/errors";
import {
  checkProcessingPayouts,
  listCommissionMonths,
  listInstructorCommissions,
  payCommission,
  setCommissionRate,
  type Finance,
} from "~/.server/finance";
import { createCinetPayTransferProvider } from "~/.server/finance/payouts/cinetpay-transfer";
import { createFakeCinetPayTransfer } from "~/.server/finance/payouts/fake-cinetpay";
import { refundPayment } from "~/.server/payments";
import { getDashboardStats, getFinanceSummary, getMonthlyFigures, windowOf } from "~/.server/reports";
import { createCourse, createPayment, createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let admin: TestUser;
let amadou: TestUser;
let fatou: TestUser;
const DAY = 24 * 60 * 60 * 1000;
/** The figures are read at the 15th of a month, noon: the previous month is closed. */
const now = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 15, 12));
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);
const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const references: Record<string, string> = {};

const fake = createFakeCinetPayTransfer({ apiKey: "cle", password: "secret" });
const finance: Finance = {
  payouts: createCinetPayTransferProvider({ apiKey: "cle", password: "secret", apiUrl: "http://cinetpay.test", fetch: fake.fetch }),
  publicUrl: "http://campus.test",
};

beforeAll(async () => {
  handle = await createTestDatabase();
  const db = handle.db;
  admin = await createUser(db, { role: "admin" });
  amadou = await createUser(db, { role: "teacher", firstName: "Amadou", lastName: "Traoré", phone: "+223 76 12 34 56" });
  fatou = await createUser(db, { role: "teacher", firstName: "Fatou", lastName: "Keïta" });
  const ai = (await createCourse(db, { instructor: amadou, title: "IA appliquée", priceFcfa: 100_000 })).course;
  const solar = (await createCourse(db, { instructor: fatou, title: "Énergie solaire", priceFcfa: 50_000 })).course;
  // Amadou earns 70 % until 25 days ago, then 80 %.
  await setCommissionRate(db, admin, amadou.id, 80, daysAgo(25));
  const pay = async (name: string, course: { id: number }, days: number) => {
    const learner = await createUser(db, { firstName: name });
    references[name] = (await createPayment(db, learner, course, { completed: true, admin, at: daysAgo(days) })).reference;
  };
  await pay("a", ai, 40); // 100 000 at 70 %: 70 000
  await pay("b", ai, 20); // 100 000 at 80 %: 80 000
  await pay("c", ai, 3); // 100 000 at 80 %: 80 000, refunded 2 days ago
  await pay("d", solar, 5); // 50 000 at 70 %: 35 000
  await pay("e", solar, 100); // 50 000, outside 90 days
  await refundPayment(db, admin, references.c!, "Formation annulée", daysAgo(2));
});
afterAll(async () => handle?.close());

describe("finance summary", () => {
  it("counts what came in, refunds, commissions and the margin over the chosen period", async () => {
    const week = await getFinanceSummary(handle.db, admin, windowOf("7j", now));
    expect(week).toMatchObject({ totalRevenue: 150_000, refunds: 100_000, refundCount: 1, commissionsDue: 35_000, transactions: 2 });
    // (150 000 − 35 000 − 100 000) / 150 000
    expect(week.netMargin).toBe(10);
    const month = await getFinanceSummary(handle.db, admin, windowOf("30j", now));
    expect(month).toMatchObject({ totalRevenue: 250_000, refunds: 100_000, commissionsDue: 115_000, monthlyRevenue: 250_000 });
    expect(month.revenueGrowth).toBe(150); // 250 000 against 100 000 the 30 days before
    const quarter = await getFinanceSummary(handle.db, admin, windowOf("90j", now));
    expect(quarter.totalRevenue).toBe(350_000);
    expect(quarter.commissionsDue).toBe(185_000);
    const year = await getFinanceSummary(handle.db, admin, windowOf("1an", now));
    expect(year.totalRevenue).toBe(400_000);
    expect(year.revenueGrowth).toBeNull();
  });

  it("is for administrators only", async () => {
    await expect(getFinanceSummary(handle.db, amadou, windowOf("7j", now))).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("dashboard", () => {
  it("shows collected revenue, refunds and net revenue as the finance screen counts them, against the previous period", async () => {
    const stats = await getDashboardStats(handle.db, admin, windowOf("30j", now));
    // Collected in the last 30 days: b, c and d (c refunded since, in the period: a refund, not a smaller revenue).
    expect(stats.revenue.current).toBe(250_000);
    expect(stats.revenue.previous).toBe(100_000);
    expect(stats.revenue.change).toBe(150);
    expect(stats).toMatchObject({ refunds: 100_000, netRevenue: 150_000 });
    expect(stats.activeEnrolments.value).toBe(4);
    expect(stats.activeEnrolments.current).toBe(3);
    const week = await getDashboardStats(handle.db, admin, windowOf("7j", now));
    expect(week.revenue.current).toBe(150_000);
    expect(week.activeEnrolments.current).toBe(2);
  });

  it("spreads revenue and refunds over the months", async () => {
    const months = await getMonthlyFigures(handle.db, admin, now, 12);
    expect(months).toHaveLength(12);
    expect(months.reduce((total, month) => total + month.revenue, 0)).toBe(400_000);
    expect(months.reduce((total, month) => total + month.refunds, 0)).toBe(100_000);
  });

  it("gives each figure the same when a screen asks for it alone (the dashboard's new accounts)", async () => {
    const all = await getMonthlyFigures(handle.db, admin, now, 12);
    // The data set's eight accounts (the admin, two teachers, five learners) were created this month.
    expect(all.reduce((total, month) => total + month.signUps, 0)).toBe(8);
    for (const kind of ["revenue", "refunds", "signUps", "enrolments", "completions"] as const) {
      const alone = await getMonthlyFigures(handle.db, admin, now, 12, [kind]);
      expect(
        alone.map((month) => month[kind]),
        kind,
      ).toEqual(all.map((month) => month[kind]));
    }
  });
});

describe("commissions", () => {
  it("keeps the rate in force at each payment and takes a refund back in its month", async () => {
    const { months, rate } = await listInstructorCommissions(handle.db, amadou, amadou.id);
    expect(rate).toBe(80);
    const total = months.reduce((sum, month) => sum + month.commissionFcfa, 0);
    // 70 000 + 80 000 + 80 000 − 80 000
    expect(total).toBe(150_000);
    const all = await listCommissionMonths(handle.db, admin, { from: daysAgo(30), to: now });
    const amadouMonths = all.filter((month) => month.instructorId === amadou.id);
    expect(amadouMonths.flatMap((month) => month.lines).every((line) => line.minRate === 80)).toBe(true);
  });

  it("shows a teacher only their own commissions", async () => {
    const own = await listInstructorCommissions(handle.db, fatou, fatou.id);
    expect(own.months.every((month) => month.instructorId === fatou.id)).toBe(true);
    await expect(listInstructorCommissions(handle.db, fatou, amadou.id)).rejects.toBeInstanceOf(AppError);
    await expect(listCommissionMonths(handle.db, fatou)).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("payouts", () => {
  it("pays a closed month once, however many admins click at once", async () => {
    const teacher = await createUser(handle.db, { role: "teacher" });
    const course = (await createCourse(handle.db, { instructor: teacher, priceFcfa: 20_000 })).course;
    await createPayment(handle.db, await createUser(handle.db), course, { completed: true, admin, at: daysAgo(20) });
    const months = await listCommissionMonths(handle.db, admin);
    expect(months.find((month) => month.instructorId === teacher.id)).toMatchObject({
      period: lastMonth,
      commissionFcfa: 14_000,
      payout: null,
    });
    const other = await createUser(handle.db, { role: "admin" });
    const pay = (who: TestUser, reference: string) =>
      payCommission(
        handle.db,
        finance,
        who,
        { instructorId: teacher.id, period: lastMonth, channel: "manual", manualReference: reference },
        now,
      );
    const results = await Promise.allSettled([pay(admin, "VIR-1"), pay(other, "VIR-2"), pay(admin, "VIR-1")]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((result) => result.status === "rejected").map((result) => (result as PromiseRejectedResult).reason.code)).toEqual(
      ["conflict", "conflict"],
    );
    const rows = await handle.db.select().from(commissionPayouts).where(eq(commissionPayouts.instructorId, teacher.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "paid", amount: 14_000 });
    const after = await listCommissionMonths(handle.db, admin);
    expect(after.find((month) => month.instructorId === teacher.id)?.payout?.status).toBe("paid");
  });

  it("sends mobile money through the provider, once, and tells the teacher", async () => {
    const period = daysAgo(40).toISOString().slice(0, 7);
    const attempt = () => payCommission(handle.db, finance, admin, { instructorId: amadou.id, period, channel: "provider" }, now);
    const results = await Promise.allSettled([attempt(), attempt()]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(fake.sends).toBe(1);
    const [payout] = await handle.db.select().from(commissionPayouts).where(eq(commissionPayouts.instructorId, amadou.id));
    expect(payout).toMatchObject({ status: "paid", channel: "cinetpay", period });
    const told = await handle.db.select().from(notifications).where(eq(notifications.userId, amadou.id));
    expect(told.map((notification) => notification.kind)).toContain("commission_paid");
    await expect(attempt()).rejects.toMatchObject({ code: "conflict" });
  });

  it("leaves a transfer in process until the provider validates it, and retries a failed one", async () => {
    const teacher = await createUser(handle.db, { role: "teacher", phone: "+223 66 00 00 01" });
    const course = (await createCourse(handle.db, { instructor: teacher, priceFcfa: 10_000 })).course;
    await createPayment(handle.db, await createUser(handle.db), course, { completed: true, admin, at: daysAgo(45) });
    const period = daysAgo(45).toISOString().slice(0, 7);
    fake.outcome = "REJ";
    const failed = await payCommission(handle.db, finance, admin, { instructorId: teacher.id, period, channel: "provider" }, now);
    expect(failed.status).toBe("failed");
    fake.outcome = "REC";
    const processing = await payCommission(handle.db, finance, admin, { instructorId: teacher.id, period, channel: "provider" }, now);
    expect(processing.status).toBe("processing");
    fake.transfers.get(processing.reference)!.status = "VAL";
    expect(await checkProcessingPayouts(handle.db, finance, new Date(now.getTime() + 5 * 60_000))).toBe(1);
    const [row] = await handle.db.select().from(commissionPayouts).where(eq(commissionPayouts.reference, processing.reference));
    expect(row!.status).toBe("paid");
    fake.outcome = "VAL";
  });

  it("refuses the current month, an empty month and a missing reference", async () => {
    const period = now.toISOString().slice(0, 7);
    await expect(
      payCommission(handle.db, finance, admin, { instructorId: fatou.id, period, channel: "manual", manualReference: "X" }, now),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      payCommission(handle.db, finance, admin, { instructorId: fatou.id, period: "2001-01", channel: "manual", manualReference: "X" }, now),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      payCommission(
        handle.db,
        finance,
        admin,
        { instructorId: amadou.id, period: lastMonth, channel: "manual", manualReference: " " },
        now,
      ),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      payCommission(
        handle.db,
        finance,
        amadou,
        { instructorId: amadou.id, period: lastMonth, channel: "manual", manualReference: "X" },
        now,
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
