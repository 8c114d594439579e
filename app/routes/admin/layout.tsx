import { Outlet } from "react-router";
import { requireAdmin } from "~/.server/auth/guards";
import { AppShell } from "~/components/shell/app-shell";
import { mainNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /admin/*: administrators only, in the same shell as /dashboard. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireAdmin(args);
  return shellLoaderData(args.request, user);
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { user, collapsed, toast } = loaderData;
  return (
    <AppShell kind="main" user={user} navigation={mainNavigation(user.role)} collapsed={collapsed} toast={toast}>
      <Outlet />
    </AppShell>
  );
}
