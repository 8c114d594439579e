import type { Database } from "~/.server/db/client";
import { saveReview } from "~/.server/reviews";
import type { TestUser } from "./users";

/** The learner's review of a course they follow, through the reviews capability: 5 stars by default. */
export async function createReview(
  db: Database,
  learner: TestUser,
  course: { id: number },
  overrides: { rating?: number; body?: string; now?: Date } = {},
) {
  return saveReview(
    db,
    learner,
    course.id,
    { rating: overrides.rating ?? 5, body: overrides.body ?? "Une formation claire et très utile." },
    overrides.now,
  );
}
