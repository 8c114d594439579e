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
