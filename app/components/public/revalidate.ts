import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * Public pages read data that visitors' own actions never change: skip refetching it when only
 * the query string moves (the catalogue filters in the browser) and after the footer's newsletter
 * subscription. Every other navigation or submission revalidates as usual.
 */
export function skipPublicRevalidation({
  currentUrl,
  nextUrl,
  formMethod,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formAction === "/newsletter") return false;
  if (currentUrl.pathname === nextUrl.pathname && (!formMethod || formMethod === "GET")) return false;
  return defaultShouldRevalidate;
}
