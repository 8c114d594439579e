import { isAdmin, type Actor } from "~/.server/auth/actor";

/**
 * The course screens live in two areas, and which one a request is in comes from its path (the
 * layouts' middleware has already checked who may be there): /admin/my-courses lists every course,
 * /teacher/courses a teacher's own.
 */
export type CourseListArea = { admin: boolean; path: string; createHref: string };

export function courseListArea(request: Request): CourseListArea {
  const admin = new URL(request.url).pathname.startsWith("/admin/");
  return admin
    ? { admin, path: "/admin/my-courses", createHref: "/admin/create-course" }
    : { admin, path: "/teacher/courses", createHref: "/teacher/create-course" };
}

/** The course lists a form may return to ("Annuler", `?retour=`), and nothing else. */
const listPaths = ["/teacher/courses", "/admin/my-courses"] as const;

/**
 * The course form lives at /admin/create-course (administrators), /teacher/create-course and
 * /dashboard/course-creator(/:id) (teachers and administrators). After saving or on "Annuler" it
 * goes back to the list the user came from (`?retour=`, an admin list only for an admin), else to
 * the list of their area.
 */
export function courseFormArea(request: Request, actor: Actor) {
  const url = new URL(request.url);
  const admin = url.pathname.startsWith("/admin/") || (!url.pathname.startsWith("/teacher/") && isAdmin(actor));
  const requested = url.searchParams.get("retour");
  const listHref =
    listPaths.find((path) => path === requested && (isAdmin(actor) || !path.startsWith("/admin/"))) ??
    (admin ? "/admin/my-courses" : "/teacher/courses");
  return { listHref };
}
