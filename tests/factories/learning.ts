import type { Database } from "~/.server/db/client";
import { activateEnrolment, startEnrolment } from "~/.server/learning";
import type { TestUser } from "./users";

/**
 * The learner enrols in the course through the learning capability: a free course opens at once;
 * a paid one waits for its payment, unless `paid` (the enrolment is then opened as a completed
 * payment would; for the payment row itself, use createPayment).
 */
export async function enrol(db: Database, learner: TestUser, course: { id: number }, options: { paid?: boolean } = {}) {
  return db.transaction(async (tx) => {
    const start = await startEnrolment(tx, learner, course.id);
    if (start.kind === "payment_needed" && options.paid) return activateEnrolment(tx, start.enrolment.id);
    return start.enrolment;
  });
}
