/**
 * Owner: the payments capability (app/.server/payments): payments, their events and the test
 * gateway's transactions.
 */
import { index, integer, jsonb, pgEnum, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { courses } from "./courses";
import { enrolments } from "./learning";

export const paymentMethod = pgEnum("payment_method", ["mobile_money", "card", "cash"]);
/**
 * "to_reconcile": the provider says it was paid, but the payment had already expired, failed or
 * been superseded (a second checkout paid first). The money was taken: an admin settles it, by
 * reinstating the enrolment (→ completed) or by refunding (→ refunded).
 */
export const paymentStatus = pgEnum("payment_status", ["pending", "completed", "failed", "refunded", "to_reconcile"]);

/**
 * Every attempt to pay for an enrolment: online through a provider (CinetPay, or the sandbox in
 * development), or cash at the institute's offices recorded by an admin. An enrolment becomes
 * active only when one of its payments is completed.
 */
export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    /** Ours, given to the learner and to the provider ("ICEF-7K3P-9QX2"). */
    reference: text("reference").notNull().unique(),
    enrolmentId: integer("enrolment_id")
      .notNull()
      .references(() => enrolments.id, { onDelete: "restrict" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "restrict" }),
    /** Whole FCFA, the course's price when the payment was opened. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("XOF"),
    method: paymentMethod("method").notNull(),
    /** "cinetpay", "sandbox" or "office" (cash). */
    provider: text("provider").notNull(),
    /** The provider's transaction id or operator reference. */
    providerReference: text("provider_reference"),
    /** The provider's payment page for this attempt: a second "S'inscrire" goes back to it instead of opening another. */
    checkoutUrl: text("checkout_url"),
    /** "Orange Money", "VISA"... as the provider reports it. */
    methodDetail: text("method_detail"),
    status: paymentStatus("status").notNull().default("pending"),
    failureReason: text("failure_reason"),
    /** Why the payment waits for an admin (status to_reconcile); kept once settled, for the record. */
    reconcileReason: text("reconcile_reason"),
    /** The paper receipt's number, typed by the admin who took the cash. */
    receiptNumber: text("receipt_number"),
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    refundedBy: text("refunded_by").references(() => users.id, { onDelete: "set null" }),
    refundReason: text("refund_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (table) => [
    index("payments_status_idx").on(table.status, table.createdAt),
    index("payments_enrolment_idx").on(table.enrolmentId),
    index("payments_user_idx").on(table.userId, table.createdAt),
    // Revenue and refunds per period and month, and the transactions newest first (admin finance, analytics, reports).
    index("payments_completed_idx").on(table.completedAt),
    index("payments_refunded_idx").on(table.refundedAt),
    index("payments_created_idx").on(table.createdAt, table.id),
  ],
);

/** What happened to a payment, for support and audit: notifications, checks, refusals, who did what. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: serial("id").primaryKey(),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("payment_events_payment_idx").on(table.paymentId, table.createdAt)],
);

/**
 * The local test gateway's own books (development and tests only): it plays the part of an
 * external provider, so it keeps its transactions apart from ours.
 */
export const sandboxTransactions = pgTable("sandbox_transactions", {
  reference: text("reference").primaryKey(),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  channel: text("channel").notNull(),
  description: text("description").notNull(),
  /** The payer's account: only they may approve it (a real provider asks the payer's own phone or card). */
  customerId: text("customer_id"),
  returnUrl: text("return_url").notNull(),
  notifyUrl: text("notify_url").notNull(),
  /** "pending", "approved" or "refused". */
  status: text("status").notNull().default("pending"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  decidedAt: timestamp("decided_at", { withTimezone: true }),
});
