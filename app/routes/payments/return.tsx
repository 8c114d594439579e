import { redirect } from "react-router";
import { dbContext } from "~/.server/context";
import { confirmOnlinePayment, PaymentError } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectWithToast } from "~/.server/toast";
import type { Route } from "./+types/return";

/**
 * Where a provider sends the learner back (/paiement/retour?reference=…), by GET or — CinetPay —
 * by POST. It asks the provider for the payment's status (never trusting the query), settles it,
 * and sends the learner on: to the course when paid, to the payment's page otherwise. It needs no
 * session: a cross-site POST carries none, and the next page asks for it.
 */
async function settle(args: Route.LoaderArgs, reference: string | null) {
  if (!reference) return redirect("/dashboard/formations");
  try {
    const outcome = await confirmOnlinePayment(args.context.get(dbContext), args.context.get(paymentsContext), null, reference, "return");
    if (outcome.status === "completed") {
      return redirectWithToast(
        `/dashboard/formations/${outcome.courseSlug}`,
        { type: "success", title: "Paiement confirmé", description: "Votre inscription est active : bonne formation !" },
        { status: 303 },
      );
    }
    if (outcome.status === "failed") {
      return redirectWithToast(
        `/dashboard/paiements/${outcome.reference}`,
        { type: "error", title: "Paiement non abouti", description: outcome.message ?? "Le paiement n'a pas abouti." },
        { status: 303 },
      );
    }
    return redirect(`/dashboard/paiements/${outcome.reference}`, { status: 303 });
  } catch (error) {
    if (error instanceof PaymentError) return redirect("/dashboard/paiements", { status: 303 });
    throw error;
  }
}

export function loader(args: Route.LoaderArgs) {
  return settle(args, new URL(args.request.url).searchParams.get("reference"));
}

export async function action(args: Route.ActionArgs) {
  const form = await args.request.formData().catch(() => null);
  const posted = form?.get("transaction_id");
  return settle(args, new URL(args.request.url).searchParams.get("reference") ?? (typeof posted === "string" ? posted : null));
}
