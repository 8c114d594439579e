import { canTeach as roleCanTeach, isAdmin as roleIsAdmin, type Role } from "~/lib/roles";

/**
 * Whoever acts, as every capability function takes it: the signed-in user (the router context's
 * `userContext`, a SessionUser, is one), of which only the id and the role matter. A role that
 * failed to load is null and grants nothing.
 */
export type Actor = { id: string; role: Role | null };

/**
 * The role helpers, the only place outside policy modules where a role is compared: capabilities
 * ask "may this actor...?" of their policy.ts, which builds on these.
 */
export function isAdmin(actor: Actor | null | undefined): boolean {
  return roleIsAdmin(actor?.role);
}

/** Teachers, and administrators (who may do whatever a teacher does). */
export function canTeach(actor: Actor | null | undefined): boolean {
  return roleCanTeach(actor?.role);
}

/** The actor is this user. */
export function isSelf(actor: Actor | null | undefined, userId: string | null | undefined): boolean {
  return actor != null && userId != null && actor.id === userId;
}
