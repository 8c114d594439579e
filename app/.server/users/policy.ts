import { isAdmin, type Actor } from "../auth/actor";
import { AppError } from "../errors";
import { isAdmin as isAdminRole, type Role } from "~/lib/roles";

export const usersMessages = {
  forbidden: "Action réservée aux administrateurs.",
  notFound: "Utilisateur introuvable.",
  selfDemotion: "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
  selfDeactivation: "Vous ne pouvez pas désactiver votre propre compte.",
  lastAdmin: "Il doit toujours rester au moins un administrateur actif.",
  deletedAccount: "Ce compte a été supprimé par son titulaire : il ne peut plus être modifié ni réactivé.",
} as const;

/** Only administrators manage accounts (defence in depth: the /admin layout guards too). */
export function canManageUsers(actor: Actor | null | undefined): actor is Actor {
  return isAdmin(actor);
}

export function assertCanManageUsers(actor: Actor | null | undefined): asserts actor is Actor {
  if (!canManageUsers(actor)) throw AppError.forbidden(usersMessages.forbidden, "not_admin");
}

/** Whether giving `userId` the role `role` takes an administrator's role away (then the last active one must stay). */
export function removesAdmin(role: Role): boolean {
  return !isAdminRole(role);
}

/** An administrator never takes their own admin role away, nor deactivates their own account. */
export function assertNotSelfDemotion(actor: Actor, userId: string, role: Role) {
  if (userId === actor.id && removesAdmin(role)) throw AppError.conflict(usersMessages.selfDemotion, "self_demotion");
}

export function assertNotSelfDeactivation(actor: Actor, userId: string) {
  if (userId === actor.id) throw AppError.conflict(usersMessages.selfDeactivation, "self_deactivation");
}
