import { Outlet } from "react-router";
import { signedInAdmin } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { mainNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /admin/*: administrators only, in the same shell as /dashboard. */
export const middleware: Route.MiddlewareFunction[] = [signedInAdmin];

export async function loader({ request, context }: Route.LoaderArgs) {
  return shellLoaderData(request, context.get(userContext), context.get(dbContext));
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const { user, collapsed, toast, unreadNotifications, unreadMessages } = loaderData;
  return (
    <AppShell
      kind="main"
      user={user}
      navigation={mainNavigation(user.role)}
      collapsed={collapsed}
      toast={toast}
      unreadNotifications={unreadNotifications}
      unreadMessages={unreadMessages}
    >
      <Outlet />
    </AppShell>
  );
}
