import { sql, type SQL } from "drizzle-orm";
import { financePeriods, percentChange, type FinancePeriod } from "~/lib/finance";
import type { PaymentMethod, PaymentStatus } from "~/lib/payments";
import type { Actor } from "../auth/actor";
import { queryRows, type Database } from "../db/client";
import { AppError } from "../errors";
import { courseRatingSql } from "../catalogue";
import { unpaidCommissionsTotal } from "../finance";
import { canManageFinance } from "../finance/policy";
import {
  collectedAt,
  collectedBetween,
  collectedRevenue,
  isCollected,
  isRefund,
  netRevenueOf,
  refundedAt,
  refundsMade,
  revenueFigures,
} from "./revenue";

/**
 * The administration's figures (dashboard, finance, analytics): read from users, courses,
 * enrolments and payments as their owners wrote them, over rolling windows ending `now`: the
 * period (7, 30, 90 or 365 days) and the one before it, of the same length.
 */

const DAY = 24 * 60 * 60 * 1000;

export interface Window {
  period: FinancePeriod;
  from: Date;
  to: Date;
  previousFrom: Date;
}

export function windowOf(period: FinancePeriod, now = new Date()): Window {
  const length = financePeriods[period].days * DAY;
  return { period, from: new Date(now.getTime() - length), to: now, previousFrom: new Date(now.getTime() - 2 * length) };
}

function assertAdmin(actor: Actor) {
  if (!canManageFinance(actor)) throw AppError.forbidden("Réservé aux administrateurs.");
}

/** A date as a SQL timestamptz parameter. */
export const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** A figure now and over the previous period, and its change in percent (null when there was nothing before). */
export interface Trend {
  value: number;
  current: number;
  previous: number;
  change: number | null;
}
const trend = (value: number, current: number, previous: number): Trend => ({
  value,
  current,
  previous,
  change: percentChange(current, previous),
});

export interface DashboardStats {
  users: Trend;
  courses: Trend;
  activeEnrolments: Trend;
  /** Revenus encaissés, against the previous period. */
  revenue: Trend;
  /** Refunds made in the period and the net revenue (collected minus those refunds). */
  refunds: number;
  netRevenue: number;
  pendingReview: Trend;
  /** Completion rate in percent, one decimal, now and at the start of the period. */
  completion: { value: number; atStart: number; points: number };
}

/**
 * The six cards of the admin dashboard. Users, courses and drafts: totals, with those created in
 * the period against the previous one; active enrolments: now, with activations in each period;
 * revenue: « Revenus encaissés » (./revenue.ts) against the previous period; completion: completed
 * over opened enrolments, now against the start of the period.
 */
export async function getDashboardStats(db: Database, admin: Actor, window: Window): Promise<DashboardStats> {
  assertAdmin(admin);
  const { from, to, previousFrom } = window;
  const [[row], refunds] = await Promise.all([
    queryRows<Record<string, number>>(
      db,
      sql`select
      (select count(*) from users)::int as users_total,
      (select count(*) from users where created_at >= ${ts(from)} and created_at < ${ts(to)})::int as users_now,
      (select count(*) from users where created_at >= ${ts(previousFrom)} and created_at < ${ts(from)})::int as users_before,
      (select count(*) from courses where status <> 'archived')::int as courses_total,
      (select count(*) from courses where created_at >= ${ts(from)} and created_at < ${ts(to)})::int as courses_now,
      (select count(*) from courses where created_at >= ${ts(previousFrom)} and created_at < ${ts(from)})::int as courses_before,
      (select count(*) from enrolments where status = 'active')::int as active_total,
      (select count(*) from enrolments where activated_at >= ${ts(from)} and activated_at < ${ts(to)})::int as active_now,
      (select count(*) from enrolments where activated_at >= ${ts(previousFrom)} and activated_at < ${ts(from)})::int as active_before,
      (select coalesce(sum(amount), 0) from payments where ${collectedBetween(from, to)})::float8 as revenue_now,
      (select coalesce(sum(amount), 0) from payments where ${collectedBetween(previousFrom, from)})::float8 as revenue_before,
      (select count(*) from courses where status = 'draft')::int as drafts_total,
      (select count(*) from courses where status = 'draft' and created_at >= ${ts(from)} and created_at < ${ts(to)})::int as drafts_now,
      (select count(*) from courses where status = 'draft' and created_at >= ${ts(previousFrom)} and created_at < ${ts(from)})::int as drafts_before,
      (select count(*) from enrolments where activated_at is not null and activated_at < ${ts(to)})::int as opened_now,
      (select count(*) from enrolments where completed_at is not null and completed_at < ${ts(to)})::int as completed_now,
      (select count(*) from enrolments where activated_at is not null and activated_at < ${ts(from)})::int as opened_start,
      (select count(*) from enrolments where completed_at is not null and completed_at < ${ts(from)})::int as completed_start`,
    ),
    refundsMade(db, from, to),
  ]);
  const n = (key: string) => Number(row?.[key] ?? 0);
  const rate = (done: number, opened: number) => (opened === 0 ? 0 : Math.round((done / opened) * 1000) / 10);
  const completionNow = rate(n("completed_now"), n("opened_now"));
  const completionStart = rate(n("completed_start"), n("opened_start"));
  return {
    users: trend(n("users_total"), n("users_now"), n("users_before")),
    courses: trend(n("courses_total"), n("courses_now"), n("courses_before")),
    activeEnrolments: trend(n("active_total"), n("active_now"), n("active_before")),
    revenue: trend(n("revenue_now"), n("revenue_now"), n("revenue_before")),
    refunds: refunds.total,
    netRevenue: netRevenueOf(n("revenue_now"), refunds.total),
    pendingReview: trend(n("drafts_total"), n("drafts_now"), n("drafts_before")),
    completion: { value: completionNow, atStart: completionStart, points: Math.round((completionNow - completionStart) * 10) / 10 },
  };
}

export interface FinanceSummary {
  /** Revenus encaissés over the period (./revenue.ts). */
  totalRevenue: number;
  revenueGrowth: number | null;
  /** Revenus encaissés over the last 30 days, whatever the period. */
  monthlyRevenue: number;
  /** Commissions earned by instructors in the period, net of its refunds. */
  commissionsDue: number;
  /** Commissions earned and not yet paid out, all months. */
  commissionsUnpaid: number;
  /** Refunds made in the period (on the day of the refund). */
  refunds: number;
  refundCount: number;
  /** Revenus nets: collected minus refunds. */
  netRevenue: number;
  /** Payments opened in the period, whatever became of them. */
  transactions: number;
  /** (collected − commissions − refunds) / collected, in percent, one decimal (null without revenue). */
  netMargin: number | null;
}

/** The six summary cards of "Gestion Financière". */
export async function getFinanceSummary(db: Database, admin: Actor, window: Window): Promise<FinanceSummary> {
  assertAdmin(admin);
  const { from, to, previousFrom } = window;
  const [figures, previous, monthly, unpaid, [countRow]] = await Promise.all([
    revenueFigures(db, from, to),
    collectedRevenue(db, previousFrom, from),
    collectedRevenue(db, new Date(to.getTime() - 30 * DAY), to),
    unpaidCommissionsTotal(db),
    queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from payments where created_at >= ${ts(from)} and created_at < ${ts(to)}`,
    ),
  ]);
  const { collected: total, commissions, refunds } = figures;
  return {
    totalRevenue: total,
    revenueGrowth: percentChange(total, previous),
    monthlyRevenue: monthly,
    commissionsDue: commissions,
    commissionsUnpaid: unpaid,
    refunds,
    refundCount: figures.refundCount,
    netRevenue: figures.net,
    transactions: Number(countRow?.count ?? 0),
    netMargin: total === 0 ? null : Math.round(((total - commissions - refunds) / total) * 1000) / 10,
  };
}

/** "2026-11" for each of the `count` months ending with `now`'s, oldest first. */
export function lastMonths(now: Date, count: number): string[] {
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(date.toISOString().slice(0, 7));
  }
  return months;
}

export interface MonthlyFigures {
  month: string;
  revenue: number;
  refunds: number;
  signUps: number;
  enrolments: number;
  completions: number;
}

export type MonthlyFigure = Exclude<keyof MonthlyFigures, "month">;
const monthlyFigureKinds: readonly MonthlyFigure[] = ["revenue", "refunds", "signUps", "enrolments", "completions"];

/**
 * Revenue, refunds, sign-ups, enrolments and completions per month (Bamako), the last `count`
 * months; only the figures in `kinds` are counted (a screen asks for those it shows), the others stay 0.
 */
export async function getMonthlyFigures(
  db: Database,
  admin: Actor,
  now: Date,
  count: number,
  kinds: readonly MonthlyFigure[] = monthlyFigureKinds,
): Promise<MonthlyFigures[]> {
  assertAdmin(admin);
  const months = lastMonths(now, count);
  const since = ts(new Date(`${months[0]}-01T00:00:00Z`));
  const month = (column: string) => sql.raw(`to_char(${column} at time zone 'Africa/Bamako', 'YYYY-MM')`);
  // Each query names its columns: a union takes them from its first query, and a screen may ask for any one alone.
  const queries: Record<MonthlyFigure, SQL> = {
    revenue: sql`select 'revenue' as kind, ${month("completed_at")} as month, sum(amount)::float8 as total from payments
      where ${isCollected()} and ${collectedAt()} >= ${since} group by 2`,
    refunds: sql`select 'refunds' as kind, ${month("refunded_at")} as month, sum(amount)::float8 as total from payments
      where ${isRefund()} and ${refundedAt()} >= ${since} group by 2`,
    signUps: sql`select 'signUps' as kind, ${month("created_at")} as month, count(*)::float8 as total from users
      where created_at >= ${since} group by 2`,
    enrolments: sql`select 'enrolments' as kind, ${month("activated_at")} as month, count(*)::float8 as total from enrolments
      where activated_at >= ${since} group by 2`,
    completions: sql`select 'completions' as kind, ${month("completed_at")} as month, count(*)::float8 as total from enrolments
      where completed_at >= ${since} group by 2`,
  };
  const chosen = monthlyFigureKinds.filter((kind) => kinds.includes(kind));
  const rows = chosen.length
    ? await queryRows<{ kind: string; month: string; total: number }>(
        db,
        sql.join(
          chosen.map((kind) => queries[kind]),
          sql` union all `,
        ),
      )
    : [];
  const figures = new Map(months.map((key) => [key, { month: key, revenue: 0, refunds: 0, signUps: 0, enrolments: 0, completions: 0 }]));
  for (const row of rows) {
    const entry = figures.get(row.month);
    if (entry) entry[row.kind as "revenue"] = Number(row.total);
  }
  return [...figures.values()];
}

export interface Breakdown {
  label: string;
  value: number;
  count: number;
}

/**
 * Revenue of the period by payment method and by course category, enrolments opened in it by
 * level and by category, and accounts by role.
 */
const breakdownQueries = {
  methods: (from: Date, to: Date) =>
    sql`select method::text as label, sum(amount)::float8 as value, count(*)::int as count from payments
      where ${collectedBetween(from, to)} group by 1 order by 2 desc`,
  categories: (from: Date, to: Date) =>
    sql`select cat.name as label, sum(p.amount)::float8 as value, count(*)::int as count
      from payments p join courses c on c.id = p.course_id join categories cat on cat.id = c.category_id
      where ${collectedBetween(from, to, "p")}
      group by 1 order by 2 desc`,
  levels: (from: Date, to: Date) =>
    sql`select l.name as label, count(*)::float8 as value, count(*)::int as count
      from enrolments e join courses c on c.id = e.course_id join levels l on l.id = c.level_id
      where e.activated_at >= ${ts(from)} and e.activated_at < ${ts(to)} group by 1, l.position order by l.position`,
  roles: () => sql`select role as label, count(*)::float8 as value, count(*)::int as count from users group by 1 order by 2 desc`,
  enrolmentCategories: (from: Date, to: Date) =>
    sql`select cat.name as label, count(*)::float8 as value, count(*)::int as count
      from enrolments e join courses c on c.id = e.course_id join categories cat on cat.id = c.category_id
      where e.activated_at >= ${ts(from)} and e.activated_at < ${ts(to)} group by 1, cat.position order by 2 desc, cat.position`,
};
export type BreakdownKind = keyof typeof breakdownQueries;

/** The breakdowns in `kinds` (a screen asks for those it shows) over the window. */
export async function getBreakdowns<Kind extends BreakdownKind>(
  db: Database,
  admin: Actor,
  window: Window,
  kinds: readonly Kind[],
): Promise<Record<Kind, Breakdown[]>> {
  assertAdmin(admin);
  const entries = await Promise.all(
    kinds.map(async (kind) => {
      const rows = await queryRows<Breakdown>(db, breakdownQueries[kind](window.from, window.to));
      return [kind, rows.map((row) => ({ label: row.label, value: Number(row.value), count: Number(row.count) }))] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Kind, Breakdown[]>;
}

export interface TopCourse {
  id: number;
  title: string;
  enrolments: number;
  completionRate: number;
  rating: number | null;
  revenue: number;
}

/** The five courses with the most enrolments opened in the period, their completion and rating. */
export async function getTopCourses(db: Database, admin: Actor, window: Window, limit = 5): Promise<TopCourse[]> {
  assertAdmin(admin);
  const rows = await queryRows<{
    id: number;
    title: string;
    enrolments: number;
    completed: number;
    rating: number | null;
    revenue: number;
  }>(
    db,
    sql`select c.id, c.title, count(e.id)::int as enrolments, count(e.completed_at)::int as completed, ${courseRatingSql(sql`c.id`).rating} as rating,
        coalesce((select sum(p.amount) from payments p where p.course_id = c.id
          and ${collectedBetween(window.from, window.to, "p")}), 0)::float8 as revenue
      from enrolments e join courses c on c.id = e.course_id
      where e.activated_at >= ${ts(window.from)} and e.activated_at < ${ts(window.to)}
      group by c.id order by 3 desc, c.title limit ${limit}`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    enrolments: Number(row.enrolments),
    completionRate: Number(row.enrolments) === 0 ? 0 : Math.round((Number(row.completed) / Number(row.enrolments)) * 1000) / 10,
    rating: row.rating === null ? null : Number(row.rating),
    revenue: Number(row.revenue),
  }));
}

export interface PeriodTransaction {
  reference: string;
  type: "enrollment" | "refund";
  courseTitle: string;
  userEmail: string;
  amount: number;
  method: PaymentMethod;
  status: PaymentStatus;
  date: string;
}

/**
 * The period's transactions as the spec's Transaction entity: each payment opened in the period
 * (type enrollment, + amount), and each refund made in it (type refund, − amount).
 */
export async function listPeriodTransactions(db: Database, admin: Actor, window: Window): Promise<PeriodTransaction[]> {
  assertAdmin(admin);
  const rows = await queryRows<{
    reference: string;
    type: string;
    title: string;
    email: string;
    amount: number;
    method: string;
    status: string;
    at: string;
  }>(
    db,
    sql`select p.reference, 'enrollment' as type, c.title, u.email, p.amount, p.method::text as method,
        case when p.status = 'refunded' then 'completed' else p.status::text end as status, p.created_at as at
      from payments p join courses c on c.id = p.course_id join users u on u.id = p.user_id
      where p.created_at >= ${ts(window.from)} and p.created_at < ${ts(window.to)}
      union all
      select p.reference, 'refund', c.title, u.email, -p.amount, p.method::text, 'completed', p.refunded_at
      from payments p join courses c on c.id = p.course_id join users u on u.id = p.user_id
      where p.status = 'refunded' and p.refunded_at >= ${ts(window.from)} and p.refunded_at < ${ts(window.to)}
      order by at desc`,
  );
  return rows.map((row) => ({
    reference: row.reference,
    type: row.type as PeriodTransaction["type"],
    courseTitle: row.title,
    userEmail: row.email,
    amount: Number(row.amount),
    method: row.method as PaymentMethod,
    status: row.status as PaymentStatus,
    date: new Date(row.at).toISOString(),
  }));
}
