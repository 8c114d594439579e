import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { commissionsEarnedBetween } from "../finance";

/**
 * The money figures, one definition each, read by every screen, report and export (dashboard,
 * analytics, finance, reports, CSV and JSON files):
 * - collected (« Revenus encaissés »): payments completed in the period, counted on the day they
 *   were received, including those refunded since: what came in;
 * - refunds (« Remboursements »): payments refunded in the period, counted on the day of the
 *   refund, whenever they had been paid (a refund never rewrites a past period);
 * - net (« Revenus nets »): collected minus refunds of the same period;
 * - commissions (« Commissions »): instructors' commissions earned in the period, net of those
 *   taken back by its refunds (the finance ledger, same refund date).
 * Periods are [from, to). The words and the note that explains them are in ~/lib/finance.
 */

const column = (alias: string, name: string) => sql.raw(alias ? `${alias}.${name}` : name);
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** A collected payment's date column (completed_at), optionally of a table alias. */
export const collectedAt = (alias = "") => column(alias, "completed_at");
/** A refund's date column (refunded_at). */
export const refundedAt = (alias = "") => column(alias, "refunded_at");
/** Payments that count as collected (completed, or refunded since): their date is `collectedAt`. */
export const isCollected = (alias = "") => sql`${column(alias, "status")} in ('completed', 'refunded')`;
/** Payments that count as refunds: their date is `refundedAt`. */
export const isRefund = (alias = "") => sql`${column(alias, "status")} = 'refunded'`;

/** Payments collected in [from, to), as a SQL condition on `payments` (or its alias). */
export function collectedBetween(from: Date, to: Date, alias = ""): SQL {
  return sql`${isCollected(alias)} and ${collectedAt(alias)} >= ${at(from)} and ${collectedAt(alias)} < ${at(to)}`;
}

/** Refunds made in [from, to), as a SQL condition. */
export function refundedBetween(from: Date, to: Date, alias = ""): SQL {
  return sql`${isRefund(alias)} and ${refundedAt(alias)} >= ${at(from)} and ${refundedAt(alias)} < ${at(to)}`;
}

/** Revenus encaissés over [from, to). */
export async function collectedRevenue(db: Database, from: Date, to: Date): Promise<number> {
  const [row] = await queryRows<{ total: number }>(
    db,
    sql`select coalesce(sum(amount), 0)::float8 as total from payments where ${collectedBetween(from, to)}`,
  );
  return Number(row?.total ?? 0);
}

/** Remboursements over [from, to): how much, and how many. */
export async function refundsMade(db: Database, from: Date, to: Date): Promise<{ total: number; count: number }> {
  const [row] = await queryRows<{ total: number; count: number }>(
    db,
    sql`select coalesce(sum(amount), 0)::float8 as total, count(*)::int as count from payments where ${refundedBetween(from, to)}`,
  );
  return { total: Number(row?.total ?? 0), count: Number(row?.count ?? 0) };
}

/** Revenus nets from the two figures it is made of. */
export const netRevenueOf = (collected: number, refunds: number) => collected - refunds;

/** Revenus nets over [from, to): collected minus refunds, both over the period. */
export async function netRevenue(db: Database, from: Date, to: Date): Promise<number> {
  const [collected, refunds] = await Promise.all([collectedRevenue(db, from, to), refundsMade(db, from, to)]);
  return netRevenueOf(collected, refunds.total);
}

/** Commissions over [from, to): earned, net of those its refunds took back. */
export function commissionsEarned(db: Database, from: Date, to: Date): Promise<number> {
  return commissionsEarnedBetween(db, from, to);
}

export interface RevenueFigures {
  collected: number;
  refunds: number;
  refundCount: number;
  net: number;
  commissions: number;
}

/** The four figures over [from, to) at once. */
export async function revenueFigures(db: Database, from: Date, to: Date): Promise<RevenueFigures> {
  const [collected, refunds, commissions] = await Promise.all([
    collectedRevenue(db, from, to),
    refundsMade(db, from, to),
    commissionsEarned(db, from, to),
  ]);
  return {
    collected,
    refunds: refunds.total,
    refundCount: refunds.count,
    net: netRevenueOf(collected, refunds.total),
    commissions,
  };
}
