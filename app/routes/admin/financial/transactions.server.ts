import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { countPaymentsToReconcile, getPaymentForViewer, listPayments, recordCashPayment, refundPayment } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import type { Window } from "~/.server/reports";
import { redirectWithToast } from "~/.server/toast";
import { formatDateTime } from "~/lib/dates";
import { LIMITS } from "~/lib/limits";
import type { FinanceFilters } from "./shared";

/** « Transactions » of « Gestion financière », server side: the period's payments, cash to confirm, and refunds. */

type PaymentRow = Awaited<ReturnType<typeof listPayments>>[number];

function paymentView(row: PaymentRow) {
  return {
    reference: row.reference,
    courseTitle: row.courseTitle,
    learner: `${row.userFirstName} ${row.userLastName}`.trim() || row.userEmail,
    email: row.userEmail,
    amount: row.amount,
    method: row.method,
    status: row.status,
    at: row.refundedAt ?? row.completedAt ?? row.createdAt,
    date: formatDateTime(row.refundedAt ?? row.completedAt ?? row.createdAt),
  };
}

/** The refund's confirmation step (?rembourser=REF): the payment, read again; and the count of payments to reconcile. */
export async function loadPaymentNotices(db: Database, admin: Actor, url: URL) {
  const refundReference = url.searchParams.get("rembourser");
  const [toReconcile, refund] = await Promise.all([
    countPaymentsToReconcile(db, admin),
    refundReference ? getPaymentForViewer(db, admin, refundReference.slice(0, LIMITS.paymentReference)).catch(() => null) : null,
  ]);
  return { toReconcile, refund: refund ? { ...paymentView(refund), completedAt: refund.completedAt } : null };
}

export async function loadTransactions(db: Database, admin: Actor, filters: FinanceFilters, window: Window) {
  const [rows, pendingCash] = await Promise.all([
    listPayments(db, admin, { q: filters.q, status: filters.statut, window }),
    listPayments(db, admin, { q: filters.q, status: "pending", method: "cash" }),
  ]);
  return { tab: "transactions" as const, transactions: rows.map(paymentView), pendingCash: pendingCash.map(paymentView) };
}

const reference = z.string().trim().min(1).max(LIMITS.paymentReference);
export const transactionIntents = [
  z.object({ intent: z.literal("record-cash"), reference, receiptNumber: z.string().max(LIMITS.receiptNumber * 2) }),
  z.object({
    intent: z.literal("refund"),
    reference,
    reason: z
      .string()
      .trim()
      .min(1, "Indiquez le motif du remboursement.")
      .max(LIMITS.shortText, `Le motif tient en ${LIMITS.shortText} caractères au plus.`),
  }),
] as const;
type TransactionIntent = z.infer<(typeof transactionIntents)[number]>;

/** Records a cash payment, or refunds one; back to the page with a toast. */
export async function handleTransactionIntent(
  context: Readonly<RouterContextProvider>,
  db: Database,
  admin: Actor,
  data: TransactionIntent,
  back: string,
) {
  if (data.intent === "record-cash") {
    await recordCashPayment(db, context.get(paymentsContext), admin, data.reference, data.receiptNumber);
    return redirectWithToast(
      back,
      {
        type: "success",
        title: "Paiement enregistré",
        description: `Le paiement ${data.reference} est reçu : la formation est ouverte à la personne inscrite.`,
      },
      { status: 303 },
    );
  }
  await refundPayment(db, admin, data.reference, data.reason);
  return redirectWithToast(
    back,
    {
      type: "success",
      title: "Remboursement enregistré",
      description: `Le paiement ${data.reference} est remboursé ; la personne inscrite en est prévenue.`,
    },
    { status: 303 },
  );
}

export type Refund = NonNullable<Awaited<ReturnType<typeof loadPaymentNotices>>["refund"]>;
export type TransactionsPanel = Awaited<ReturnType<typeof loadTransactions>>;
