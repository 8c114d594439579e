import { countDistinct, inArray } from "drizzle-orm";
import { cachedRead } from "../cache";
import type { Database } from "../db/client";
import { enrolments } from "../db/schema";

/** The enrolments a course's learner figure counts (as course_learner_counts does): not pending, not cancelled. */
const COUNTED_ENROLMENTS = ["active", "completed", "paused"] as const;

/**
 * How many people learn on the platform (home, about): learners with at least one enrolment that
 * counts in a course's figure (docs/decisions/0044-public-student-counts.md). Cached on
 * course_learner_counts, which learning changes in every transaction that can change this.
 */
export async function countPlatformLearners(db: Database): Promise<number> {
  return cachedRead(db, "platform-learners", ["course_learner_counts"], async () => {
    const [row] = await db
      .select({ learners: countDistinct(enrolments.userId) })
      .from(enrolments)
      .where(inArray(enrolments.status, [...COUNTED_ENROLMENTS]));
    return row?.learners ?? 0;
  });
}
