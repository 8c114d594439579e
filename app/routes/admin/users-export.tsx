import { requireAdmin } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { exportUsersCsv } from "~/.server/users";
import { parseUserFilters } from "~/.server/users/schemas";
import type { Route } from "./+types/users-export";

/** GET /admin/users/export.csv: the users of the current search and filter as a CSV download. */
export async function loader(args: Route.LoaderArgs) {
  const admin = await requireAdmin(args);
  const db = args.context.get(dbContext);
  const filters = parseUserFilters(new URL(args.request.url).searchParams);
  const { filename, body } = await exportUsersCsv(db, admin, filters);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
