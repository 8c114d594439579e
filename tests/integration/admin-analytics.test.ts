/**
 * The advanced analytics (/admin/analytics) on a known data set: sign-ups, enrolments paid by
 * mobile money, card and cash, a refund, lessons done, a quiz sent, spread over a year. Each
 * period gives its own figures; the projection follows the monthly line; only admins read it,
 * on the page and in the JSON export.
 */
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { setLessonDone } from "~/.server/learning";
import { confirmOnlinePayment, refundPayment, startCheckout } from "~/.server/payments";
import { createSandboxProvider } from "~/.server/payments/providers/sandbox";
import type { Payments } from "~/.server/payments/setup";
import { getAdvancedAnalytics, windowOf, type AdvancedAnalytics } from "~/.server/reports";
import { projectionFrom } from "~/.server/reports/admin-analytics";
import { lastMonths, type MonthlyFigures } from "~/.server/reports/admin";
import type { FinancePeriod } from "~/lib/finance";
import { loader as exportLoader } from "~/routes/admin/analytics-export";
import { loader as analyticsLoader } from "~/routes/admin/analytics";
import { createCourse, createPayment, createQuiz, createSignedInUser, createUser, takeQuiz, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { asServer, routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let services: Payments;
let admin: TestUser;
let teacher: TestUser;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);
/** The month of the oldest payment (200 days ago), where the projection's line starts. */
const firstMonth = daysAgo(200).toISOString().slice(0, 7);

const analyticsOf = (period: FinancePeriod, actor: TestUser = admin) => getAdvancedAnalytics(handle.db, actor, windowOf(period, now), now);

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  const sandbox = createSandboxProvider({ db: handle.db, secret: "secret-analytics", fetch: async () => new Response("OK") });
  services = { online: sandbox, sandbox, publicUrl: TEST_PUBLIC_URL, mailEnv: { LOG_LEVEL: "silent" } };
  const db = handle.db;
  admin = await createUser(db, { role: "admin", createdAt: daysAgo(400) });
  teacher = await createUser(db, { role: "teacher", firstName: "Amadou", lastName: "Traoré", createdAt: daysAgo(400) });
  const { course: ai, lessons: aiLessons } = await createCourse(db, {
    instructor: teacher,
    title: "IA appliquée",
    priceFcfa: 100_000,
    category: "tech",
    level: "debutant",
  });
  const { course: solar, lessons: solarLessons } = await createCourse(db, {
    instructor: teacher,
    title: "Énergie solaire",
    priceFcfa: 50_000,
    category: "energie",
    level: "avance",
  });
  const learner = (firstName: string, days: number) => createUser(db, { firstName, createdAt: daysAgo(days) });
  const payOnline = async (payer: TestUser, courseId: number, method: "mobile_money" | "card", at: Date) => {
    const outcome = await startCheckout(db, services, payer, courseId, method, at);
    if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
    await sandbox.decide(outcome.reference, true, payer.id);
    await confirmOnlinePayment(db, services, "sandbox", outcome.reference, "return", at);
  };

  // Awa: signed up 2 days ago, paid "IA appliquée" by mobile money, finished it yesterday.
  const awa = await learner("Awa", 2);
  await payOnline(awa, ai.id, "mobile_money", daysAgo(2));
  for (const lesson of aiLessons) await setLessonDone(db, awa, lesson.id, true, daysAgo(1));
  // Bakary: 20 days ago, "IA appliquée" in cash; refunded 3 days ago.
  const bakary = await learner("Bakary", 20);
  const refunded = await createPayment(db, bakary, ai, { completed: true, admin, at: daysAgo(20) });
  await refundPayment(db, admin, refunded.reference, "Formation reportée", daysAgo(3));
  // Coumba: 5 days ago, "Énergie solaire" by card; one lesson done 4 days ago.
  const coumba = await learner("Coumba", 5);
  await payOnline(coumba, solar.id, "card", daysAgo(5));
  await setLessonDone(db, coumba, solarLessons[0]!.id, true, daysAgo(4));
  // Drissa: 50 days ago, "Énergie solaire" in cash; sent its quiz 45 days ago.
  const drissa = await learner("Drissa", 50);
  await createPayment(db, drissa, solar, { completed: true, admin, at: daysAgo(50) });
  const quiz = await createQuiz(db, teacher, solar);
  await takeQuiz(db, drissa, solar, quiz, () => ({}), daysAgo(45));
  // Espoir: 200 days ago, "IA appliquée" in cash.
  const espoir = await learner("Espoir", 200);
  await createPayment(db, espoir, ai, { completed: true, admin, at: daysAgo(200) });
}, 120_000);
afterAll(async () => handle?.close());

describe("the four cards", () => {
  it("count what happened in the chosen period only", async () => {
    const week = await analyticsOf("7j");
    expect(week.kpis.revenue).toMatchObject({ current: 150_000, previous: 0, change: null });
    expect(week.kpis.enrolments.current).toBe(2);
    expect(week.kpis.activeLearners.current).toBe(2);
    // Of Awa's and Coumba's enrolments, Awa's is finished.
    expect(week.kpis.completion).toMatchObject({ value: 50, opened: 2, completed: 1, previous: null });

    const month = await analyticsOf("30j");
    // Bakary's payment came in (refunded since): 250 000, against Drissa's 50 000 the 30 days before.
    expect(month.kpis.revenue).toMatchObject({ current: 250_000, previous: 50_000, change: 400 });
    expect(month.kpis.enrolments).toMatchObject({ current: 3, previous: 1 });
    expect(month.kpis.activeLearners).toMatchObject({ current: 2, previous: 1, change: 100 });
    expect(month.kpis.completion.value).toBe(33.3);

    const quarter = await analyticsOf("90j");
    expect(quarter.kpis.revenue.current).toBe(300_000);
    expect(quarter.kpis.enrolments.current).toBe(4);
    expect(quarter.kpis.activeLearners.current).toBe(3);

    const year = await analyticsOf("1an");
    expect(year.kpis.revenue.current).toBe(400_000);
    expect(year.kpis.enrolments.current).toBe(5);
  });
});

describe("the timeline", () => {
  it("cuts the period into spans that add up to the cards", async () => {
    const sum = (analytics: AdvancedAnalytics, key: "signUps" | "enrolments" | "revenue" | "refunds" | "completions") =>
      analytics.timeline.reduce((total, bucket) => total + bucket[key], 0);
    const week = await analyticsOf("7j");
    expect(week.timeline).toHaveLength(7);
    expect(sum(week, "signUps")).toBe(2);
    expect(sum(week, "enrolments")).toBe(2);
    expect(sum(week, "revenue")).toBe(150_000);
    expect(sum(week, "refunds")).toBe(100_000);
    expect(sum(week, "completions")).toBe(1);
    // Yesterday: Awa alone was active; four days ago, Coumba.
    expect(week.timeline.at(-1)).toMatchObject({ activeLearners: 1, dailyActiveLearners: 1, completions: 1 });
    expect(week.timeline[3]).toMatchObject({ activeLearners: 1, dailyActiveLearners: 1 });
    expect(week.timeline[0]).toMatchObject({ activeLearners: 0, signUps: 0, revenue: 0 });

    const month = await analyticsOf("30j");
    expect(month.timeline).toHaveLength(6);
    expect(month.timeline[0]!.from).toBe(daysAgo(30).toISOString());
    expect(month.timeline.at(-1)!.to).toBe(now.toISOString());
    expect(sum(month, "signUps")).toBe(3);
    expect(sum(month, "revenue")).toBe(250_000);

    const quarter = await analyticsOf("90j");
    expect(quarter.timeline).toHaveLength(6);
    // Drissa's quiz, 45 days ago, is in the 4th span (45 to 30 days ago): one learner, over 15 days.
    expect(quarter.timeline[3]).toMatchObject({ activeLearners: 1, dailyActiveLearners: 0.1 });

    const year = await analyticsOf("1an");
    expect(year.timeline).toHaveLength(12);
    expect(year.timeline[0]!.from).toBe(daysAgo(365).toISOString());
    expect(sum(year, "signUps")).toBe(5);
    expect(sum(year, "revenue")).toBe(400_000);
  });
});

describe("the tabs", () => {
  it("ranks the courses of the period, with completion and rating", async () => {
    const month = await analyticsOf("30j");
    expect(month.topCourses.map((course) => [course.title, course.enrolments, course.completionRate])).toEqual([
      ["IA appliquée", 2, 50],
      ["Énergie solaire", 1, 0],
    ]);
    const week = await analyticsOf("7j");
    expect(week.topCourses.map((course) => course.enrolments)).toEqual([1, 1]);
  });

  it("counts accounts by role, and those created in the period", async () => {
    const week = await analyticsOf("7j");
    expect(week.users.roles).toEqual(
      expect.arrayContaining([
        { role: "user", total: 5, created: 2 },
        { role: "teacher", total: 1, created: 0 },
        { role: "admin", total: 1, created: 0 },
      ]),
    );
    const year = await analyticsOf("1an");
    expect(year.users.roles.find((row) => row.role === "user")?.created).toBe(5);
  });

  it("splits revenue by payment method, category and month, with refunds", async () => {
    const week = await analyticsOf("7j");
    expect(week.revenue.methods).toEqual([
      { method: "mobile_money", value: 100_000, count: 1 },
      { method: "card", value: 50_000, count: 1 },
      { method: "cash", value: 0, count: 0 },
    ]);
    expect(week.revenue.refunds).toEqual({ total: 100_000, count: 1 });
    expect(week.revenue.categories).toEqual([
      { label: "Tech", value: 100_000, count: 1 },
      { label: "Énergie", value: 50_000, count: 1 },
    ]);
    const month = await analyticsOf("30j");
    expect(month.revenue.methods.find((row) => row.method === "cash")).toEqual({ method: "cash", value: 100_000, count: 1 });
    const year = await analyticsOf("1an");
    // Espoir's, Drissa's and Bakary's: 100 000 + 50 000 + 100 000.
    expect(year.revenue.methods.find((row) => row.method === "cash")).toEqual({ method: "cash", value: 250_000, count: 3 });
    expect(year.revenue.months).toHaveLength(12);
    expect(year.revenue.months.reduce((total, month) => total + month.revenue, 0)).toBe(400_000);
    expect(year.revenue.months.reduce((total, month) => total + month.refunds, 0)).toBe(100_000);
  });

  it("breaks enrolments down by level and category", async () => {
    const week = await analyticsOf("7j");
    expect(week.levels).toEqual([
      { label: "Débutant", value: 1, count: 1 },
      { label: "Avancé", value: 1, count: 1 },
    ]);
    const year = await analyticsOf("1an");
    expect(year.levels).toEqual([
      { label: "Débutant", value: 3, count: 3 },
      { label: "Avancé", value: 2, count: 2 },
    ]);
    expect(year.categories.map((row) => [row.label, row.count])).toEqual([
      ["Tech", 3],
      ["Énergie", 2],
    ]);
  });
});

describe("the projection", () => {
  const month = (key: string, revenue: number, enrolments: number): MonthlyFigures => ({
    month: key,
    revenue,
    enrolments,
    refunds: 0,
    signUps: 0,
    completions: 0,
  });

  it("carries the line of the full months past the current one", () => {
    const projection = projectionFrom([
      month("2026-06", 0, 0),
      month("2026-07", 100_000, 1),
      month("2026-08", 200_000, 2),
      month("2026-09", 300_000, 3),
      // The current month, unfinished: not in the line.
      month("2026-10", 10_000, 9),
    ]);
    expect(projection.basis.map((row) => row.month)).toEqual(["2026-07", "2026-08", "2026-09"]);
    expect(projection.slope).toEqual({ revenue: 100_000, enrolments: 1 });
    expect(projection.months).toEqual([
      { month: "2026-11", revenue: 500_000, enrolments: 5 },
      { month: "2026-12", revenue: 600_000, enrolments: 6 },
      { month: "2027-01", revenue: 700_000, enrolments: 7 },
    ]);
  });

  it("waits for three full months of history", () => {
    const projection = projectionFrom([month("2026-08", 0, 0), month("2026-09", 100_000, 1), month("2026-10", 200_000, 2)]);
    expect(projection).toEqual({ basis: [{ month: "2026-09", revenue: 100_000, enrolments: 1 }], months: null, slope: null });
  });

  it("is drawn from the stored months", async () => {
    const { projection, revenue } = await analyticsOf("30j");
    expect(projection.basis[0]!.month).toBe(firstMonth);
    expect(projection.basis.at(-1)!.month).toBe(lastMonths(now, 2)[0]);
    expect(projection.basis.reduce((total, row) => total + row.revenue, 0)).toBe(
      revenue.months.slice(0, -1).reduce((total, row) => total + row.revenue, 0),
    );
    const next = lastMonths(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1)), 3);
    expect(projection.months?.map((row) => row.month)).toEqual(next);
  });
});

describe("who reads them", () => {
  it("refuses anyone but an administrator", async () => {
    await expect(analyticsOf("30j", teacher)).rejects.toMatchObject({ code: "forbidden" });
    const learner = await createUser(handle.db, { createdAt: daysAgo(400) });
    await expect(analyticsOf("30j", learner)).rejects.toMatchObject({ code: "forbidden" });
  });
});

const signedIn: Partial<Record<"admin" | "teacher" | "user", string>> = {};
function args(path: string, who: keyof typeof signedIn) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie: signedIn[who]! } });
  const context: RouterContextProvider = routerContext(handle.db, campus);
  return { request, params: {}, context, url: new URL(request.url), pattern: path } as never;
}

describe("the route", () => {
  beforeAll(async () => {
    for (const role of ["admin", "teacher", "user"] as const)
      signedIn[role] = (await createSignedInUser(campus, handle.db, { role, createdAt: daysAgo(400) })).cookie;
  }, 120_000);

  it("reads the period and the tab from the query, with defaults for anything else", async () => {
    const week = (await routeOutcome(() => asServer(analyticsLoader, args("/admin/analytics?periode=7j&onglet=revenus", "admin"))))
      .data as { period: string; tab: string; analytics: AdvancedAnalytics };
    const year = (await routeOutcome(() => asServer(analyticsLoader, args("/admin/analytics?periode=1an", "admin")))).data as {
      period: string;
      tab: string;
      analytics: AdvancedAnalytics;
    };
    expect(week).toMatchObject({ period: "7j", tab: "revenus" });
    expect(week.analytics.kpis.revenue.current).toBe(150_000);
    expect(year).toMatchObject({ period: "1an", tab: "ensemble" });
    expect(year.analytics.kpis.revenue.current).toBe(400_000);
    const odd = (await routeOutcome(() => asServer(analyticsLoader, args("/admin/analytics?periode=2ans&onglet=%3Cscript%3E", "admin"))))
      .data as { period: string; tab: string };
    expect(odd).toMatchObject({ period: "30j", tab: "ensemble" });
  });

  it("exports every figure as JSON, for the chosen period", async () => {
    const outcome = await routeOutcome(() => asServer(exportLoader, args("/admin/analytics/export?periode=90j", "admin")));
    expect(outcome.status).toBe(200);
    const report = JSON.parse(outcome.body!) as Record<string, unknown> & { kpis: AdvancedAnalytics["kpis"] };
    expect(report).toMatchObject({ timeRange: "90j", timeRangeLabel: "90 jours" });
    expect(new Date(report.dateGenerated as string).getTime()).toBeGreaterThan(now.getTime());
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(["kpis", "timeline", "topCourses", "users", "revenue", "levels", "categories", "projection"]),
    );
    expect(report.kpis.revenue.current).toBe(300_000);
    expect(report.projection).toMatchObject({ method: expect.stringMatching(/moindres carrés/) });
  });

  it("sends a teacher or a learner away from the page and the export", async () => {
    for (const who of ["teacher", "user"] as const)
      for (const path of ["/admin/analytics?periode=1an", "/admin/analytics/export?periode=1an"]) {
        const loader = path.includes("export") ? exportLoader : analyticsLoader;
        const outcome = await routeOutcome(() => asServer(loader as typeof analyticsLoader, args(path, who)));
        expect(outcome, `${who} ${path}`).toMatchObject({ status: 302, location: expect.not.stringContaining("analytics") });
        expect(outcome.data).toBeUndefined();
      }
  });
});
