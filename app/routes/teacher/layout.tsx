import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { signedInTeacher } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { AreaError } from "~/components/shell/area-error";
import { teacherNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /teacher/*: teachers and administrators, in the teacher shell. */
export const middleware: Route.MiddlewareFunction[] = [signedInTeacher];

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
      kind="teacher"
      user={user}
      navigation={teacherNavigation()}
      collapsed={collapsed}
      toast={toast}
      unreadNotifications={unreadNotifications}
      unreadMessages={unreadMessages}
    >
      {children}
    </AppShell>
  );
}

export default function TeacherLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Shell data={loaderData}>
      <Outlet />
    </Shell>
  );
}

/** Any error below (404, 405, 403...) drawn inside the shell, with a way back. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("routes/teacher/layout");
  const page = <AreaError error={error} home={{ to: "/teacher", label: "Retour au portail enseignant" }} />;
  return data ? <Shell data={data}>{page}</Shell> : <main className="p-6">{page}</main>;
}
