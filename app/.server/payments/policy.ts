import { isAdmin, isSelf, type Actor } from "../auth/actor";

/** Who may do what with payments: the one place these rules are written. */

/** Administrators see every payment, record cash received at the office and refunds. */
export function canManagePayments(actor: Actor | null): boolean {
  return isAdmin(actor);
}

/** A payment (its page, its receipt) is its learner's, and the administrators'. */
export function canViewPayment(actor: Actor | null, payment: { userId: string }): boolean {
  return isSelf(actor, payment.userId) || canManagePayments(actor);
}
