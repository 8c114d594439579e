import { dbContext } from "~/.server/context";
import { requireCourseListArea } from "~/.server/courses/area";
import { exportCoursesCsv } from "~/.server/courses/csv";
import { parseCourseFilters } from "~/.server/courses/list";
import type { Route } from "./+types/course-list-export";

/** GET /teacher/courses/export.csv and /admin/my-courses/export.csv: the listed courses as a CSV download. */
export async function loader(args: Route.LoaderArgs) {
  const actor = await requireCourseListArea(args);
  const db = args.context.get(dbContext);
  const filters = parseCourseFilters(new URL(args.request.url).searchParams);
  const { filename, body } = await exportCoursesCsv(db, actor, filters);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
