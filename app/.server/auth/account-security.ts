import QRCode from "qrcode";
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, passwordMessages } from "~/lib/password-policy";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { AppError, validate } from "../errors";
import type { Auth } from "./auth";
import { frenchAuthMessage } from "./error-messages";
import { cookiesOf, errorCode, errorMessage } from "./flows";

/**
 * The account operations of the profile's "Sécurité" tab: change the password, turn two-factor
 * sign-in on and off. Each goes through Better Auth with the request's headers (its session
 * cookie), answers the Set-Cookie headers to forward (Better Auth renews the session), and
 * refuses with an AppError whose French messages sit beside the form's fields.
 */

export const accountSecurityMessages = {
  currentPasswordRequired: "Saisissez votre mot de passe actuel.",
  currentPasswordWrong: "Mot de passe actuel incorrect.",
  samePassword: "Le nouveau mot de passe doit être différent de l'actuel.",
  noPassword: "Votre compte n'a pas de mot de passe (connexion avec Google).",
  tooManyAttempts: "Trop de tentatives.",
  passwordChangeFailed: "Impossible de modifier le mot de passe.",
  passwordRequired: "Saisissez votre mot de passe.",
  passwordWrong: "Mot de passe incorrect.",
  passwordCheckFailed: "Impossible de vérifier le mot de passe. Réessayez.",
  twoFactorAlreadyOn: "La double authentification est déjà activée.",
  twoFactorEnableFailed: "Impossible d'activer la double authentification.",
  twoFactorDisableFailed: "Impossible de désactiver la double authentification.",
  codeFormat: "Saisissez le code à 6 chiffres affiché par votre application.",
  codeWrong: "Code incorrect. Vérifiez l'heure de votre téléphone et réessayez.",
  setupExpired: "Recommencez la configuration : saisissez à nouveau votre mot de passe.",
  codeCheckFailed: "Impossible de vérifier le code. Réessayez.",
} as const;
const m = accountSecurityMessages;

type Meta = { ipAddress?: string | null; userAgent?: string | null };
/** What Better Auth answered to forward onto the response. */
export type SetCookies = { headers: Headers };

function setCookieHeaders(headers: Headers | null | undefined): Headers {
  const forwarded = new Headers();
  for (const cookie of cookiesOf(headers)) forwarded.append("Set-Cookie", cookie);
  return forwarded;
}

const text = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string());

const passwordChangeSchema = z
  .object({ currentPassword: text, newPassword: text, confirmPassword: text })
  .superRefine(({ currentPassword, newPassword, confirmPassword }, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: "custom", path: [path], message });
    if (!currentPassword) issue("currentPassword", m.currentPasswordRequired);
    // No password can be longer than the policy allows: a longer "current" one is simply wrong.
    else if (currentPassword.length > PASSWORD_MAX_LENGTH) issue("currentPassword", m.currentPasswordWrong);
    if (!newPassword) issue("newPassword", passwordMessages.required);
    else if (newPassword !== confirmPassword) issue("confirmPassword", passwordMessages.mismatch);
    else if (newPassword === currentPassword) issue("newPassword", m.samePassword);
  });

function invalidField(field: string, message: string) {
  return AppError.invalid({ [field]: message });
}

/**
 * Changes the signed-in user's password (the current one checked by Better Auth) and closes their
 * other sessions; the new policy's reasons come back beside "newPassword".
 */
export async function changePassword(auth: Auth, requestHeaders: Headers, input: unknown): Promise<SetCookies> {
  const { currentPassword, newPassword } = validate(passwordChangeSchema, input);
  try {
    const { headers } = await auth.api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers: requestHeaders,
      returnHeaders: true,
    });
    return { headers: setCookieHeaders(headers) };
  } catch (error) {
    const code = errorCode(error);
    switch (code) {
      case "PASSWORD_POLICY": {
        const reasons = (error as { body?: { reasons?: unknown } }).body?.reasons;
        throw invalidField("newPassword", Array.isArray(reasons) ? reasons.map(String).join(" ") : (errorMessage(error) ?? ""));
      }
      case "INVALID_PASSWORD":
        throw invalidField("currentPassword", m.currentPasswordWrong);
      case "CREDENTIAL_ACCOUNT_NOT_FOUND":
        throw invalidField("currentPassword", m.noPassword);
      case "TOO_MANY_REQUESTS":
      case "TOO_MANY_ATTEMPTS": {
        const message = errorMessage(error) ?? m.tooManyAttempts;
        throw new AppError("rate_limited", message, { fieldErrors: { currentPassword: message } });
      }
    }
    // Any other refusal of Better Auth has its French message (error-messages.ts), shown above the form.
    const refusal = code ? frenchAuthMessage(code) : null;
    if (refusal) throw new AppError("invalid", refusal);
    throw AppError.unavailable(m.passwordChangeFailed, error);
  }
}

/** A two-factor set-up in progress: the otpauth:// URI, its secret grouped by 4, and its QR code (inline SVG). */
export type TwoFactorSetup = { totpURI: string; secret: string; qrSvg: string };

/** The set-up shown for `totpURI` (again, when a code was wrong); empty parts when the URI is not one. */
export async function twoFactorSetupOf(totpURI: string): Promise<TwoFactorSetup> {
  if (!totpURI.startsWith("otpauth://")) return { totpURI: "", secret: "", qrSvg: "" };
  return { totpURI, secret: totpSecretOf(totpURI) ?? "", qrSvg: await qrCodeSvg(totpURI) };
}

function passwordOf(input: unknown): string {
  const value = (input as { password?: unknown } | null)?.password;
  if (typeof value !== "string" || value === "") throw invalidField("password", m.passwordRequired);
  // As for the current password above: a longer one is simply wrong (Better Auth refuses it as too long).
  if (value.length > PASSWORD_MAX_LENGTH) throw invalidField("password", m.passwordWrong);
  return value;
}

/**
 * Re-authentication before an irreversible act (deleting one's account): Better Auth checks the
 * password of the session's own user; a wrong one comes back beside the "password" field.
 */
export async function confirmCurrentPassword(auth: Auth, requestHeaders: Headers, input: unknown): Promise<void> {
  const password = passwordOf(input);
  try {
    await auth.api.verifyPassword({ body: { password }, headers: requestHeaders });
  } catch (error) {
    const code = errorCode(error);
    // Better Auth answers the same for a wrong password and an account without one (Google only).
    if (code === "INVALID_PASSWORD") throw invalidField("password", m.passwordWrong);
    throw AppError.unavailable(m.passwordCheckFailed, error);
  }
}

/** First step of two-factor sign-in: the password confirmed, a secret to scan. Nothing is on until a code is checked. */
export async function startTwoFactor(auth: Auth, requestHeaders: Headers, input: unknown): Promise<TwoFactorSetup> {
  const password = passwordOf(input);
  let totpURI: string;
  try {
    const result = await auth.api.enableTwoFactor({ body: { password }, headers: requestHeaders });
    if (!("totpURI" in result) || !result.totpURI) throw new Error("no TOTP URI");
    totpURI = result.totpURI;
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_PASSWORD") throw invalidField("password", m.passwordWrong);
    if (code === "TOTP_ALREADY_ENABLED") throw AppError.conflict(m.twoFactorAlreadyOn, "already_enabled");
    throw AppError.unavailable(m.twoFactorEnableFailed, error);
  }
  return twoFactorSetupOf(totpURI);
}

/** Second step: the code from the app turns two-factor on; answers the backup codes, shown once. */
export async function confirmTwoFactor(
  auth: Auth,
  db: Database,
  actor: { id: string },
  requestHeaders: Headers,
  input: unknown,
  meta: Meta = {},
): Promise<SetCookies & { backupCodes: string[] }> {
  const raw = (input as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? raw.replace(/\s+/g, "") : "";
  if (!/^\d{6}$/.test(code)) throw invalidField("code", m.codeFormat);
  try {
    const { headers } = await auth.api.verifyTOTP({ body: { code }, headers: requestHeaders, returnHeaders: true });
    const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId: actor.id } });
    await recordActivity(db, { userId: actor.id, type: "two_factor_enabled", ...meta });
    return { headers: setCookieHeaders(headers), backupCodes };
  } catch (error) {
    const errorCodeOf = errorCode(error);
    if (errorCodeOf === "INVALID_CODE") throw invalidField("code", m.codeWrong);
    if (errorCodeOf === "TOTP_NOT_ENABLED") throw invalidField("code", m.setupExpired);
    throw new AppError("unavailable", m.codeCheckFailed, { cause: error, fieldErrors: { code: m.codeCheckFailed } });
  }
}

/** Turns two-factor sign-in off, the password confirmed. */
export async function disableTwoFactor(auth: Auth, requestHeaders: Headers, input: unknown): Promise<SetCookies> {
  const password = passwordOf(input);
  try {
    const { headers } = await auth.api.disableTwoFactor({ body: { password }, headers: requestHeaders, returnHeaders: true });
    return { headers: setCookieHeaders(headers) };
  } catch (error) {
    if (errorCode(error) === "INVALID_PASSWORD") throw invalidField("password", m.passwordWrong);
    throw AppError.unavailable(m.twoFactorDisableFailed, error);
  }
}

/** The base32 secret inside an otpauth:// URI, grouped by 4 for reading ("ABCD EFGH ..."). */
export function totpSecretOf(totpURI: string): string | null {
  try {
    const secret = new URL(totpURI).searchParams.get("secret");
    return secret ? secret.replace(/(.{4})(?=.)/g, "$1 ") : null;
  } catch {
    return null;
  }
}

/** The QR code of an otpauth:// URI as an inline SVG string (no image request, no script). */
function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", margin: 2, errorCorrectionLevel: "M", color: { dark: "#0f172a", light: "#ffffff" } });
}
