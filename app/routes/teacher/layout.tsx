import { Outlet } from "react-router";
import { requireTeacher } from "~/.server/auth/guards";
import { AppShell } from "~/components/shell/app-shell";
import { teacherNavigation } from "~/lib/sidebar";
import { shellLoaderData } from "../shell/shell-data.server";
import type { Route } from "./+types/layout";

/** /teacher/*: teachers and administrators, in the teacher shell. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireTeacher(args);
  return shellLoaderData(args.request, user);
}

export default function TeacherLayout({ loaderData }: Route.ComponentProps) {
  const { user, collapsed, toast } = loaderData;
  return (
    <AppShell kind="teacher" user={user} navigation={teacherNavigation()} collapsed={collapsed} toast={toast}>
      <Outlet />
    </AppShell>
  );
}
