/**
 * The admin's dashboard, finance screen, reports and exports, and the teacher's commissions,
 * through their route modules: the period changes the figures, a refund asks for confirmation
 * and tells the learner, a commission is paid once, a report is kept and downloaded.
 */
import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampusAuth } from "~/.server/auth/express";
import type { SessionUser } from "~/.server/auth/session";
import type { DatabaseHandle } from "~/.server/db/client";
import { commissionPayouts, financeReports, notifications, payments } from "~/.server/db/schema";
import { reportCsv, reportPdf, storeReport, type Finance } from "~/.server/finance";
import { createCinetPayTransferProvider } from "~/.server/finance/payouts/cinetpay-transfer";
import { createFakeCinetPayTransfer } from "~/.server/finance/payouts/fake-cinetpay";
import { buildReport, windowOf } from "~/.server/reports";
import { toWinAnsi } from "~/.server/payments";
import { REPORT_PDF_MAX_ROWS } from "~/lib/finance";
import { formatFcfa } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { loader as dashboardLoader } from "~/routes/admin/index";
import { action as financialAction, loader as financialLoader } from "~/routes/admin/financial";
import { loader as exportLoader } from "~/routes/admin/financial-export";
import { action as reportAction } from "~/routes/admin/rapports";
import { loader as reportFileLoader } from "~/routes/admin/rapport-fichier";
import { loader as teacherLoader } from "~/routes/teacher/commissions";
import { cashOnlyPayments, createCourse, createPayment, createUser, type TestUser } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";
import { pdfTextRuns } from "../setup/pdf";
import { routeOutcome } from "../setup/routes";

let handle: DatabaseHandle;
let campus: CampusAuth;
let admin: TestUser;
let teacher: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;
let refundable: string;
const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const fake = createFakeCinetPayTransfer({ apiKey: "k", password: "p" });
const finance: Finance = {
  payouts: createCinetPayTransferProvider({ apiKey: "k", password: "p", apiUrl: "http://cinetpay.test", fetch: fake.fetch }),
  publicUrl: TEST_PUBLIC_URL,
};

const asUser = (user: TestUser): SessionUser => ({ ...user, name: `${user.firstName} ${user.lastName}` }) as unknown as SessionUser;

function args(path: string, user: TestUser, form?: Record<string, string>, params: Record<string, string> = {}) {
  const request = new Request(`${TEST_PUBLIC_URL}${path}`, {
    method: form ? "POST" : "GET",
    body: form ? new URLSearchParams(form) : undefined,
  });
  const context: RouterContextProvider = routerContext(handle.db, campus, { user: asUser(user), payments: cashOnlyPayments(), finance });
  return { request, params, context, url: new URL(request.url), pattern: path } as never;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
  admin = await createUser(handle.db, { role: "admin" });
  teacher = await createUser(handle.db, { role: "teacher", firstName: "Awa", lastName: "Sangaré" });
  otherTeacher = await createUser(handle.db, { role: "teacher" });
  const course = (await createCourse(handle.db, { instructor: teacher, title: "Cybersécurité pratique", priceFcfa: 60_000 })).course;
  learner = await createUser(handle.db, { firstName: "Ibrahim" });
  refundable = (await createPayment(handle.db, learner, course, { completed: true, admin, at: daysAgo(3) })).reference;
  await createPayment(handle.db, await createUser(handle.db), course, { completed: true, admin, at: daysAgo(60) });
});
afterAll(async () => handle?.close());

describe("the dashboard", () => {
  it("reads its cards over the chosen period", async () => {
    const week = await routeOutcome(() => dashboardLoader(args("/admin?periode=7j", admin)));
    const year = await routeOutcome(() => dashboardLoader(args("/admin?periode=1an&onglet=analytics", admin)));
    const weekData = week.data as { stats: { revenue: { current: number } }; period: string };
    const yearData = year.data as { stats: { revenue: { current: number } }; panel: { tab: string; months: unknown[] } };
    expect(weekData.period).toBe("7j");
    expect(weekData.stats.revenue.current).toBe(60_000);
    expect(yearData.stats.revenue.current).toBe(120_000);
    expect(yearData.panel.tab).toBe("analytics");
    expect(yearData.panel.months).toHaveLength(12);
  });
});

describe("the finance screen", () => {
  it("changes its summary with the period", async () => {
    const week = (await routeOutcome(() => financialLoader(args("/admin/financial?periode=7j", admin)))).data as {
      summary: { totalRevenue: number; commissionsDue: number };
    };
    const quarter = (await routeOutcome(() => financialLoader(args("/admin/financial?periode=90j", admin)))).data as {
      summary: { totalRevenue: number };
    };
    expect(week.summary).toMatchObject({ totalRevenue: 60_000, commissionsDue: 42_000 });
    expect(quarter.summary.totalRevenue).toBe(120_000);
  });

  it("lists the period's transactions, as its summary and its export count them", async () => {
    const listed = async (period: string) => {
      const { data } = await routeOutcome(() => financialLoader(args(`/admin/financial?periode=${period}`, admin)));
      return (data as { panel: { transactions: { reference: string }[] } }).panel.transactions.map((row) => row.reference);
    };
    const week = await listed("7j");
    expect(week).toEqual([refundable]);
    expect(await listed("90j")).toHaveLength(2);
    expect(await listed("90j")).toContain(refundable);
  });

  it("asks for confirmation before a refund, holds the reason to its limit, then refunds and tells the learner", async () => {
    const confirm = (await routeOutcome(() => financialLoader(args(`/admin/financial?rembourser=${refundable}`, admin)))).data as {
      refund: { reference: string } | null;
    };
    expect(confirm.refund?.reference).toBe(refundable);
    const path = `/admin/financial?periode=7j&rembourser=${refundable}`;
    const empty = await routeOutcome(() => financialAction(args(path, admin, { intent: "refund", reference: refundable, reason: "  " })));
    expect(empty.status).toBe(400);
    const long = await routeOutcome(() =>
      financialAction(args(path, admin, { intent: "refund", reference: refundable, reason: "x".repeat(LIMITS.shortText + 1) })),
    );
    expect(long.status).toBe(400);
    expect((await handle.db.select().from(payments).where(eq(payments.reference, refundable)))[0]!.status).toBe("completed");
    const done = await routeOutcome(() =>
      financialAction(args(path, admin, { intent: "refund", reference: refundable, reason: "Session annulée" })),
    );
    expect(done).toMatchObject({ status: 303, location: "/admin/financial?periode=7j" });
    const told = await handle.db.select().from(notifications).where(eq(notifications.userId, learner.id));
    expect(told.map((row) => row.kind)).toContain("payment_refunded");
    const again = await routeOutcome(() =>
      financialAction(args(path, admin, { intent: "refund", reference: refundable, reason: "Session annulée" })),
    );
    expect(again.status).toBe(409);
    const after = (await routeOutcome(() => financialLoader(args("/admin/financial?periode=7j", admin)))).data as {
      summary: { refunds: number; commissionsDue: number };
    };
    expect(after.summary).toMatchObject({ refunds: 60_000, commissionsDue: 0 });
  });

  it("pays a closed month's commission once", async () => {
    const period = daysAgo(60).toISOString().slice(0, 7);
    const listed = (await routeOutcome(() => financialLoader(args("/admin/financial?periode=90j&onglet=commissions", admin)))).data as {
      panel: { months: Array<{ instructorId: string; period: string; commissionFcfa: number }> };
    };
    expect(listed.panel.months.find((month) => month.instructorId === teacher.id && month.period === period)?.commissionFcfa).toBe(42_000);
    const form = { intent: "pay-commission", instructorId: teacher.id, period, channel: "manual", manualReference: "VIR-2026-001" };
    const first = await routeOutcome(() => financialAction(args("/admin/financial?onglet=commissions", admin, form)));
    expect(first.status).toBe(303);
    const second = await routeOutcome(() => financialAction(args("/admin/financial?onglet=commissions", admin, form)));
    expect(second.status).toBe(409);
    expect(await handle.db.select().from(commissionPayouts)).toHaveLength(1);
  });
});

describe("reports and exports", () => {
  it("keeps a generated report and serves it as CSV and PDF", async () => {
    const made = await routeOutcome(() =>
      reportAction(args("/admin/rapports", admin, { kind: "financier", format: "csv", periode: "90j" })),
    );
    expect(made.status).toBe(303);
    const [stored] = await handle.db.select().from(financeReports);
    expect(made.location).toBe(`/admin/rapports/${stored!.id}/csv`);
    const csv = (await reportFileLoader(args(made.location!, admin, undefined, { id: String(stored!.id), format: "csv" }))) as Response;
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    // Amounts are numbers a spreadsheet adds up; the header says their unit.
    expect(lines[0]).toBe("Date;Référence;Formation;Apprenant;Moyen;Montant (FCFA);Statut");
    expect(
      lines
        .find((line) => line.includes(refundable))
        ?.split(";")
        .slice(2, 7),
    ).toEqual(["Cybersécurité pratique", learner.email, "Espèces à l'institut", "60000", "Remboursé"]);
    expect(lines).toContain("Revenus encaissés (FCFA);120000;;;;;");
    expect(lines).toContain("Remboursements (FCFA);60000;;;;;");
    const pdf = (await reportFileLoader(
      args(`/admin/rapports/${stored!.id}/pdf`, admin, undefined, { id: String(stored!.id), format: "pdf" }),
    )) as Response;
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const drawn = Buffer.from(await pdf.arrayBuffer());
    expect(drawn.subarray(0, 4).toString()).toBe("%PDF");
    // The same amounts, written for a reader.
    const runs = pdfTextRuns(drawn);
    expect(runs).toContain("Revenus encaissés : ");
    // Helvetica (WinAnsi) has no narrow no-break space: the PDF writes a no-break space there.
    expect(runs).toContain(toWinAnsi(formatFcfa(120000)));
    expect(runs.filter((run) => run === toWinAnsi(formatFcfa(60000))).length).toBeGreaterThanOrEqual(2);
    const history = (await routeOutcome(() => financialLoader(args("/admin/financial?onglet=rapports", admin)))).data as {
      panel: { history: Array<{ id: number; generatedBy: string }> };
    };
    expect(history.panel.history[0]).toMatchObject({ id: stored!.id, generatedBy: `${admin.firstName} ${admin.lastName}` });
  });

  it("draws a long report's PDF up to its first lines and keeps every line in its CSV", async () => {
    const report = (lines: number) => ({
      kind: "financier",
      title: `Rapport de ${lines} lignes`,
      periodStart: daysAgo(365),
      periodEnd: new Date(),
      columns: ["Référence", "Montant"],
      rows: Array.from({ length: lines }, (_, index) => [`PAY-${index}`, 1_000 + index]),
      totals: [["Revenus totaux", "1 234 FCFA"]] as Array<[string, string]>,
    });
    const pagesOf = (pdf: Buffer) => pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
    const long = await storeReport(handle.db, admin, report(REPORT_PDF_MAX_ROWS * 4));
    const short = await storeReport(handle.db, admin, report(REPORT_PDF_MAX_ROWS));
    const longPdf = (await reportPdf(handle.db, admin, long.id, "ICEF")).pdf;
    const shortPdf = (await reportPdf(handle.db, admin, short.id, "ICEF")).pdf;
    // Four times the lines, the same pages: the PDF stops at REPORT_PDF_MAX_ROWS (and says so).
    expect(pagesOf(shortPdf)).toBeGreaterThan(5);
    expect(pagesOf(longPdf)).toBeLessThanOrEqual(pagesOf(shortPdf) + 1);
    const csv = (await reportCsv(handle.db, admin, long.id)).body;
    expect(csv).toContain(`PAY-${REPORT_PDF_MAX_ROWS * 4 - 1}`);
    expect(csv.trim().split("\n").length).toBe(1 + REPORT_PDF_MAX_ROWS * 4 + 2); // header, lines, blank, totals
  });

  it("lists every account in the users report, with the courses it opened", async () => {
    const report = await buildReport(handle.db, admin, "utilisateurs", windowOf("30j"));
    const coursesOf = (user: TestUser) => report.rows.find((row) => row[1] === user.email)?.[4];
    expect(coursesOf(learner)).toBe(1);
    expect(coursesOf(teacher)).toBe(0);
    expect(report.totals).toContainEqual(["Utilisateurs", String(report.rows.length)]);
  });

  it("exports the finance report as JSON for the period", async () => {
    const response = (await exportLoader(args("/admin/financial/export?periode=90j", admin))) as Response;
    expect(response.headers.get("content-disposition")).toMatch(/rapport-financier-\d{4}-\d{2}-\d{2}\.json/);
    const report = (await response.json()) as {
      dateGenerated: string;
      timeRange: string;
      stats: { totalRevenue: number };
      transactions: unknown[];
    };
    expect(report.timeRange).toBe("90j");
    expect(report.stats.totalRevenue).toBe(120_000);
    expect(report.transactions).toHaveLength(3); // two payments, one refund
  });

  it("exports the period's transactions as CSV in French, like the screen", async () => {
    const response = (await exportLoader(args("/admin/financial/export?periode=90j&format=csv", admin))) as Response;
    expect(response.headers.get("content-disposition")).toMatch(/rapport-financier-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe("Type;Référence;Formation;Utilisateur;Montant (FCFA);Moyen;Statut;Date");
    const refund = lines.find((line) => line.startsWith("Remboursement;"))!.split(";");
    expect(refund[1]).toBe(refundable);
    expect(refund.slice(4, 7)).toEqual(["-60000", "Espèces à l'institut", "Payé"]);
    expect(refund[7]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(lines.filter((line) => line.startsWith("Inscription;"))).toHaveLength(2);
  });
});

describe("a teacher's commissions", () => {
  it("shows a teacher their own months only", async () => {
    const own = (await routeOutcome(() => teacherLoader(args("/teacher/commissions", teacher)))).data as {
      months: unknown[];
      paidFcfa: number;
      rate: number;
    };
    expect(own.months.length).toBeGreaterThan(0);
    expect(own).toMatchObject({ paidFcfa: 42_000, rate: 70 });
    const other = (await routeOutcome(() => teacherLoader(args("/teacher/commissions", otherTeacher)))).data as { months: unknown[] };
    expect(other.months).toEqual([]);
  });
});

describe("a refund within the period", () => {
  it("lists a payment opened before the period and refunded within it", async () => {
    const course = (await createCourse(handle.db, { instructor: teacher, priceFcfa: 30_000 })).course;
    const { reference } = await createPayment(handle.db, await createUser(handle.db), course, { completed: true, admin, at: daysAgo(200) });
    const listed = async () => {
      const { data } = await routeOutcome(() => financialLoader(args("/admin/financial?periode=7j", admin)));
      return (data as { panel: { transactions: { reference: string; status: string }[] } }).panel.transactions;
    };
    expect((await listed()).map((row) => row.reference)).not.toContain(reference);
    const done = await routeOutcome(() =>
      financialAction(args("/admin/financial?periode=7j", admin, { intent: "refund", reference, reason: "Formation annulée" })),
    );
    expect(done.status).toBe(303);
    expect(await listed()).toContainEqual(expect.objectContaining({ reference, status: "refunded" }));
  });
});
