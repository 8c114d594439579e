import { dbContext, userContext } from "~/.server/context";
import { csvDownload } from "~/.server/http/csv";
import { exportCoursesCsv, parseCourseFilters } from "~/.server/reports";
import type { Route } from "./+types/course-list-export";

/** GET /teacher/courses/export.csv and /admin/my-courses/export.csv: the listed courses as a CSV download. */
export async function loader(args: Route.LoaderArgs) {
  const actor = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const filters = parseCourseFilters(new URL(args.request.url).searchParams);
  const { filename, body } = await exportCoursesCsv(db, actor, filters);
  return csvDownload(filename, body);
}
