/**
 * Search-engine and sharing tags for public pages.
 *
 * The public layout's loader returns `site` ({ publicUrl, siteName }); a page's `meta` builds its
 * tags from it with `pageMeta`:
 *
 * ```ts
 * import { pageMeta } from "~/lib/seo";
 * export const meta: Route.MetaFunction = ({ matches }) =>
 *   pageMeta(matches, { title: "Contact", description: "Écrivez-nous…", path: "/contact" });
 * ```
 *
 * This gives `<title>Contact | ICEF</title>`, the description, a canonical link on PUBLIC_URL and
 * the Open Graph tags (og:title, og:description, og:url, og:type, og:locale fr_FR, og:site_name).
 * `path` is the page's canonical path, without a query string.
 */
import type { MetaDescriptor } from "react-router";

export interface SiteInfo {
  /** Absolute origin of the public site, from PUBLIC_URL (no trailing slash needed). */
  publicUrl: string;
  /** Short name appended to titles and used as og:site_name. */
  siteName: string;
}

export interface PageSeo {
  title: string;
  description: string;
  /** Canonical path of the page, starting with "/". */
  path: string;
  /** Open Graph type: "website" by default. */
  type?: string;
}

/** Route id of the public layout whose loader data carries `site`. */
export const PUBLIC_LAYOUT_ID = "routes/public/layout";

export function absoluteUrl(publicUrl: string, path: string): string {
  return new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).toString();
}

export function pageTitle(title: string, siteName: string): string {
  return title === siteName ? title : `${title} | ${siteName}`;
}

/** The meta descriptors of one page. */
export function seoMeta(site: SiteInfo, page: PageSeo): MetaDescriptor[] {
  const title = pageTitle(page.title, site.siteName);
  const url = absoluteUrl(site.publicUrl, page.path);
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:locale", content: "fr_FR" },
    { property: "og:site_name", content: site.siteName },
  ];
}

interface MatchLike {
  id: string;
  loaderData?: unknown;
}

/** Reads the `site` returned by the public layout's loader from a meta function's matches. */
export function siteFromMatches(matches: ReadonlyArray<MatchLike | undefined>): SiteInfo | undefined {
  const data = matches.find((match) => match?.id === PUBLIC_LAYOUT_ID)?.loaderData;
  if (!data || typeof data !== "object" || !("site" in data)) return undefined;
  const site = (data as { site: unknown }).site;
  if (
    site &&
    typeof site === "object" &&
    typeof (site as SiteInfo).publicUrl === "string" &&
    typeof (site as SiteInfo).siteName === "string"
  ) {
    return site as SiteInfo;
  }
  return undefined;
}

/**
 * Tags for a page under the public layout. Without the layout's data (an error render), falls
 * back to a plain title and description so the page still has a head.
 */
export function pageMeta(matches: ReadonlyArray<MatchLike | undefined>, page: PageSeo): MetaDescriptor[] {
  const site = siteFromMatches(matches);
  if (!site) return [{ title: page.title }, { name: "description", content: page.description }];
  return seoMeta(site, page);
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no "</script>" can close it. */
export function jsonLd(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
