import { redirect } from "react-router";
import { dbContext, envContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { rethrowAsHttp } from "~/.server/http/errors";
import { joinSession, liveRoomsFrom } from "~/.server/live-sessions";
import { redirectWithToast } from "~/.server/toast";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/session-join";

/** Only POST makes sense here; a GET (a typed address) gets the guard, then 405. */
export async function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}

/**
 * "Rejoindre" / "Démarrer" (a POST: it records attendance): to the room, for the course's
 * teacher, admins and learners, inside the window; otherwise back with the reason.
 */
export async function action({ params, context }: Route.ActionArgs) {
  const id = serialIdSchema.catch(0).parse(params.id);
  try {
    const url = await joinSession(context.get(dbContext), context.get(userContext), id, liveRoomsFrom(context.get(envContext)));
    return redirect(url, { status: 303 });
  } catch (error) {
    if (isAppError(error, "conflict") || isAppError(error, "unavailable")) {
      return redirectWithToast("/dashboard/sessions", { type: "error", title: error.message }, { status: 303 });
    }
    rethrowAsHttp(error);
  }
}
