import { formatPercent } from "./format";
import { formatMonthYear } from "./dates";
/** Finance as the admin screens name it: periods, payout statuses. Browser-safe. */

/** The period selector of the admin screens: rolling windows ending now. */
export const financePeriods = {
  "7j": { days: 7, label: "7 jours" },
  "30j": { days: 30, label: "30 jours" },
  "90j": { days: 90, label: "90 jours" },
  "1an": { days: 365, label: "1 an" },
} as const;
export type FinancePeriod = keyof typeof financePeriods;
export const financePeriodIds = Object.keys(financePeriods) as FinancePeriod[];
export const DEFAULT_FINANCE_PERIOD: FinancePeriod = "30j";

export function isFinancePeriod(value: unknown): value is FinancePeriod {
  return typeof value === "string" && Object.hasOwn(financePeriods, value);
}

/**
 * The money figures' words, the same on every screen, report and export; what they count is
 * defined once in app/.server/reports/revenue.ts and told to readers by `revenueNote`.
 */
export const revenueLabels = {
  collected: "Revenus encaissés",
  refunds: "Remboursements",
  net: "Revenus nets",
  commissions: "Commissions dues",
} as const;

/** The note shown beside those figures wherever refunds matter (screens, reports' files). */
export const revenueNote =
  "Encaissé : paiements reçus sur la période, comptés le jour du paiement, y compris ceux remboursés depuis. " +
  "Remboursements : comptés le jour du remboursement, quelle que soit la date du paiement remboursé. " +
  "Net : encaissé moins remboursements de la période.";

/** The share of a payment an instructor earns when no rate was set for them (the spec's 70 %). */
export const DEFAULT_COMMISSION_RATE = 70;

/**
 * A report's PDF shows its totals and this many lines of its table (about twenty pages); its CSV
 * has every line. A year's report keeps up to every payment or account: thousands of pages no one
 * prints, and seconds of drawing on each download.
 */
export const REPORT_PDF_MAX_ROWS = 500;

export type PayoutStatus = "pending" | "processing" | "paid" | "failed";

/** A commission month's state, as the spec colours it: pending yellow, processing blue, paid green. */
export type CommissionState = "due" | PayoutStatus;
export const commissionStateLabels: Record<CommissionState, string> = {
  due: "À payer",
  pending: "En attente",
  processing: "Traitement...",
  paid: "Payée",
  failed: "Échec",
};
export const commissionStateTones = {
  due: "amber",
  pending: "amber",
  processing: "blue",
  paid: "green",
  failed: "red",
} as const satisfies Record<CommissionState, string>;

/** "2026-10" → "octobre 2026". */
export function formatPeriodMonth(period: string): string {
  const [year, month] = period.split("-").map(Number);
  return formatMonthYear(new Date(Date.UTC(year!, month! - 1, 1)));
}

/** A change between two figures as a signed percentage ("+12,5 %"), or null when there was nothing before. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

export function formatSignedPercent(value: number): string {
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${formatPercent(Math.abs(value))}`;
}

/** The period named in a query string (`?periode=90j`), or the default. */
export function periodFrom(value: string | null | undefined): FinancePeriod {
  return isFinancePeriod(value) ? value : DEFAULT_FINANCE_PERIOD;
}
