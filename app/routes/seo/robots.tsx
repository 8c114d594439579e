import { envContext } from "~/.server/context";
import { absoluteUrl } from "~/lib/seo";
import type { Route } from "./+types/robots";

/** Signed-in areas and the auth page are of no use to search engines. */
const DISALLOWED = ["/dashboard", "/admin", "/teacher", "/auth"];

export function loader({ context }: Route.LoaderArgs) {
  const { PUBLIC_URL } = context.get(envContext);
  const body = [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(PUBLIC_URL, "/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
