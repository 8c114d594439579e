/**
 * Finance: instructors' commission rates, their commissions (a ledger read from payments) and
 * their payouts, and the reports administrators generate. Figures that cross capabilities for the
 * screens live in ../reports.
 */
export {
  commissionLines,
  commissionsEarnedBetween,
  currentCommissionRate,
  listCommissionMonths,
  listInstructorCommissions,
  setCommissionRate,
  unpaidCommissionsTotal,
  type CommissionLine,
  type CommissionMonth,
  type Payout,
} from "./commissions";
export { checkProcessingPayouts, payCommission, periodOf, type PayoutInput } from "./payouts";
export { createFinance, financeContext, type Finance } from "./setup";
export { listReports, reportCsv, reportPdf, storeReport, type ReportDocument, type StoredReport } from "./reports";
