import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { saveVideoPosition } from "~/.server/learning";
import type { Route } from "./+types/lecon-position";

const positionSchema = z.object({ seconds: z.coerce.number().finite().min(0).max(86_400) });

/** Only POST makes sense here; a GET (a typed address) gets the guard, then 405. */
export async function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}

/** The player's "I stopped here" (every few seconds of video, and when the page closes). */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const parsed = positionSchema.safeParse(Object.fromEntries(await args.request.formData()));
  const lessonId = /^\d{1,9}$/.test(args.params.lessonId) ? Number(args.params.lessonId) : 0;
  if (!parsed.success || !lessonId) return new Response(null, { status: 400 });
  try {
    await saveVideoPosition(args.context.get(dbContext), user, lessonId, parsed.data.seconds);
  } catch (error) {
    if (isAppError(error)) return new Response(null, { status: 404 });
    throw error;
  }
  return new Response(null, { status: 204 });
}
