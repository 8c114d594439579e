import { isAdmin, isSelf, type Actor } from "../auth/actor";

/**
 * Who may read or change a teacher's settings: the teacher themself; administrators read the
 * payout details (commissions) and may correct them. A leaf module.
 */
export function canEditTeacherProfile(actor: Actor | null, teacherId: string): boolean {
  return isSelf(actor, teacherId) || isAdmin(actor);
}

export function canReadPayoutDetails(actor: Actor | null, teacherId: string): boolean {
  return isSelf(actor, teacherId) || isAdmin(actor);
}

/** Every teacher's payout details at once (the commissions screen): admins. */
export function canListPayoutDetails(actor: Actor | null): boolean {
  return isAdmin(actor);
}
