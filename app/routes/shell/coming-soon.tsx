import { data } from "react-router";
import { ComingSoon, upcomingKey } from "~/components/shell/coming-soon";
import { upcomingScreens } from "~/lib/sidebar";
import type { Route } from "./+types/coming-soon";

/**
 * A sidebar entry whose screen is not built yet, in all three areas (one module, several route ids
 * in app/routes.ts), guarded by its area's layout. The screen comes from the path's key, so a path
 * that matched the route another way (other case, encoded letters) finds no screen: 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const key = upcomingKey(new URL(args.request.url).pathname);
  const screen = upcomingScreens[key];
  if (!screen) throw data(null, { status: 404 });
  return { screen };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.screen.title} · Bientôt disponible` : "Page introuvable" }];
}

export default function UpcomingScreenPage({ loaderData }: Route.ComponentProps) {
  return <ComingSoon screen={loaderData.screen} />;
}
