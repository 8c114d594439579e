import { redirect } from "react-router";
import { getOptionalUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { confirmOnlinePayment } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { redirectAfterConfirmation } from "./confirmation.server";
import type { Route } from "./+types/return";

/**
 * Where a provider sends the learner back (/paiement/retour?reference=…), by GET or — CinetPay —
 * by POST. It asks the provider for the payment's status (never trusting the query), settles it,
 * and sends the payer on: to the course when paid, to the payment's page otherwise. Anyone else
 * (another account, a visitor, a reference that does not exist) learns nothing: the same redirect
 * to "Mes paiements" whatever the payment and its outcome.
 */
const nothingToSay = () => redirect("/dashboard/paiements", { status: 303 });

export async function loader(args: Route.LoaderArgs) {
  const reference = new URL(args.request.url).searchParams.get("reference");
  if (!reference) return redirect("/dashboard/formations");
  try {
    const outcome = await confirmOnlinePayment(args.context.get(dbContext), args.context.get(paymentsContext), null, reference, "return");
    const viewer = await getOptionalUser(args);
    if (viewer?.id !== outcome.payerId) return nothingToSay();
    return redirectAfterConfirmation(outcome, { sayPending: false });
  } catch (error) {
    if (isAppError(error, "not_found")) return nothingToSay();
    throw error;
  }
}

/**
 * CinetPay posts the learner back from its own site: a cross-site POST carries no session cookie
 * (SameSite=Lax), so it comes back here by GET, which does, and which settles the payment.
 */
export async function action(args: Route.ActionArgs) {
  const form = await args.request.formData().catch(() => null);
  const posted = form?.get("transaction_id");
  const reference = new URL(args.request.url).searchParams.get("reference") ?? (typeof posted === "string" ? posted : null);
  if (!reference) return redirect("/dashboard/formations", { status: 303 });
  return redirect(`/paiement/retour?reference=${encodeURIComponent(reference.slice(0, 60))}`, { status: 303 });
}
