import type { EnrolmentStatus } from "./learning";

/** The administrators' enrolment screen (browser-safe): the badge colour of each status, the kinds of place given by hand. */
export const enrolmentStatusTones = {
  pending_payment: "amber",
  active: "blue",
  completed: "green",
  paused: "neutral",
  cancelled: "red",
} as const satisfies Record<EnrolmentStatus, string>;

export const grantKindLabels = { free_place: "Place gratuite", scholarship: "Bourse" } as const;
