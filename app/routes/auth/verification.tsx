import { redirect } from "react-router";
import { verifyEmail } from "~/.server/auth/flows";
import { cookieHeaders, safeRedirect } from "~/.server/auth/redirect";
import { authContext } from "~/.server/context";
import type { Route } from "./+types/verification";

/**
 * The link of the confirmation mail: confirms the address, signs the visitor in and lands on
 * /dashboard, or on the page that asked for the sign-up (?redirectTo=); a dead link goes back to
 * /auth, which says so.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token") ?? "";
  if (!token || token.length > 2000) throw redirect("/auth?message=verification-invalide");
  const result = await verifyEmail(context.get(authContext), request.headers, token);
  if (!result.ok) throw redirect("/auth?message=verification-invalide");
  // Already confirmed and not signed in (a second click): sign in as usual.
  throw redirect(safeRedirect(params.get("redirectTo")), { headers: cookieHeaders(result.setCookies) });
}
