import { Outlet, type ShouldRevalidateFunctionArgs } from "react-router";
import { signedInUser } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { isBackgroundSave } from "~/lib/background-save";
import { mainNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

export const middleware: Route.MiddlewareFunction[] = [signedInUser];

export async function loader({ request, context }: Route.LoaderArgs) {
  return shellLoaderData(request, context.get(userContext), context.get(dbContext));
}

/** A quiz answer saved in the background changes nothing in the shell (the bell follows its own events). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return isBackgroundSave(formData) ? false : defaultShouldRevalidate;
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
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
