import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { recordOfflineProgress } from "~/.server/learning";
import { idParam } from "./learner-access.server";
import type { Route } from "./+types/lecon-progression";

/** What a phone kept offline for a lesson: its furthest video position, and when it was marked done. */
const progressSchema = z
  .object({
    secondes: z.coerce.number().finite().min(0).max(86_400).optional(),
    terminee: z.coerce.date().optional(),
  })
  .refine((value) => value.secondes !== undefined || value.terminee !== undefined);

/** Only POST makes sense here; a GET (a typed address) gets the guard, then 405. */
export async function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}

/**
 * The offline queue's replay (app/lib/offline/outbox.ts): idempotent, so a phone that sends the
 * same progress twice, or late, loses and duplicates nothing. 204 when kept; 404 when the lesson
 * is not the learner's (the phone then drops it); 400 for a malformed body.
 */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const parsed = progressSchema.safeParse(Object.fromEntries(await args.request.formData()));
  const lessonId = idParam(args.params.lessonId);
  if (!parsed.success || !lessonId) return new Response(null, { status: 400 });
  try {
    await recordOfflineProgress(args.context.get(dbContext), user, lessonId, {
      seconds: parsed.data.secondes ?? null,
      doneAt: parsed.data.terminee ?? null,
    });
  } catch (error) {
    if (isAppError(error)) return new Response(null, { status: 404 });
    throw error;
  }
  return new Response(null, { status: 204 });
}
