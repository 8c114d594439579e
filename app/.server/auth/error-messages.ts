import type { Auth } from "better-auth";
import type { twoFactor } from "better-auth/plugins";
import { authMessages } from "~/components/auth/messages";

/** The codes of Better Auth and of the one plugin createAuth (./auth.ts) adds, two-factor. */
type LibraryCode = keyof Auth<{ plugins: [ReturnType<typeof twoFactor>] }>["$ERROR_CODES"];

/** Codes our own hooks give Better Auth's errors (app/.server/auth/auth.ts, ./throttle.ts). */
type OwnCode = "TOO_MANY_ATTEMPTS" | "DEVICE_CONFIRMATION_REQUIRED" | "PASSWORD_POLICY" | "NAMES_REQUIRED" | "ACCOUNT_DEACTIVATED";

/**
 * Every error code Better Auth (and its two-factor plugin) can answer, in French: the type makes
 * a code added by a new version of the library a compile error until it is translated here. The
 * /auth page and the profile read these; `translateAuthError` (auth.ts) puts them in the JSON the
 * API answers. Wording speaks to the person, never about the library.
 */
export const authErrorMessages: Record<LibraryCode | OwnCode, string> = {
  USER_NOT_FOUND: "Aucun compte ne correspond à cette adresse.",
  FAILED_TO_CREATE_USER: "Le compte n'a pas pu être créé. Réessayez dans un instant.",
  FAILED_TO_CREATE_SESSION: "La connexion n'a pas pu être ouverte. Réessayez dans un instant.",
  FAILED_TO_UPDATE_USER: "Le compte n'a pas pu être mis à jour. Réessayez dans un instant.",
  FAILED_TO_GET_SESSION: "La session n'a pas pu être lue. Reconnectez-vous.",
  INVALID_PASSWORD: "Mot de passe incorrect.",
  INVALID_EMAIL: "Saisissez une adresse e-mail valide.",
  INVALID_EMAIL_OR_PASSWORD: authMessages.invalidCredentials,
  INVALID_USER: "Ce compte n'est pas valable.",
  SOCIAL_ACCOUNT_ALREADY_LINKED: "Ce compte Google est déjà relié à un autre compte.",
  PROVIDER_NOT_FOUND: "Ce moyen de connexion n'est pas disponible.",
  INVALID_TOKEN: "Ce lien n'est plus valable : il a déjà servi ou il est incorrect.",
  TOKEN_EXPIRED: "Ce lien a expiré : demandez-en un nouveau.",
  ID_TOKEN_NOT_SUPPORTED: "Ce moyen de connexion n'est pas disponible.",
  FAILED_TO_GET_USER_INFO: "Les informations du compte Google n'ont pas pu être lues.",
  USER_EMAIL_NOT_FOUND: "Ce compte Google ne donne pas d'adresse e-mail.",
  EMAIL_NOT_VERIFIED: authMessages.emailNotVerified,
  PASSWORD_TOO_SHORT: "Le mot de passe est trop court : au moins 8 caractères.",
  PASSWORD_TOO_LONG: "Le mot de passe est trop long : 128 caractères au plus.",
  USER_ALREADY_EXISTS: authMessages.emailTaken,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: authMessages.emailTaken,
  EMAIL_CAN_NOT_BE_UPDATED: "L'adresse e-mail ne peut pas être modifiée ici.",
  CHANGE_EMAIL_DISABLED: "L'adresse e-mail ne peut pas être modifiée ici.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Ce compte n'a pas de mot de passe (connexion avec Google).",
  SESSION_EXPIRED: "Votre session a expiré : reconnectez-vous pour faire cette action.",
  FAILED_TO_UNLINK_LAST_ACCOUNT: "Vous ne pouvez pas retirer votre seul moyen de connexion.",
  ACCOUNT_NOT_FOUND: "Ce moyen de connexion n'est pas relié à votre compte.",
  USER_ALREADY_HAS_PASSWORD: "Ce compte a déjà un mot de passe.",
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: "Cette connexion doit se faire depuis le site lui-même.",
  VERIFICATION_EMAIL_NOT_ENABLED: "L'envoi des e-mails de confirmation n'est pas disponible.",
  EMAIL_ALREADY_VERIFIED: "Cette adresse e-mail est déjà confirmée : vous pouvez vous connecter.",
  EMAIL_MISMATCH: "Cette adresse e-mail ne correspond pas au compte.",
  SESSION_NOT_FRESH: "Pour cette action, reconnectez-vous d'abord.",
  LINKED_ACCOUNT_ALREADY_EXISTS: "Ce compte est déjà relié.",
  INVALID_ORIGIN: "Cette action doit être faite depuis le site lui-même.",
  INVALID_CALLBACK_URL: "L'adresse de retour demandée n'est pas acceptée.",
  INVALID_REDIRECT_URL: "L'adresse de retour demandée n'est pas acceptée.",
  INVALID_ERROR_CALLBACK_URL: "L'adresse de retour demandée n'est pas acceptée.",
  INVALID_NEW_USER_CALLBACK_URL: "L'adresse de retour demandée n'est pas acceptée.",
  MISSING_OR_NULL_ORIGIN: "Cette action doit être faite depuis le site lui-même.",
  CALLBACK_URL_REQUIRED: "L'adresse de retour manque.",
  FAILED_TO_CREATE_VERIFICATION: "Le lien n'a pas pu être créé. Réessayez dans un instant.",
  FIELD_NOT_ALLOWED: "Un des champs envoyés ne peut pas être modifié.",
  ASYNC_VALIDATION_NOT_SUPPORTED: "La demande n'a pas pu être vérifiée.",
  VALIDATION_ERROR: "La demande est incomplète ou invalide.",
  MISSING_FIELD: "Un champ obligatoire manque.",
  METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED: "Cette adresse n'accepte pas cette méthode.",
  BODY_MUST_BE_AN_OBJECT: "La demande est incomplète ou invalide.",
  PASSWORD_ALREADY_SET: "Ce compte a déjà un mot de passe.",
  OTP_NOT_ENABLED: "Ce code n'est pas disponible pour ce compte.",
  OTP_NOT_CONFIGURED: "Ce code n'est pas disponible pour ce compte.",
  OTP_HAS_EXPIRED: "Ce code a expiré. Demandez-en un nouveau.",
  TOTP_NOT_ENABLED: "La double authentification n'est pas activée sur ce compte.",
  TOTP_ALREADY_ENABLED: "La double authentification est déjà activée.",
  TOTP_NOT_CONFIGURED: "La double authentification n'est pas configurée sur ce compte.",
  TWO_FACTOR_NOT_ENABLED: "La double authentification n'est pas activée sur ce compte.",
  BACKUP_CODES_NOT_ENABLED: "Les codes de secours ne sont pas activés sur ce compte.",
  INVALID_BACKUP_CODE: "Code de secours incorrect.",
  INVALID_CODE: authMessages.twoFactorInvalid,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Trop de codes incorrects : reconnectez-vous pour recevoir une nouvelle vérification.",
  ACCOUNT_TEMPORARILY_LOCKED: "Trop de codes incorrects : réessayez dans quelques minutes.",
  INVALID_TWO_FACTOR_COOKIE: authMessages.twoFactorExpired,
  TOO_MANY_ATTEMPTS: "Trop de tentatives. Réessayez dans quelques minutes.",
  DEVICE_CONFIRMATION_REQUIRED:
    "Pour protéger ce compte, une connexion depuis un nouvel appareil doit être confirmée : si l'adresse et le mot de passe sont justes, nous venons d'envoyer un lien à cette adresse. Ouvrez-le sur cet appareil, puis connectez-vous.",
  PASSWORD_POLICY: "Ce mot de passe ne convient pas.",
  NAMES_REQUIRED: authMessages.namesRequired,
  ACCOUNT_DEACTIVATED: authMessages.deactivated,
};

/** HTTP-level codes better-call gives an error without a code of ours ("UNAUTHORIZED", "NOT_FOUND"...). */
const statusMessages: Record<string, string> = {
  BAD_REQUEST: "La demande est incomplète ou invalide.",
  UNAUTHORIZED: "Connectez-vous pour faire cette action.",
  FORBIDDEN: "Cette action ne vous est pas permise.",
  NOT_FOUND: "Introuvable.",
  TOO_MANY_REQUESTS: "Trop de tentatives. Réessayez dans quelques minutes.",
  INTERNAL_SERVER_ERROR: "Une erreur est survenue. Réessayez dans un instant.",
};

/** The French message of an auth error code (a Better Auth code, one of ours, or an HTTP status name). */
export function frenchAuthMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return (authErrorMessages as Record<string, string>)[code] ?? statusMessages[code] ?? null;
}

/** The French fallback for an error without any known code. */
export const unknownAuthErrorMessage = statusMessages.INTERNAL_SERVER_ERROR!;
