import { dbContext, envContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { sessionIcs } from "~/.server/live-sessions";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/session-ics";

/** One live session as an .ics file, for whoever may see the session (its learners, its managers). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = serialIdSchema.catch(0).parse(params.id);
  const ics = await orHttpError(sessionIcs(context.get(dbContext), context.get(userContext), id, context.get(envContext).PUBLIC_URL));
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="session-${id}.ics"`,
      "Cache-Control": "private, no-store",
    },
  });
}
