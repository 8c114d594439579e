import { dbContext, userContext } from "~/.server/context";
import { csvDownload } from "~/.server/http/csv";
import { exportTeacherStudentsCsv, parseStudentFilters } from "~/.server/reports";
import type { Route } from "./+types/students-export";

/** GET /teacher/students/export.csv: the listed students (same filters) as a CSV download. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const filters = parseStudentFilters(new URL(request.url).searchParams);
  const { filename, body } = await exportTeacherStudentsCsv(context.get(dbContext), context.get(userContext), filters);
  return csvDownload(filename, body);
}
