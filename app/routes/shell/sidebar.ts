import { redirect } from "react-router";
import { requireUser } from "~/.server/auth/guards";
import { sidebarCookieValue } from "~/lib/sidebar";
import type { Route } from "./+types/sidebar";

/** Only same-site paths: "/x" but never "//host" or "/\host". */
function safeRedirect(value: FormDataEntryValue | null, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}

/**
 * The sidebar's collapse toggle without JavaScript: stores the state in the 7-day cookie and goes
 * back to the page (with JavaScript the shell writes the cookie itself and never posts here).
 */
export async function action(args: Route.ActionArgs) {
  await requireUser(args);
  const form = await args.request.formData();
  const collapsed = form.get("collapsed") === "true";
  const secure = new URL(args.request.url).protocol === "https:" || (process.env.PUBLIC_URL ?? "").startsWith("https://");
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": sidebarCookieValue(collapsed, secure) },
  });
}

export async function loader(args: Route.LoaderArgs) {
  await requireUser(args);
  return redirect("/dashboard");
}
