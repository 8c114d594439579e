import { dbContext, userContext } from "~/.server/context";
import { csvDownload } from "~/.server/http/csv";
import { orHttpError } from "~/.server/http/errors";
import { exportQuizResultsCsv, parseResultFilters } from "~/.server/quizzes";
import type { Route } from "./+types/quiz-export";

/** GET /teacher/quiz/:id/resultats.csv: the quiz's results as filtered and sorted on screen, named "<quiz>-resultats.csv". */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const filters = parseResultFilters(url.searchParams);
  const { filename, body } = await orHttpError(exportQuizResultsCsv(context.get(dbContext), context.get(userContext), id, filters));
  return csvDownload(filename, body);
}
