import { Outlet } from "react-router";
import { signedInTeacher } from "~/.server/auth/middleware";
import { dbContext, userContext } from "~/.server/context";
import { AppShell } from "~/components/shell/app-shell";
import { teacherNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /teacher/*: teachers and administrators, in the teacher shell. */
export const middleware: Route.MiddlewareFunction[] = [signedInTeacher];

export async function loader({ request, context }: Route.LoaderArgs) {
  return shellLoaderData(request, context.get(userContext), context.get(dbContext));
}

export default function TeacherLayout({ loaderData }: Route.ComponentProps) {
  const { user, collapsed, toast, unreadNotifications, unreadMessages } = loaderData;
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
      <Outlet />
    </AppShell>
  );
}
