import { useMatches } from "react-router";

/** The route id of the public site's layout (app/routes.ts): its pages get the lighter stylesheet. */
const PUBLIC_LAYOUT_ID = "routes/public/layout";

/**
 * What a route module may say of its page in its `handle`:
 * - `stylesheet: "app"`: a public page on the full stylesheet (it then hydrates React);
 * - `hydrate`: whether React takes over the page; the deepest route that says it wins, and a page
 *   none speaks for hydrates (teachers' and admins' areas);
 * - `scripts`: the small scripts a page without React adds to the shared one (`?worker&url`).
 */
export interface PageHandle {
  stylesheet?: "app";
  hydrate?: boolean;
  scripts?: string[];
}

/**
 * What kind of page is being rendered, from its routes' handles: a public one on the light sheet
 * (no React, app/enhance/progressive.ts), one React hydrates, or one it does not (the learner's
 * space: app/enhance/learner.ts and the page's own `scripts`).
 */
export function usePageKind() {
  const matches = useMatches();
  const handles = matches.map((match) => (match.handle ?? {}) as PageHandle);
  const isPublic = matches.some((match) => match.id === PUBLIC_LAYOUT_ID) && !handles.some((handle) => handle.stylesheet === "app");
  const hydrate = !isPublic && (handles.findLast((handle) => handle.hydrate !== undefined)?.hydrate ?? true);
  return { isPublic, hydrate, scripts: handles.flatMap((handle) => handle.scripts ?? []) };
}
