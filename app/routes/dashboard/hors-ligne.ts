import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { httpStatusOf } from "~/.server/http/errors";
import { getOfflinePlan } from "~/.server/learning";
import { idParam } from "./learner-access.server";
import type { Route } from "./+types/hors-ligne";

const noStore = { "Cache-Control": "no-store" };

/**
 * What downloading a course (or ?lecon=ID, one lesson) for offline use stores, with every size, as
 * JSON for the "Télécharger pour hors ligne" panel. Only for the course's learners: else 403/404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const lesson = args.url.searchParams.get("lecon");
  try {
    const plan = await getOfflinePlan(args.context.get(dbContext), user, args.params.slug, lesson === null ? null : idParam(lesson));
    return Response.json(plan, { headers: noStore });
  } catch (error) {
    if (isAppError(error)) return Response.json({ message: error.message }, { status: httpStatusOf[error.code], headers: noStore });
    throw error;
  }
}
