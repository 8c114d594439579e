import { dbContext, userContext } from "~/.server/context";
import { csvDownload } from "~/.server/http/csv";
import { orHttpError } from "~/.server/http/errors";
import { exportSubscribersCsv, parseSubscriberFilters } from "~/.server/newsletter";
import type { Route } from "./+types/newsletter-export";

/** GET /admin/newsletter/abonnes.csv: the subscribers of the current filter as a CSV download. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const filters = parseSubscriberFilters(new URL(request.url).searchParams);
  const { filename, body } = await orHttpError(exportSubscribersCsv(context.get(dbContext), context.get(userContext), filters));
  return csvDownload(filename, body);
}
