import { Outlet } from "react-router";
import { requireUser } from "~/.server/auth/guards";
import { AppShell } from "~/components/shell/app-shell";
import { mainNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return shellLoaderData(args.request, user);
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const { user, collapsed, toast } = loaderData;
  return (
    <AppShell kind="main" user={user} navigation={mainNavigation(user.role)} collapsed={collapsed} toast={toast}>
      <Outlet />
    </AppShell>
  );
}
