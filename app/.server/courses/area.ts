import { requireAdmin, requireTeacher, type GuardArgs } from "../auth/guards";

/**
 * The course lists live in two areas: /teacher/courses (a teacher's own courses) and
 * /admin/my-courses (every course). Which one a request is in comes from its path, and so does
 * its guard: /admin/* administrators only, /teacher/* teachers and administrators.
 */
export type CourseListArea = { admin: boolean; path: string; createHref: string };

export function courseListArea(request: Request): CourseListArea {
  const admin = new URL(request.url).pathname.startsWith("/admin/");
  return admin
    ? { admin, path: "/admin/my-courses", createHref: "/admin/create-course" }
    : { admin, path: "/teacher/courses", createHref: "/teacher/create-course" };
}

export function requireCourseListArea(args: GuardArgs) {
  return courseListArea(args.request).admin ? requireAdmin(args) : requireTeacher(args);
}

/** The course lists a form may return to ("Annuler", `?retour=`), and nothing else. */
const listPaths = ["/teacher/courses", "/admin/my-courses"] as const;

/**
 * The course form lives at /admin/create-course (administrators), /teacher/create-course and
 * /dashboard/course-creator(/:id) (teachers and administrators). After saving or on "Annuler" it
 * goes back to the list the user came from (`?retour=`), else to the list of their area.
 */
export function courseFormArea(request: Request, role: string | null) {
  const url = new URL(request.url);
  const admin = url.pathname.startsWith("/admin/") || (!url.pathname.startsWith("/teacher/") && role === "admin");
  const requested = url.searchParams.get("retour");
  const listHref = listPaths.find((path) => path === requested && (role === "admin" || !path.startsWith("/admin/"))) ?? (admin ? "/admin/my-courses" : "/teacher/courses");
  return { listHref };
}

export function requireCourseFormArea(args: GuardArgs) {
  return new URL(args.request.url).pathname.startsWith("/admin/") ? requireAdmin(args) : requireTeacher(args);
}
