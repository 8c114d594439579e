import { data } from "react-router";
import { requireAdmin, requireTeacher, requireUser } from "~/.server/auth/guards";
import { ComingSoon, upcomingKey } from "~/components/shell/coming-soon";
import { upcomingScreens } from "~/lib/sidebar";
import type { Route } from "./+types/coming-soon";

/**
 * Who may open a screen (document 1's guards): /admin/* administrators, /teacher/* teachers (or
 * administrators), the rest of /dashboard any signed-in user.
 */
function guardFor(key: string) {
  if (key === "admin" || key.startsWith("admin/")) return requireAdmin;
  if (key === "teacher" || key.startsWith("teacher/")) return requireTeacher;
  return requireUser;
}

/**
 * A sidebar entry whose screen is not built yet, in all three areas (one module, several route ids
 * in app/routes.ts). The guard and the screen come from the same key, so a path that escapes the
 * guard's rule (other case, encoded letters) finds no screen either: 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const key = upcomingKey(new URL(args.request.url).pathname);
  await guardFor(key)(args);
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
