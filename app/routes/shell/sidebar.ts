import { redirect } from "react-router";
import { signedInUser } from "~/.server/auth/middleware";
import { safeRedirect } from "~/.server/auth/redirect";
import { sidebarCookieValue } from "~/lib/sidebar";
import type { Route } from "./+types/sidebar";

/** Outside the signed-in layouts: its own guard. */
export const middleware: Route.MiddlewareFunction[] = [signedInUser];

/**
 * The sidebar's collapse toggle without JavaScript: stores the state in the 7-day cookie and goes
 * back to the page (with JavaScript the shell writes the cookie itself and never posts here).
 */
export async function action(args: Route.ActionArgs) {
  const form = await args.request.formData();
  const collapsed = form.get("collapsed") === "true";
  const secure = new URL(args.request.url).protocol === "https:" || (process.env.PUBLIC_URL ?? "").startsWith("https://");
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": sidebarCookieValue(collapsed, secure) },
  });
}

export async function loader() {
  return redirect("/dashboard");
}
