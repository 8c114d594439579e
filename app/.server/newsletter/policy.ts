import { isAdmin, type Actor } from "../auth/actor";

/** The newsletter's subscribers, its sending and its exports: admins. */
export function canManageNewsletter(actor: Actor | null | undefined): boolean {
  return isAdmin(actor);
}
