import { redirect } from "react-router";
import type { ConfirmOutcome } from "~/.server/payments";
import { redirectWithToast } from "~/.server/toast";

/**
 * Where a learner goes once a payment has been checked with its provider: into the course when
 * it is paid, to the payment's page otherwise (saying it failed, and, when asked, that it is
 * still pending).
 */
export function redirectAfterConfirmation(outcome: ConfirmOutcome, options: { sayPending: boolean }) {
  const paymentPage = `/dashboard/paiements/${outcome.reference}`;
  if (outcome.status === "completed") {
    return redirectWithToast(
      `/dashboard/formations/${outcome.courseSlug}`,
      { type: "success", title: "Paiement confirmé", description: "Votre inscription est active : bonne formation !" },
      { status: 303 },
    );
  }
  if (outcome.status === "failed") {
    return redirectWithToast(
      paymentPage,
      { type: "error", title: "Paiement non abouti", description: outcome.message ?? "Le paiement n'a pas abouti." },
      { status: 303 },
    );
  }
  if (outcome.status === "to_reconcile") {
    return redirectWithToast(
      paymentPage,
      {
        type: "success",
        title: "Paiement reçu",
        description: "L'opérateur confirme votre paiement, arrivé après son expiration : l'institut le vérifie et vous répond vite.",
      },
      { status: 303 },
    );
  }
  if (!options.sayPending) return redirect(paymentPage, { status: 303 });
  return redirectWithToast(
    paymentPage,
    { type: "error", title: "Toujours en attente", description: outcome.message ?? "Le paiement n'est pas encore confirmé." },
    { status: 303 },
  );
}
