/** Payment statuses and methods as the screens name them. Browser-safe. */
export type PaymentStatus = "pending" | "completed" | "failed" | "refunded" | "to_reconcile";
export type PaymentMethod = "mobile_money" | "card" | "cash";

export const paymentStatusLabels: Record<PaymentStatus, string> = {
  pending: "En attente",
  completed: "Payé",
  failed: "Échoué",
  refunded: "Remboursé",
  // Paid at the provider after the payment had failed (expired, refused, replaced): an admin settles it.
  to_reconcile: "Payé — à rapprocher",
};

/** The spec's colours: completed green, pending yellow, failed red (refunded stays neutral; to reconcile: blue, money to settle). */
export const paymentStatusTones = {
  pending: "amber",
  completed: "green",
  failed: "red",
  refunded: "neutral",
  to_reconcile: "blue",
} as const satisfies Record<PaymentStatus, string>;

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  mobile_money: "Mobile money",
  card: "Carte bancaire",
  cash: "Espèces à l'institut",
};

/** When a pending payment stops being honoured (48 hours after it was opened). */
export const PAYMENT_EXPIRY_MS = 48 * 60 * 60 * 1000;
