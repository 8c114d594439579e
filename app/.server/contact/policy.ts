import { isAdmin, type Actor } from "../auth/actor";
import { AppError } from "../errors";

export const inboxMessages = {
  forbidden: "La boîte de réception est réservée aux administrateurs.",
  notFound: "Message introuvable.",
} as const;

/** Only administrators read and answer the contact form's messages (the /admin layout guards too). */
export function canManageInbox(actor: Actor | null | undefined): actor is Actor {
  return isAdmin(actor);
}

export function assertCanManageInbox(actor: Actor | null | undefined): asserts actor is Actor {
  if (!canManageInbox(actor)) throw AppError.forbidden(inboxMessages.forbidden, "not_admin");
}
