/** Errors of the users capability; `message` is French and safe to show to the admin. */
export class UsersError extends Error {
  constructor(
    readonly code: "forbidden" | "not_found" | "self_demotion" | "self_deactivation" | "last_admin" | "duplicate_email" | "invalid",
    message: string,
    /** The form field the message belongs beside, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "UsersError";
  }
}

export const usersMessages = {
  forbidden: "Action réservée aux administrateurs.",
  notFound: "Utilisateur introuvable.",
  selfDemotion: "Vous ne pouvez pas retirer votre propre rôle d'administrateur.",
  selfDeactivation: "Vous ne pouvez pas désactiver votre propre compte.",
  lastAdmin: "Il doit toujours rester au moins un administrateur actif.",
  duplicateEmail: "Un compte existe déjà avec cette adresse e-mail.",
} as const;
