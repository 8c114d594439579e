import { canTeach, type Actor } from "../auth/actor";

/**
 * Who may delete their own account: learners. A teacher's or an administrator's account carries
 * what others depend on (courses and their learners, payouts, the institute's administration): an
 * administrator hands it over first, then deactivates it (docs/decisions/0045-account-deletion.md).
 */
export function canDeleteOwnAccount(actor: Actor | null): boolean {
  return actor !== null && actor.role !== null && !canTeach(actor);
}
