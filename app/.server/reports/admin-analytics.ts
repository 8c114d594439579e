import { sql, type SQL } from "drizzle-orm";
import { formatMonth, isoDay, startOfMonth } from "~/lib/dates";
import { financePeriods, percentChange } from "~/lib/finance";
import { linearTrend, projectTrend } from "~/lib/forecast";
import type { PaymentMethod } from "~/lib/payments";
import type { Actor } from "../auth/actor";
import { queryRows, type Database } from "../db/client";
import { AppError } from "../errors";
import {
  getBreakdowns,
  getMonthlyFigures,
  getTopCourses,
  lastMonths,
  ts,
  type Breakdown,
  type MonthlyFigures,
  type TopCourse,
  type Trend,
  type Window,
} from "./admin";
import { canViewInstituteAnalytics } from "./policy";
import { collectedAt, collectedRevenue, isCollected, isRefund, netRevenueOf, refundedAt, refundsMade } from "./revenue";

/**
 * The advanced analytics of the administration (/admin/analytics): the admin read model's
 * figures (admin.ts) over the chosen window, with what only this screen shows: a timeline of the
 * window, learners' activity, sign-ups by role, refunds, and a projection of the next three months.
 *
 * A learner is active on a day when they touched or completed a lesson or sent a quiz attempt that
 * day. The database keeps those days as they happen, with the first and last moment of each
 * (learner_activity_days, drizzle/0019): a few rows per learner instead of every lesson touched.
 */

const DAY = 24 * 60 * 60 * 1000;

function assertAnalyticsReader(actor: Actor) {
  if (!canViewInstituteAnalytics(actor)) throw AppError.forbidden("Réservé aux administrateurs.");
}

/**
 * The (learner, day) rows of learner_activity_days that may hold a moment in [from, to). A day holds
 * at most one edge of a window or of a span (each is a day long or more), so the day's first and
 * last moments tell exactly on which side of that edge the learner was active.
 */
const activityDays = (from: Date, to: Date) => sql`(
  select user_id, first_at, last_at from learner_activity_days
  where day >= (${ts(from)} at time zone 'UTC')::date and day <= (${ts(to)} at time zone 'UTC')::date
    and last_at >= ${ts(from)} and first_at < ${ts(to)}
)`;

/**
 * Rows of a query over the activity days: a year holds some 260 000 (learner, day) rows at
 * 100 000 enrolments, whose per-learner hash tables outgrow the default work_mem (4 MB) and
 * spill to disk; 32 MB for this one statement keeps them in memory.
 */
function activityRows<Row>(db: Database, query: SQL): Promise<Row[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '32MB'`);
    return queryRows<Row>(tx, query);
  });
}

export interface AnalyticsKpis {
  /** Revenus encaissés (./revenue.ts), against the previous window. */
  revenue: Trend;
  /** Enrolments opened (paid, or free) in the window. */
  enrolments: Trend;
  /** Distinct learners active in the window. */
  activeLearners: Trend;
  /** Of the enrolments opened in the window, the share completed today (percent, one decimal; null without any). */
  completion: { value: number | null; previous: number | null; completed: number; opened: number };
}

const rate = (done: number, total: number) => (total === 0 ? null : Math.round((done / total) * 1000) / 10);

/** The four cards: revenue, enrolments, active learners and completion, each against the previous window. */
export async function getAnalyticsKpis(db: Database, admin: Actor, window: Window): Promise<AnalyticsKpis> {
  assertAnalyticsReader(admin);
  const { from, to, previousFrom } = window;
  const [revenueNow, revenueBefore, [row]] = await Promise.all([
    collectedRevenue(db, from, to),
    collectedRevenue(db, previousFrom, from),
    activityRows<Record<string, number>>(
      db,
      sql`select
        (select count(*) from enrolments where activated_at >= ${ts(from)} and activated_at < ${ts(to)})::int as opened_now,
        (select count(*) from enrolments where activated_at >= ${ts(from)} and activated_at < ${ts(to)} and completed_at is not null)::int as completed_now,
        (select count(*) from enrolments where activated_at >= ${ts(previousFrom)} and activated_at < ${ts(from)})::int as opened_before,
        (select count(*) from enrolments where activated_at >= ${ts(previousFrom)} and activated_at < ${ts(from)} and completed_at is not null)::int as completed_before,
        active.current_active as active_now, active.previous_active as active_before
      from (select count(*) filter (where last_at >= ${ts(from)})::int as current_active,
          count(*) filter (where first_at < ${ts(from)})::int as previous_active
        from (select user_id, min(first_at) as first_at, max(last_at) as last_at
          from ${activityDays(previousFrom, to)} days group by user_id) learners) active`,
    ),
  ]);
  const n = (key: string) => Number(row?.[key] ?? 0);
  const trend = (current: number, previous: number): Trend => ({
    value: current,
    current,
    previous,
    change: percentChange(current, previous),
  });
  return {
    revenue: trend(revenueNow, revenueBefore),
    enrolments: trend(n("opened_now"), n("opened_before")),
    activeLearners: trend(n("active_now"), n("active_before")),
    completion: {
      value: rate(n("completed_now"), n("opened_now")),
      previous: rate(n("completed_before"), n("opened_before")),
      completed: n("completed_now"),
      opened: n("opened_now"),
    },
  };
}

export interface TimelineBucket {
  label: string;
  from: string;
  to: string;
  signUps: number;
  enrolments: number;
  completions: number;
  /** Revenus encaissés in the bucket, and the refunds made in it (./revenue.ts). */
  revenue: number;
  refunds: number;
  /** Distinct learners active in the bucket. */
  activeLearners: number;
  /** Learners active on an average day of the bucket (one decimal). */
  dailyActiveLearners: number;
}

const dayMonth = (date: Date) => isoDay(date).slice(5).split("-").reverse().join("/");

/**
 * The window cut into consecutive spans that cover it exactly: days (7 jours), 5-day spans
 * (30 jours), 15-day spans (90 jours), months in Bamako (1 an: the first one also takes the
 * days of the window before its month began).
 */
export function timelineSpans(window: Window): Array<{ start: Date; end: Date; label: string }> {
  const { period, from, to } = window;
  if (period === "1an") {
    return Array.from({ length: 12 }, (_, index) => {
      const month = startOfMonth(to, 11 - index);
      return {
        start: index === 0 ? from : month,
        end: index === 11 ? to : startOfMonth(to, 10 - index),
        label: `${formatMonth(month)} ${isoDay(month).slice(0, 4)}`,
      };
    });
  }
  const days = { "7j": 1, "30j": 5, "90j": 15 }[period];
  return Array.from({ length: financePeriods[period].days / days }, (_, index) => {
    const start = new Date(from.getTime() + index * days * DAY);
    const end = new Date(start.getTime() + days * DAY);
    const last = new Date(end.getTime() - 1);
    return { start, end, label: days === 1 ? dayMonth(start) : `${dayMonth(start)} – ${dayMonth(last)}` };
  });
}

/** Sign-ups, enrolments, completions, revenue, refunds and learners' activity in each span of the window. */
export async function getTimeline(db: Database, admin: Actor, window: Window): Promise<TimelineBucket[]> {
  assertAnalyticsReader(admin);
  const spans = timelineSpans(window);
  const values = sql.join(
    spans.map((span, index) => sql`(${index}::int, ${ts(span.start)}, ${ts(span.end)})`),
    sql`, `,
  );
  const edges = sql.join([...spans.map((span) => ts(span.start)), ts(window.to)], sql`, `);
  // Each (learner, day) falls in the span of its first moment and in that of its last: the same
  // one, or two neighbours when a span's edge cuts the day (width_bucket finds them in the sorted
  // edges; 0 and spans + 1 are outside the window). The learner-days of a span are counted on
  // calendar days.
  const rows = await activityRows<Record<string, number>>(
    db,
    sql`with b(i, s, e) as (values ${values}),
      learners as (
        select span.n - 1 as i, placed.user_id, count(*) as days
        from (
          select user_id, width_bucket(first_at, array[${edges}]) as first_span, width_bucket(last_at, array[${edges}]) as last_span
          from ${activityDays(window.from, window.to)} days
        ) placed
        cross join lateral (values (placed.first_span), (nullif(placed.last_span, placed.first_span))) span(n)
        where span.n between 1 and ${spans.length}
        group by 1, 2
      ),
      active as (select i, count(*)::int as active, sum(days)::int as active_days from learners group by i)
      select b.i,
        (select count(*) from users where created_at >= b.s and created_at < b.e)::int as sign_ups,
        (select count(*) from enrolments where activated_at >= b.s and activated_at < b.e)::int as enrolments,
        (select count(*) from enrolments where completed_at >= b.s and completed_at < b.e)::int as completions,
        (select coalesce(sum(amount), 0) from payments where ${isCollected()}
          and ${collectedAt()} >= b.s and ${collectedAt()} < b.e)::float8 as revenue,
        (select coalesce(sum(amount), 0) from payments where ${isRefund()}
          and ${refundedAt()} >= b.s and ${refundedAt()} < b.e)::float8 as refunds,
        coalesce(active.active, 0) as active, coalesce(active.active_days, 0) as active_days,
        (extract(epoch from b.e - b.s) / 86400)::float8 as days
      from b left join active on active.i = b.i order by b.i`,
  );
  return spans.map((span, index) => {
    const row = rows.find((candidate) => Number(candidate.i) === index);
    const n = (key: string) => Number(row?.[key] ?? 0);
    return {
      label: span.label,
      from: span.start.toISOString(),
      to: span.end.toISOString(),
      signUps: n("sign_ups"),
      enrolments: n("enrolments"),
      completions: n("completions"),
      revenue: n("revenue"),
      refunds: n("refunds"),
      activeLearners: n("active"),
      // A day cut by the span's edge counts on both sides: never more than the span's learners.
      dailyActiveLearners: n("days") > 0 ? Math.min(n("active"), Math.round((n("active_days") / n("days")) * 10) / 10) : 0,
    };
  });
}

/** Accounts by role: all of them, and those created in the window. */
export async function getAccountsByRole(db: Database, admin: Actor, window: Window) {
  assertAnalyticsReader(admin);
  const rows = await queryRows<{ role: string; total: number; created: number }>(
    db,
    sql`select role, count(*)::int as total,
        count(*) filter (where created_at >= ${ts(window.from)} and created_at < ${ts(window.to)})::int as created
      from users group by role order by 2 desc, role`,
  );
  return rows.map((row) => ({ role: row.role, total: Number(row.total), created: Number(row.created) }));
}

/** Refunds made in the window: how many, how much. */
export async function getRefunds(db: Database, admin: Actor, window: Window) {
  assertAnalyticsReader(admin);
  return refundsMade(db, window.from, window.to);
}

/** How many full months the projection looks back on, at most. */
export const PROJECTION_BASIS_MONTHS = 12;
/** How many full months it needs, at least (since the first month with any revenue or enrolment). */
export const PROJECTION_MIN_MONTHS = 3;

export interface Projection {
  /** The full months the line was drawn through, oldest first. */
  basis: Array<{ month: string; revenue: number; enrolments: number }>;
  /** The next three months, estimated (null when there is too little history). */
  months: Array<{ month: string; revenue: number; enrolments: number }> | null;
  /** Revenue change per month along the line, in FCFA, and enrolments per month. */
  slope: { revenue: number; enrolments: number } | null;
}

/**
 * The next three months, projected from `figures` (the monthly figures ending with the current
 * month): the least-squares line through the revenue and enrolments of the full months before it
 * (from the first month with any), carried on past the current month, which is left out of the
 * line because it is not over.
 */
export function projectionFrom(figures: readonly MonthlyFigures[]): Projection {
  const full = figures.slice(0, -1);
  const first = full.findIndex((month) => month.revenue > 0 || month.enrolments > 0);
  const basis = (first === -1 ? [] : full.slice(first)).map(({ month, revenue, enrolments }) => ({ month, revenue, enrolments }));
  const revenueLine = linearTrend(basis.map((month) => month.revenue));
  const enrolmentLine = linearTrend(basis.map((month) => month.enrolments));
  const current = figures.at(-1);
  if (!current || basis.length < PROJECTION_MIN_MONTHS || !revenueLine || !enrolmentLine) return { basis, months: null, slope: null };
  // Step basis.length is the current month; the next three come after it.
  const [year, month] = current.month.split("-").map(Number);
  const next = lastMonths(new Date(Date.UTC(year!, month! - 1 + 3, 1)), 3);
  const revenue = projectTrend(revenueLine, basis.length + 1, 3);
  const enrolments = projectTrend(enrolmentLine, basis.length + 1, 3);
  return {
    basis,
    months: next.map((key, index) => ({ month: key, revenue: revenue[index]!, enrolments: enrolments[index]! })),
    slope: { revenue: Math.round(revenueLine.slope), enrolments: Math.round(enrolmentLine.slope * 10) / 10 },
  };
}

export const paymentMethodOrder: PaymentMethod[] = ["mobile_money", "card", "cash"];

export interface AdvancedAnalytics {
  period: Window["period"];
  from: string;
  to: string;
  kpis: AnalyticsKpis;
  timeline: TimelineBucket[];
  topCourses: TopCourse[];
  users: { roles: Array<{ role: string; total: number; created: number }> };
  revenue: {
    months: MonthlyFigures[];
    /** Every method, none left out when it brought nothing. */
    methods: Array<{ method: PaymentMethod; value: number; count: number }>;
    categories: Breakdown[];
    refunds: { total: number; count: number };
    /** Revenus nets of the window: collected minus refunds. */
    net: number;
  };
  levels: Breakdown[];
  categories: Breakdown[];
  projection: Projection;
}

/** Every figure of the screen and of its JSON export, for the window ending `now`. */
export async function getAdvancedAnalytics(db: Database, admin: Actor, window: Window, now: Date): Promise<AdvancedAnalytics> {
  assertAnalyticsReader(admin);
  const [kpis, timeline, topCourses, roles, breakdowns, figures, refunds] = await Promise.all([
    getAnalyticsKpis(db, admin, window),
    getTimeline(db, admin, window),
    getTopCourses(db, admin, window),
    getAccountsByRole(db, admin, window),
    getBreakdowns(db, admin, window, ["methods", "categories", "levels", "enrolmentCategories"]),
    // The twelve months of the charts, and the one before for the projection's line.
    getMonthlyFigures(db, admin, now, PROJECTION_BASIS_MONTHS + 1),
    getRefunds(db, admin, window),
  ]);
  const months = figures.slice(1);
  return {
    period: window.period,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    kpis,
    timeline,
    topCourses,
    users: { roles },
    revenue: {
      months,
      methods: paymentMethodOrder.map((method) => {
        const row = breakdowns.methods.find((candidate) => candidate.label === method);
        return { method, value: row?.value ?? 0, count: row?.count ?? 0 };
      }),
      categories: breakdowns.categories,
      refunds,
      net: netRevenueOf(kpis.revenue.current, refunds.total),
    },
    levels: breakdowns.levels,
    categories: breakdowns.enrolmentCategories,
    projection: projectionFrom(figures),
  };
}
