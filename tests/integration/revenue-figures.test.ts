/**
 * One definition per money figure: over a period with payments, refunds (one of them refunding a
 * payment of the period before) and a commission, the dashboard, the analytics, the finance
 * screen, the generated report, the CSV and JSON exports and the read model give the same francs.
 */
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { SessionUser } from "~/.server/auth/session";
import type { DatabaseHandle } from "~/.server/db/client";
import { refundPayment } from "~/.server/payments";
import { buildReport, collectedRevenue, commissionsEarned, netRevenue, refundsMade, windowOf } from "~/.server/reports";
import { revenueLabels } from "~/lib/finance";
import { loader as analyticsExportLoader } from "~/routes/admin/analytics-export";
import { loader as analyticsLoader } from "~/routes/admin/analytics";
import { loader as financialLoader } from "~/routes/admin/financial";
import { loader as financialExportLoader } from "~/routes/admin/financial-export";
import { loader as dashboardLoader } from "~/routes/admin/index";
import { cashOnlyPayments, createCourse, createPayment, createUser, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let admin: TestUser;
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

const asUser = (user: TestUser): SessionUser => ({ ...user, name: `${user.firstName} ${user.lastName}` }) as unknown as SessionUser;
function args(path: string) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`);
  const context: RouterContextProvider = routerContext(handle.db, campus, { user: asUser(admin), payments: cashOnlyPayments() });
  return { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
}

// Over the last 30 days: 50 000 and 80 000 received; the 80 000 one and a 30 000 paid 40 days ago
// refunded. The instructor earns 70 %: 0.7 × 130 000 earned, 0.7 × 110 000 taken back.
const COLLECTED = 130_000;
const REFUNDS = 110_000;
const NET = 20_000;
const COMMISSIONS = 91_000 - 77_000;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  admin = await createUser(handle.db, { role: "admin" });
  const teacher = await createUser(handle.db, { role: "teacher" });
  const course = async (priceFcfa: number) => (await createCourse(handle.db, { instructor: teacher, priceFcfa })).course;
  const [small, medium, large] = [await course(30_000), await course(50_000), await course(80_000)];
  const earlier = await createPayment(handle.db, await createUser(handle.db), small, { completed: true, admin, at: daysAgo(40) });
  await createPayment(handle.db, await createUser(handle.db), medium, { completed: true, admin, at: daysAgo(10) });
  const recent = await createPayment(handle.db, await createUser(handle.db), large, { completed: true, admin, at: daysAgo(8) });
  // A payment still waiting and one outside every window count for nothing.
  await createPayment(handle.db, await createUser(handle.db), medium);
  await createPayment(handle.db, await createUser(handle.db), large, { completed: true, admin, at: daysAgo(200) });
  await refundPayment(handle.db, admin, earlier.reference, "Session annulée", daysAgo(5));
  await refundPayment(handle.db, admin, recent.reference, "Erreur d'inscription", daysAgo(3));
});
afterAll(async () => handle?.close());

describe("the money figures over 30 days", () => {
  it("come from one function each in the read model", async () => {
    const { from, to } = windowOf("30j");
    expect(await collectedRevenue(handle.db, from, to)).toBe(COLLECTED);
    expect(await refundsMade(handle.db, from, to)).toEqual({ total: REFUNDS, count: 2 });
    expect(await netRevenue(handle.db, from, to)).toBe(NET);
    expect(await commissionsEarned(handle.db, from, to)).toBe(COMMISSIONS);
  });

  it("agree to the franc on the dashboard, the analytics and the finance screen", async () => {
    const dashboard = (await routeOutcome(() => dashboardLoader(args("/admin?periode=30j")))).data as {
      stats: { revenue: { current: number }; refunds: number; netRevenue: number };
    };
    expect(dashboard.stats).toMatchObject({ revenue: { current: COLLECTED }, refunds: REFUNDS, netRevenue: NET });

    const analytics = (await routeOutcome(() => analyticsLoader(args("/admin/analytics?periode=30j&onglet=revenus")))).data as {
      analytics: {
        kpis: { revenue: { current: number } };
        revenue: { refunds: { total: number }; net: number; methods: Array<{ value: number }> };
        timeline: Array<{ revenue: number; refunds: number }>;
      };
    };
    expect(analytics.analytics.kpis.revenue.current).toBe(COLLECTED);
    expect(analytics.analytics.revenue.refunds.total).toBe(REFUNDS);
    expect(analytics.analytics.revenue.net).toBe(NET);
    // The breakdowns and the timeline add up to the same figures.
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(analytics.analytics.revenue.methods.map((row) => row.value))).toBe(COLLECTED);
    expect(sum(analytics.analytics.timeline.map((bucket) => bucket.revenue))).toBe(COLLECTED);
    expect(sum(analytics.analytics.timeline.map((bucket) => bucket.refunds))).toBe(REFUNDS);

    const finance = (await routeOutcome(() => financialLoader(args("/admin/financial?periode=30j")))).data as {
      summary: { totalRevenue: number; refunds: number; netRevenue: number; commissionsDue: number };
    };
    expect(finance.summary).toMatchObject({ totalRevenue: COLLECTED, refunds: REFUNDS, netRevenue: NET, commissionsDue: COMMISSIONS });
  });

  it("agree to the franc in the generated report and the CSV and JSON exports, under the same words", async () => {
    const report = await buildReport(handle.db, admin, "financier", windowOf("30j"));
    expect(Object.fromEntries(report.totals)).toMatchObject({
      [revenueLabels.collected]: { fcfa: COLLECTED },
      [revenueLabels.refunds]: { fcfa: REFUNDS },
      [revenueLabels.net]: { fcfa: NET },
      [revenueLabels.commissions]: { fcfa: COMMISSIONS },
    });

    const csv = (await financialExportLoader(args("/admin/financial/export?periode=30j&format=csv"))) as Response;
    const rows = (await csv.text()).split(/\r?\n/).map((line) => line.split(";"));
    const total = (label: string) => rows.find((row) => row[0] === label)?.[4];
    expect(total(revenueLabels.collected)).toBe(String(COLLECTED));
    expect(total(revenueLabels.refunds)).toBe(String(REFUNDS));
    expect(total(revenueLabels.net)).toBe(String(NET));
    expect(total(revenueLabels.commissions)).toBe(String(COMMISSIONS));

    const json = (await ((await financialExportLoader(args("/admin/financial/export?periode=30j"))) as Response).json()) as {
      stats: { totalRevenue: number; refunds: number; netRevenue: number; commissionsDue: number };
    };
    expect(json.stats).toMatchObject({ totalRevenue: COLLECTED, refunds: REFUNDS, netRevenue: NET, commissionsDue: COMMISSIONS });

    const analytics = (await ((await analyticsExportLoader(args("/admin/analytics/export?periode=30j"))) as Response).json()) as {
      kpis: { revenue: { current: number } };
      revenue: { refunds: { total: number }; net: number };
      definitions: string;
    };
    expect(analytics.kpis.revenue.current).toBe(COLLECTED);
    expect(analytics.revenue).toMatchObject({ refunds: { total: REFUNDS }, net: NET });
    expect(analytics.definitions).toMatch(/Remboursements\u00a0: comptés le jour du remboursement/);
  });
});
