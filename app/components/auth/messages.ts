/** The accounts' messages in French (the spec's error catalogue, with its accents restored). */
export const authMessages = {
  emailTaken: "Cette adresse e-mail est déjà utilisée. Veuillez vous connecter.",
  signUpFailed: "Une erreur est survenue lors de l'inscription.",
  signUpSuccess: "Compte créé avec succès ! Vérifiez votre e-mail pour confirmer votre inscription.",
  invalidCredentials: "E-mail ou mot de passe incorrect.",
  signInFailed: "Une erreur est survenue lors de la connexion.",
  emailNotVerified: "Votre adresse e-mail n'est pas encore confirmée. Ouvrez le lien reçu par e-mail, ou demandez un nouvel envoi.",
  verificationResent: "Un nouvel e-mail de confirmation vous a été envoyé. Vérifiez votre boîte mail.",
  resetSent: "Un e-mail de récupération a été envoyé. Vérifiez votre boîte mail.",
  resetFailed: "Une erreur est survenue lors de l'envoi de l'e-mail de récupération.",
  passwordUpdated: "Mot de passe mis à jour avec succès !",
  passwordUpdateFailed: "Une erreur est survenue lors de la mise à jour du mot de passe.",
  resetLinkInvalid: "Ce lien de réinitialisation n'est plus valable : il a déjà servi ou il a expiré. Demandez-en un nouveau ci-dessous.",
  verificationLinkInvalid:
    "Ce lien de confirmation n'est plus valable : il a expiré ou il est incorrect. Connectez-vous pour en recevoir un nouveau.",
  emailVerified: "Adresse e-mail confirmée. Vous pouvez vous connecter.",
  deactivated: "Ce compte a été désactivé. Contactez l'administration.",
  namesRequired: "Le prénom et le nom sont obligatoires.",
  googleFailed: "Une erreur est survenue lors de la connexion avec Google.",
  googleErrorPrefix: "Erreur lors de la connexion avec Google : ",
  twoFactorInvalid: "Code incorrect. Vérifiez l'heure de votre téléphone et réessayez.",
  twoFactorExpired: "La vérification a expiré. Connectez-vous à nouveau.",
  signedOut: "Vous êtes déconnecté.",
  deviceConfirmed: "Cet appareil est confirmé : connectez-vous maintenant avec votre mot de passe.",
  deviceLinkInvalid:
    "Ce lien de confirmation n'est plus valable : il a déjà servi ou il a expiré. Connectez-vous pour en recevoir un nouveau.",
} as const;

/** "Trop de tentatives. Réessayez dans N minutes." (at least 1 minute). */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Trop de tentatives. Réessayez dans ${minutes} minute${minutes > 1 ? "s" : ""}.`;
}
