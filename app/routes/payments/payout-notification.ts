import { dbContext } from "~/.server/context";
import { checkProcessingPayouts, financeContext } from "~/.server/finance";
import type { Route } from "./+types/payout-notification";

/**
 * CinetPay's notification of a commission transfer (POST, client_transaction_id in the body). The
 * body is never trusted: the payout is settled only by asking CinetPay itself. CinetPay pings the
 * address with GET first.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => null);
  const reference = String(form?.get("client_transaction_id") ?? "").slice(0, 40);
  if (/^COM-[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(reference))
    await checkProcessingPayouts(context.get(dbContext), context.get(financeContext), new Date(), reference);
  return new Response("OK");
}

export function loader() {
  return new Response("OK");
}
