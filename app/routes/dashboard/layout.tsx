import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import { signedInUser } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { AreaError } from "~/components/shell/area-error";
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

type ShellData = Route.ComponentProps["loaderData"];

function Shell({
  data: { user, collapsed, toast, unreadNotifications, unreadMessages },
  children,
}: {
  data: ShellData;
  children: ReactNode;
}) {
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
      {children}
    </AppShell>
  );
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Shell data={loaderData}>
      <Outlet />
    </Shell>
  );
}

/** Any error below (404, 405, 403...) drawn inside the shell, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("routes/dashboard/layout");
  const page = <AreaError error={error} home={{ to: "/dashboard", label: "Retour au tableau de bord" }} />;
  return data ? <Shell data={data}>{page}</Shell> : <main className="p-6">{page}</main>;
}
