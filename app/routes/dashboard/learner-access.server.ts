import { redirect, href } from "react-router";
import { isAppError } from "~/.server/errors";
import { rethrowAsHttp } from "~/.server/http/errors";

/**
 * Runs a learner's read of a course; when the lessons are closed, sends the learner where they can
 * act: the checkout to finish paying, the public page to enrol; a 404 for what does not exist.
 */
export async function asLearner<T>(slug: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isAppError(error, "forbidden") && error.reason === "pending_payment")
      throw redirect(href("/formations/:slug/inscription", { slug }));
    if (isAppError(error, "forbidden") && error.reason === "not_enrolled") throw redirect(href("/formations/:slug", { slug }));
    // "paused" (403) and "not found" (404): the error page, with the message.
    rethrowAsHttp(error);
  }
}

/** A numeric id from the URL ("12"), or 0 (which finds nothing) for anything else. */
export function idParam(value: string | undefined): number {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
}
