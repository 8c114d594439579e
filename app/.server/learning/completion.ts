import type { Database } from "../db/client";
import { enqueueJob } from "../jobs";

/**
 * "This learner may have just completed this course": asked by whatever moves a learner forward (a
 * lesson marked done, a quiz passed), inside that change's transaction. The job runs after the
 * change commits; the certificates capability handles it (app/.server/http/app.ts), checks the
 * completion rule on committed data and issues the certificate once. Two changes racing each ask,
 * and the job of the later commit sees both, so the rule is never missed and never acted on twice.
 */
export const COMPLETION_CHECK_QUEUE = "enrolments.completion-check";

export type CompletionCheck = { userId: string; courseId: number };

export async function requestCompletionCheck(tx: Database, check: CompletionCheck, now = new Date()) {
  await enqueueJob(tx, COMPLETION_CHECK_QUEUE, check, { now });
}
