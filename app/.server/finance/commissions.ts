import { and, desc, eq, sql } from "drizzle-orm";
import { DEFAULT_COMMISSION_RATE } from "~/lib/finance";
import type { Actor } from "../auth/actor";
import { queryRows, type Database } from "../db/client";
import { commissionPayouts, instructorCommissionRates, users } from "../db/schema";
import { AppError } from "../errors";
import { canManageFinance, canViewCommissionsOf } from "./policy";

/**
 * Instructors' commissions, computed from the payments as a ledger: a completed payment earns its
 * course's instructor `amount × rate` in the month it completed, at the rate in force then; a
 * refund takes the same sum back in the month of the refund. A month once paid never changes: a
 * later refund lowers the month it happens in.
 */

export function assertFinanceManager(actor: Actor) {
  if (!canManageFinance(actor)) throw AppError.forbidden("Seul un administrateur peut gérer les finances.");
}

/** The rate an instructor earns now (their last rate in force, or the default). */
export async function currentCommissionRate(db: Database, instructorId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ rate: instructorCommissionRates.ratePercent })
    .from(instructorCommissionRates)
    .where(
      and(
        eq(instructorCommissionRates.instructorId, instructorId),
        sql`${instructorCommissionRates.effectiveFrom} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(instructorCommissionRates.effectiveFrom), desc(instructorCommissionRates.id))
    .limit(1);
  return row?.rate ?? DEFAULT_COMMISSION_RATE;
}

/** An admin sets an instructor's rate from now on; payments completed before keep theirs. */
export async function setCommissionRate(db: Database, admin: Actor, instructorId: string, ratePercent: number, now = new Date()) {
  assertFinanceManager(admin);
  if (!Number.isInteger(ratePercent) || ratePercent < 0 || ratePercent > 100)
    throw AppError.invalid({ rate: "Le taux est un nombre entier de 0 à 100." });
  const [instructor] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, instructorId));
  if (!instructor) throw AppError.notFound("Enseignant introuvable.");
  await db.insert(instructorCommissionRates).values({ instructorId, ratePercent, effectiveFrom: now, setBy: admin.id });
}

/** One instructor's figures for one course and one month. */
export interface CommissionLine {
  instructorId: string;
  instructorName: string;
  instructorEmail: string;
  courseId: number;
  courseTitle: string;
  /** "2026-10", in Bamako. */
  period: string;
  /** Payments completed this month. */
  sales: number;
  grossFcfa: number;
  /** Payments refunded this month (whenever they were paid). */
  refundedFcfa: number;
  /** Earned minus taken back, whole FCFA. */
  commissionFcfa: number;
  minRate: number;
  maxRate: number;
}

/**
 * The ledger's lines, per instructor, course and month, for entries in [from, to) (any when not
 * given), of one instructor or all. Courses without an instructor (the institute's own) earn none.
 */
export async function commissionLines(
  db: Database,
  filters: { instructorId?: string; from?: Date; to?: Date; period?: string } = {},
): Promise<CommissionLine[]> {
  const from = filters.from ? sql`and e.at >= ${filters.from.toISOString()}::timestamptz` : sql``;
  const to = filters.to ? sql`and e.at < ${filters.to.toISOString()}::timestamptz` : sql``;
  const period = filters.period ? sql`and to_char(e.at at time zone 'Africa/Bamako', 'YYYY-MM') = ${filters.period}` : sql``;
  const rows = await queryRows<{
    instructor_id: string;
    instructor_name: string;
    instructor_email: string;
    course_id: number;
    course_title: string;
    period: string;
    sales: number;
    gross: number;
    refunded: number;
    commission: number;
    min_rate: number;
    max_rate: number;
  }>(
    db,
    sql`
      with e as (${commissionLedgerSql(filters.instructorId)})
      select e.instructor_id, trim(u.first_name || ' ' || u.last_name) as instructor_name, u.email as instructor_email,
        e.course_id, c.title as course_title, to_char(e.at at time zone 'Africa/Bamako', 'YYYY-MM') as period,
        sum(e.sales)::int as sales, sum(e.gross)::float8 as gross, sum(e.refunded)::float8 as refunded,
        sum(e.commission)::float8 as commission, min(e.rate)::int as min_rate, max(e.rate)::int as max_rate
      from e join users u on u.id = e.instructor_id join courses c on c.id = e.course_id
      where true ${from} ${to} ${period}
      group by e.instructor_id, u.first_name, u.last_name, u.email, e.course_id, c.title, 6
      order by 6 desc, 2, 5`,
  );
  return rows.map((row) => ({
    instructorId: row.instructor_id,
    instructorName: row.instructor_name || row.instructor_email,
    instructorEmail: row.instructor_email,
    courseId: Number(row.course_id),
    courseTitle: row.course_title,
    period: row.period,
    sales: Number(row.sales),
    grossFcfa: Number(row.gross),
    refundedFcfa: Number(row.refunded),
    commissionFcfa: Number(row.commission),
    minRate: Number(row.min_rate),
    maxRate: Number(row.max_rate),
  }));
}

export type Payout = typeof commissionPayouts.$inferSelect;

/** One instructor's month: its courses, its total and its payout (the live one, else the last failed). */
export interface CommissionMonth {
  instructorId: string;
  instructorName: string;
  instructorEmail: string;
  period: string;
  lines: CommissionLine[];
  sales: number;
  grossFcfa: number;
  refundedFcfa: number;
  commissionFcfa: number;
  minRate: number;
  maxRate: number;
  payout: Pick<
    Payout,
    "id" | "reference" | "status" | "amount" | "channel" | "manualReference" | "failureReason" | "paidAt" | "createdAt"
  > | null;
}

/** The payouts, oldest first (an instructor's, or everyone's): read with the lines, at the same time. */
function payoutsOf(db: Database, instructorId?: string) {
  return db
    .select()
    .from(commissionPayouts)
    .where(instructorId ? eq(commissionPayouts.instructorId, instructorId) : undefined)
    .orderBy(commissionPayouts.createdAt, commissionPayouts.id);
}

function monthsOf(lines: CommissionLine[], payouts: Payout[]): CommissionMonth[] {
  const months = new Map<string, CommissionMonth>();
  for (const line of lines) {
    const key = `${line.instructorId}|${line.period}`;
    let month = months.get(key);
    if (!month) {
      month = {
        instructorId: line.instructorId,
        instructorName: line.instructorName,
        instructorEmail: line.instructorEmail,
        period: line.period,
        lines: [],
        sales: 0,
        grossFcfa: 0,
        refundedFcfa: 0,
        commissionFcfa: 0,
        minRate: line.minRate,
        maxRate: line.maxRate,
        payout: null,
      };
      months.set(key, month);
    }
    month.lines.push(line);
    month.sales += line.sales;
    month.grossFcfa += line.grossFcfa;
    month.refundedFcfa += line.refundedFcfa;
    month.commissionFcfa += line.commissionFcfa;
    month.minRate = Math.min(month.minRate, line.minRate);
    month.maxRate = Math.max(month.maxRate, line.maxRate);
  }
  for (const payout of payouts) {
    const month = months.get(`${payout.instructorId}|${payout.period}`);
    // The live payout wins over failed attempts; among failed ones, the last.
    if (month && (month.payout === null || month.payout.status === "failed")) month.payout = payout;
  }
  return [...months.values()];
}

/** The commissions tab: every instructor's months with entries in [from, to), newest first. */
export async function listCommissionMonths(db: Database, admin: Actor, range: { from?: Date; to?: Date } = {}) {
  assertFinanceManager(admin);
  const [lines, payouts] = await Promise.all([commissionLines(db, range), payoutsOf(db)]);
  return monthsOf(lines, payouts);
}

/** An instructor's own commissions and payouts (or any instructor's, for an admin). */
export async function listInstructorCommissions(db: Database, actor: Actor, instructorId: string) {
  if (!canViewCommissionsOf(actor, instructorId)) throw AppError.notFound("Commissions introuvables.");
  const [lines, payouts, rate] = await Promise.all([
    commissionLines(db, { instructorId }),
    payoutsOf(db, instructorId),
    currentCommissionRate(db, instructorId),
  ]);
  const months = monthsOf(lines, payouts);
  const paid = months.reduce((total, month) => total + (month.payout?.status === "paid" ? month.payout.amount : 0), 0);
  const earned = months.reduce((total, month) => total + month.commissionFcfa, 0);
  return { rate, months, earnedFcfa: earned, paidFcfa: paid };
}

/** What the institute owes its instructors: commissions earned and not (or not yet) paid out. */
export async function unpaidCommissionsTotal(db: Database): Promise<number> {
  const [row] = await queryRows<{ owed: number }>(
    db,
    sql`select coalesce(sum(greatest(m.commission, 0)), 0)::float8 as owed from (
      select l.instructor_id, to_char(l.at at time zone 'Africa/Bamako', 'YYYY-MM') as period, sum(l.commission) as commission
      from (${commissionLedgerSql()}) l group by 1, 2
    ) m where not exists (
      select 1 from commission_payouts o where o.instructor_id = m.instructor_id and o.period = m.period and o.status <> 'failed'
    )`,
  );
  return Number(row?.owed ?? 0);
}

/**
 * Every ledger entry, for sums in SQL: a completed payment earns its instructor amount × rate (the
 * rate in force when it completed) at its completion; a refund takes the same back at its date.
 */
function commissionLedgerSql(instructorId?: string) {
  const instructor = instructorId ? sql`and c.instructor_id = ${instructorId}` : sql``;
  // Each rate holds from its date until the next one's (the later row of the same date wins): one
  // join against these spans instead of a lookup per payment.
  return sql`
    with rates as (
      select instructor_id, rate_percent, effective_from,
        lead(effective_from) over (partition by instructor_id order by effective_from, id) as until
      from instructor_commission_rates
    ),
    paid as (
      select p.amount, p.course_id, c.instructor_id, p.completed_at, p.refunded_at, p.status,
        coalesce(r.rate_percent, ${DEFAULT_COMMISSION_RATE}) as rate
      from payments p join courses c on c.id = p.course_id
      left join rates r on r.instructor_id = c.instructor_id and r.effective_from <= p.completed_at
        and (r.until is null or p.completed_at < r.until)
      where c.instructor_id is not null and p.completed_at is not null and p.status in ('completed', 'refunded') ${instructor}
    )
    select instructor_id, course_id, rate, completed_at as at, amount as gross, 0 as refunded, 1 as sales,
      round(amount * rate / 100.0) as commission
    from paid
    union all
    select instructor_id, course_id, rate, refunded_at, 0, amount, 0, -round(amount * rate / 100.0)
    from paid where status = 'refunded' and refunded_at is not null`;
}

/** Commissions earned (net of refunds) by entries in [from, to): the finance screen's "Commissions Dues". */
export async function commissionsEarnedBetween(db: Database, from: Date, to: Date): Promise<number> {
  const [row] = await queryRows<{ total: number }>(
    db,
    sql`select coalesce(sum(l.commission), 0)::float8 as total from (${commissionLedgerSql()}) l
      where l.at >= ${from.toISOString()}::timestamptz and l.at < ${to.toISOString()}::timestamptz`,
  );
  return Number(row?.total ?? 0);
}
