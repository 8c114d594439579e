import { dbContext, userContext } from "~/.server/context";
import { listCommissionMonths } from "~/.server/finance";
import { csvDownload, toCsv } from "~/.server/http/csv";
import { getFinanceSummary, getMonthlyFigures, listPeriodTransactions, windowOf } from "~/.server/reports";
import { formatNumericDateTime, isoDay } from "~/lib/dates";
import { financePeriods, periodFrom, revenueLabels, revenueNote } from "~/lib/finance";
import { paymentMethodLabels, paymentStatusLabels } from "~/lib/payments";
import type { Route } from "./+types/financial-export";

/**
 * "Exporter": the finance screen's figures for the chosen period, as JSON
 * (rapport-financier-{date}.json: dateGenerated, timeRange and every figure) or as CSV (the
 * period's transactions, then the summary), which names methods, statuses and dates in French like
 * the screen and the other CSV files.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const url = new URL(request.url);
  const period = periodFrom(url.searchParams.get("periode"));
  const now = new Date();
  const window = windowOf(period, now);
  const [summary, transactions] = await Promise.all([getFinanceSummary(db, admin, window), listPeriodTransactions(db, admin, window)]);
  const day = isoDay(now);
  if (url.searchParams.get("format") === "csv") {
    const body = toCsv(
      ["Type", "Référence", "Formation", "Utilisateur", "Montant (FCFA)", "Moyen", "Statut", "Date"],
      [
        ...transactions.map((row) => [
          row.type === "refund" ? "Remboursement" : "Inscription",
          row.reference,
          row.courseTitle,
          row.userEmail,
          row.amount,
          paymentMethodLabels[row.method],
          paymentStatusLabels[row.status],
          formatNumericDateTime(new Date(row.date)),
        ]),
        [],
        [revenueLabels.collected, "", "", "", summary.totalRevenue],
        [`${revenueLabels.collected}, 30 jours`, "", "", "", summary.monthlyRevenue],
        [revenueLabels.refunds, "", "", "", summary.refunds],
        [revenueLabels.net, "", "", "", summary.netRevenue],
        [revenueLabels.commissions, "", "", "", summary.commissionsDue],
        ["Transactions", "", "", "", summary.transactions],
        ["Marge nette (%)", "", "", "", summary.netMargin ?? ""],
        ["Définitions", revenueNote],
      ],
    );
    return csvDownload(`rapport-financier-${day}.csv`, body);
  }
  const [monthly, commissions] = await Promise.all([
    getMonthlyFigures(db, admin, now, 12, ["revenue", "refunds"]),
    listCommissionMonths(db, admin, { from: window.from, to: window.to }),
  ]);
  const report = {
    dateGenerated: now.toISOString(),
    timeRange: period,
    timeRangeLabel: financePeriods[period].label,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    stats: summary,
    definitions: revenueNote,
    monthlyRevenue: monthly.map((month) => ({ month: month.month, revenue: month.revenue, refunds: month.refunds })),
    commissions: commissions.map((month) => ({
      instructorName: month.instructorName,
      instructorEmail: month.instructorEmail,
      period: month.period,
      enrollmentsCount: month.sales,
      grossRevenue: month.grossFcfa,
      refunded: month.refundedFcfa,
      commissionRate: month.minRate === month.maxRate ? month.minRate : [month.minRate, month.maxRate],
      commissionAmount: month.commissionFcfa,
      status: month.payout?.status ?? "pending",
    })),
    transactions,
  };
  return new Response(JSON.stringify(report, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="rapport-financier-${day}.json"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
