import { dbContext, userContext } from "~/.server/context";
import { csvDownload } from "~/.server/http/csv";
import { exportUsersCsv } from "~/.server/users";
import { parseUserFilters } from "~/.server/users/schemas";
import type { Route } from "./+types/users-export";

/** GET /admin/users/export.csv: the users of the current search and filter as a CSV download. */
export async function loader(args: Route.LoaderArgs) {
  const admin = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const filters = parseUserFilters(new URL(args.request.url).searchParams);
  const { filename, body } = await exportUsersCsv(db, admin, filters);
  return csvDownload(filename, body);
}
