import { isAdmin, isSelf, type Actor } from "../auth/actor";

/** Who may do what with commissions, payouts and financial reports: the one place these rules are written. */

/** Administrators see every figure, set rates, pay commissions and generate reports. */
export function canManageFinance(actor: Actor | null): boolean {
  return isAdmin(actor);
}

/** An instructor's commissions and payouts are theirs, and the administrators'. */
export function canViewCommissionsOf(actor: Actor | null, instructorId: string): boolean {
  return isSelf(actor, instructorId) || canManageFinance(actor);
}
