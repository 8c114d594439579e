import { dbContext } from "~/.server/context";
import { plainTextError } from "~/.server/http/errors";
import { handlePaymentNotification } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import type { Route } from "./+types/notification";

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** Providers check that the address answers before they post to it. */
export function loader() {
  return text("OK", 200);
}

/**
 * A provider's server-to-server notification (/api/paiements/notification/:provider): authentic
 * by its signature, then confirmed with the provider itself before anything changes. Sent twice,
 * it changes nothing the second time.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  try {
    const outcome = await handlePaymentNotification(context.get(dbContext), context.get(paymentsContext), params.provider, request);
    return outcome ? text("OK", 200) : text("Notification refusée.", 401);
  } catch (error) {
    return plainTextError(error);
  }
}
