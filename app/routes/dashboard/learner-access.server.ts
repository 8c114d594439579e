import { data, redirect } from "react-router";
import { LessonAccessError } from "~/.server/learning";

/**
 * Runs a learner's read of a course; when the lessons are closed, sends the learner where they can
 * act: the checkout to finish paying, the public page to enrol; a 404 for what does not exist.
 */
export async function asLearner<T>(slug: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof LessonAccessError)) throw error;
    if (error.kind === "pending_payment") throw redirect(`/formations/${slug}/inscription`);
    if (error.kind === "not_enrolled") throw redirect(`/formations/${slug}`);
    if (error.kind === "paused") throw data({ paused: true }, { status: 403 });
    throw data(null, { status: 404 });
  }
}
