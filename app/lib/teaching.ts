/** The teacher's space, browser-safe: payout choices, analytics periods, student filters and their labels. */
import { paymentStatusLabels, type PaymentStatus } from "./payments";

export const payoutMethods = ["mobile_money", "bank"] as const;
export type PayoutMethod = (typeof payoutMethods)[number];

export const payoutMethodLabels: Record<PayoutMethod, string> = {
  mobile_money: "Mobile money",
  bank: "Virement bancaire",
};

export const mobileMoneyOperators = ["orange_money", "moov_money", "wave"] as const;
export type MobileMoneyOperator = (typeof mobileMoneyOperators)[number];

export const mobileMoneyOperatorLabels: Record<MobileMoneyOperator, string> = {
  orange_money: "Orange Money",
  moov_money: "Moov Money",
  wave: "Wave",
};

export const BIO_MAX = 2000;

/** Periods of the teacher's analytics (?periode=). */
export const analyticsRanges = ["7j", "30j", "90j", "1an"] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];
export const analyticsRangeLabels: Record<AnalyticsRange, string> = {
  "7j": "7 jours",
  "30j": "30 jours",
  "90j": "90 jours",
  "1an": "1 an",
};

/** Mes Étudiants' status filter: each status and its word in the URL (?statut=en-attente). */
export const enrolmentStatusWords = {
  all: "tous",
  pending_payment: "en-attente",
  active: "en-cours",
  completed: "terminees",
  paused: "suspendues",
  cancelled: "annulees",
} as const;
export const enrolmentStatusFilters = Object.keys(enrolmentStatusWords) as Array<keyof typeof enrolmentStatusWords>;

/** Mes Étudiants' payment column: the payments' own labels, and "Gratuit" for a free course. */
export const studentPaymentLabels: Record<PaymentStatus | "free", string> = { ...paymentStatusLabels, free: "Gratuit" };
