import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { httpStatusOf } from "~/.server/http/errors";
import { recordOfflineAttempt } from "~/.server/quizzes";
import { answersOf } from "~/lib/quiz";
import { idParam } from "./learner-access.server";
import type { Route } from "./+types/quiz-hors-ligne";

/**
 * What a phone kept offline for an untimed quiz: the attempt's id it made, when it was answered,
 * and the attempt started online it finishes, if any.
 */
const attemptSchema = z.object({
  tentative: z.uuid(),
  repondu: z.coerce.date(),
  ouverte: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** Only POST makes sense here; a GET (a typed address) gets the guard, then 405. */
export async function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}

/**
 * The offline queue's replay of an untimed quiz answered without network (app/lib/offline/outbox.ts):
 * idempotent on the attempt's id, so a phone that sends it twice records one attempt. 204 when
 * recorded (or already); 400 for a malformed body; 404 for a quiz that is not the learner's (or an
 * id that is someone else's), 409 for a timed quiz or no attempt left, with the reason in French
 * (text): the phone drops those and tells the learner why. 403
 * while the learner's enrolment is paused: the phone keeps it.
 */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const form = await args.request.formData();
  const parsed = attemptSchema.safeParse(Object.fromEntries(form));
  const quizId = idParam(args.params.quizId);
  if (!parsed.success || !quizId) return new Response(null, { status: 400 });
  try {
    await recordOfflineAttempt(args.context.get(dbContext), user, args.params.slug, quizId, {
      clientId: parsed.data.tentative,
      answers: answersOf(form),
      answeredAt: parsed.data.repondu,
      openAttemptId: parsed.data.ouverte,
    });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const waits = isAppError(error, "forbidden") && error.reason === "paused";
    if (error.code === "conflict") {
      return new Response(error.message, { status: 409, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
    return new Response(null, { status: waits ? 403 : error.code === "forbidden" ? 404 : httpStatusOf[error.code] });
  }
  return new Response(null, { status: 204 });
}
