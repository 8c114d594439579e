import { isAdmin, type Actor } from "../auth/actor";

/** Who may read the institute's figures across capabilities (advanced analytics): the one place this rule is written. */

/** Administrators read the advanced analytics and export them. */
export function canViewInstituteAnalytics(actor: Actor | null): boolean {
  return isAdmin(actor);
}
