import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { signedInAdmin } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { AreaError } from "~/components/shell/area-error";
import { mainNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /admin/*: administrators only, in the same shell as /dashboard. */
export const middleware: Route.MiddlewareFunction[] = [signedInAdmin];

export async function loader({ request, context }: Route.LoaderArgs) {
  return shellLoaderData(request, context.get(userContext), context.get(dbContext));
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

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Shell data={loaderData}>
      <Outlet />
    </Shell>
  );
}

/** Any error below (404, 405, 403...) drawn inside the shell, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("routes/admin/layout");
  const page = <AreaError error={error} home={{ to: "/admin", label: "Retour au tableau de bord de l'administration" }} />;
  return data ? <Shell data={data}>{page}</Shell> : <main className="p-6">{page}</main>;
}
