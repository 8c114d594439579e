/** Enrolment statuses as learners read them. Browser-safe. */
export type EnrolmentStatus = "pending_payment" | "active" | "completed" | "paused" | "cancelled";

export const enrolmentStatusLabels: Record<EnrolmentStatus, string> = {
  pending_payment: "En attente de paiement",
  active: "En cours",
  completed: "Terminée",
  paused: "En pause",
  cancelled: "Annulée",
};
