/**
 * Course reviews, shared by the server and the browser: a rating from 1 to 5 and a short text,
 * the same limits in the form (maxLength), the zod schema and the database's check constraints.
 */

export const REVIEW_LIMITS = {
  /** The stars. */
  minRating: 1,
  maxRating: 5,
  /** The text, in characters. */
  minBody: 10,
  maxBody: 1000,
} as const;

export const REVIEW_RATINGS = [5, 4, 3, 2, 1] as const;

/** "5 étoiles - Excellent" for the rating choices. */
export const ratingLabels: Record<number, string> = {
  5: "Excellent",
  4: "Très bien",
  3: "Bien",
  2: "Passable",
  1: "Décevant",
};
