import { eq } from "drizzle-orm";
import { recordActivity } from "../activity";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import { CLIENT_IP_HEADER, normalizeEmail, type Auth } from "./auth";
import { authErrorMessages, frenchAuthMessage } from "./error-messages";
import { authMessages } from "./messages";
import { deviceTokenIdentifier, knownDeviceCookieValue, knownDeviceSetCookie } from "./throttle";
import { passwordMessages } from "~/lib/password-policy";
import { isRole, type Role } from "~/lib/roles";
import { checkPassword, passwordContextWords } from "./password";

/**
 * The account flows behind /auth, called by its route actions with the request's headers (so
 * Better Auth sees the visitor's cookies and address). Each returns the French message to show
 * and the Set-Cookie headers to forward onto the response.
 */

export type FlowError = {
  ok: false;
  /** invalid: wrong credentials; unverified: address not confirmed; rate: too many attempts. */
  kind: "invalid" | "unverified" | "deactivated" | "rate" | "policy" | "taken" | "token" | "two_factor" | "confirm_device" | "other";
  message: string;
  /** Per-field messages (French) for the form. */
  fieldErrors?: Record<string, string>;
};

export type FlowOk<T = object> = { ok: true; setCookies: string[] } & T;

interface ApiErrorLike {
  status?: string | number;
  statusCode?: number;
  body?: { message?: string; code?: string; reasons?: string[] };
  message?: string;
}

/** The code of a Better Auth APIError (`error.body.code`). */
export function errorCode(error: unknown): string | undefined {
  return (error as ApiErrorLike)?.body?.code;
}

export function errorMessage(error: unknown): string | undefined {
  return (error as ApiErrorLike)?.body?.message ?? (error as ApiErrorLike)?.message;
}

/** Maps Better Auth's errors onto the French catalogue; `fallback` for anything unexpected. */
export function mapAuthError(error: unknown, fallback: string): FlowError {
  const code = errorCode(error);
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_EMAIL":
    case "INVALID_PASSWORD":
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      return { ok: false, kind: "invalid", message: authMessages.invalidCredentials };
    case "EMAIL_NOT_VERIFIED":
      return { ok: false, kind: "unverified", message: authMessages.emailNotVerified };
    case "ACCOUNT_DEACTIVATED":
    case "BANNED_USER":
      return { ok: false, kind: "deactivated", message: authMessages.deactivated };
    case "TOO_MANY_ATTEMPTS":
      return { ok: false, kind: "rate", message: errorMessage(error) ?? fallback };
    case "PASSWORD_POLICY": {
      const reasons = (error as ApiErrorLike).body?.reasons ?? [errorMessage(error) ?? fallback];
      return { ok: false, kind: "policy", message: reasons.join(" "), fieldErrors: { password: reasons.join(" ") } };
    }
    case "PASSWORD_TOO_SHORT":
      return { ok: false, kind: "policy", message: passwordMessages.tooShort, fieldErrors: { password: passwordMessages.tooShort } };
    case "PASSWORD_TOO_LONG":
      return { ok: false, kind: "policy", message: passwordMessages.tooLong, fieldErrors: { password: passwordMessages.tooLong } };
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return { ok: false, kind: "taken", message: authMessages.emailTaken, fieldErrors: { email: authMessages.emailTaken } };
    case "INVALID_TOKEN":
    case "TOKEN_EXPIRED":
      return { ok: false, kind: "token", message: authMessages.resetLinkInvalid };
    case "INVALID_CODE":
    case "INVALID_BACKUP_CODE":
    case "OTP_HAS_EXPIRED":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      return { ok: false, kind: "two_factor", message: authMessages.twoFactorInvalid };
    case "INVALID_TWO_FACTOR_COOKIE":
      return { ok: false, kind: "two_factor", message: authMessages.twoFactorExpired };
    case "NAMES_REQUIRED":
      return { ok: false, kind: "other", message: authMessages.namesRequired };
    case "DEVICE_CONFIRMATION_REQUIRED":
      return { ok: false, kind: "confirm_device", message: authErrorMessages.DEVICE_CONFIRMATION_REQUIRED };
    default: {
      const status = (error as ApiErrorLike)?.status;
      if (status === "TOO_MANY_REQUESTS" || status === 429) {
        return { ok: false, kind: "rate", message: errorMessage(error) ?? fallback };
      }
      // Every other code has its French message; only an error without a code is unexpected.
      const known = frenchAuthMessage(code);
      if (known) return { ok: false, kind: "other", message: known };
      console.error("auth: unexpected error", error);
      return { ok: false, kind: "other", message: fallback };
    }
  }
}

export function cookiesOf(headers: Headers | undefined | null): string[] {
  return headers?.getSetCookie?.() ?? [];
}

export async function signIn(
  auth: Auth,
  headers: Headers,
  input: { email: string; password: string },
): Promise<FlowOk<{ twoFactor: boolean; role: Role | null }> | FlowError> {
  try {
    const result = await auth.api.signInEmail({
      body: { email: normalizeEmail(input.email), password: input.password },
      headers,
      returnHeaders: true,
    });
    const body = result.response as { twoFactorRedirect?: boolean; user?: { role?: unknown } } | null;
    const role = isRole(body?.user?.role) ? body.user.role : null;
    return { ok: true, setCookies: cookiesOf(result.headers), twoFactor: Boolean(body?.twoFactorRedirect), role };
  } catch (error) {
    return mapAuthError(error, authMessages.signInFailed);
  }
}

export async function signUp(
  auth: Auth,
  db: Database,
  headers: Headers,
  input: { firstName: string; lastName: string; email: string; password: string },
  /** Where the confirmation link lands (a local path, checked by the caller): the page that asked. */
  callbackURL = "/dashboard",
): Promise<FlowOk | FlowError> {
  const email = normalizeEmail(input.email);
  // The spec's catalogue tells an existing address apart ("déjà utilisée"); Better Auth alone
  // would answer as if the account had been created.
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) {
    return { ok: false, kind: "taken", message: authMessages.emailTaken, fieldErrors: { email: authMessages.emailTaken } };
  }
  try {
    const result = await auth.api.signUpEmail({
      body: {
        email,
        password: input.password,
        name: `${input.firstName.trim()} ${input.lastName.trim()}`,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        callbackURL,
      },
      headers,
      returnHeaders: true,
    });
    return { ok: true, setCookies: cookiesOf(result.headers) };
  } catch (error) {
    return mapAuthError(error, authMessages.signUpFailed);
  }
}

/** Sends a reset mail when the address has an account; the answer is the same either way. */
export async function requestPasswordReset(auth: Auth, headers: Headers, email: string): Promise<FlowOk | FlowError> {
  try {
    await auth.api.requestPasswordReset({ body: { email: normalizeEmail(email), redirectTo: "/auth" }, headers });
    return { ok: true, setCookies: [] };
  } catch (error) {
    return mapAuthError(error, authMessages.resetFailed);
  }
}

/** Sends the confirmation mail again to an unconfirmed address; the same answer otherwise. */
export async function resendVerification(auth: Auth, headers: Headers, email: string): Promise<FlowOk | FlowError> {
  try {
    await auth.api.sendVerificationEmail({ body: { email: normalizeEmail(email), callbackURL: "/dashboard" }, headers });
    return { ok: true, setCookies: [] };
  } catch (error) {
    if (errorCode(error) === "EMAIL_ALREADY_VERIFIED") return { ok: true, setCookies: [] };
    return mapAuthError(error, authMessages.signInFailed);
  }
}

/** Whether a reset token can still be used (shown before the form, so a dead link says so at once). */
export async function findResetToken(auth: Auth, token: string): Promise<{ userId: string } | null> {
  if (!token || token.length > 200) return null;
  const context = await auth.$context;
  const verification = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!verification || verification.expiresAt < new Date()) return null;
  return { userId: verification.value };
}

/**
 * Sets the new password, ends every session of the account, then signs the visitor in with it
 * (the link proved they own the address, which is marked confirmed), so they land on /dashboard.
 */
export async function resetPassword(
  auth: Auth,
  db: Database,
  headers: Headers,
  input: { token: string; password: string },
): Promise<FlowOk<{ twoFactor: boolean; signedIn: boolean }> | FlowError> {
  const found = await findResetToken(auth, input.token);
  if (!found) return { ok: false, kind: "token", message: authMessages.resetLinkInvalid };
  const [user] = await db
    .select({ email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, found.userId))
    .limit(1);
  if (!user) return { ok: false, kind: "token", message: authMessages.resetLinkInvalid };
  const reasons = checkPassword(input.password, { email: user.email, contextWords: await passwordContextWords(db) });
  if (reasons.length) return { ok: false, kind: "policy", message: reasons.join(" "), fieldErrors: { password: reasons.join(" ") } };
  try {
    await auth.api.resetPassword({ body: { token: input.token, newPassword: input.password }, headers });
  } catch (error) {
    return mapAuthError(error, authMessages.passwordUpdateFailed);
  }
  await recordActivity(db, {
    userId: found.userId,
    type: "password_reset",
    ipAddress: headers.get(CLIENT_IP_HEADER),
    userAgent: headers.get("user-agent"),
  }).catch((error) => console.error("activity: password_reset", error));
  if (!user.emailVerified) await db.update(users).set({ emailVerified: true }).where(eq(users.id, found.userId));
  const signedIn = await signIn(auth, headers, { email: user.email, password: input.password });
  if (!signedIn.ok) return { ok: true, setCookies: [], twoFactor: false, signedIn: false };
  return { ok: true, setCookies: signedIn.setCookies, twoFactor: signedIn.twoFactor, signedIn: !signedIn.twoFactor };
}

/** Confirms an address from the mail's link and signs the visitor in. */
export async function verifyEmail(auth: Auth, headers: Headers, token: string): Promise<FlowOk | FlowError> {
  try {
    const result = await auth.api.verifyEmail({ query: { token }, headers, returnHeaders: true });
    return { ok: true, setCookies: cookiesOf(result.headers) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "INVALID_TOKEN" || code === "TOKEN_EXPIRED" || code === "USER_NOT_FOUND" || code === "INVALID_USER") {
      return { ok: false, kind: "token", message: authMessages.verificationLinkInvalid };
    }
    return mapAuthError(error, authMessages.signInFailed);
  }
}

/** Second step of a sign-in with two-factor: a TOTP code or a backup code. */
export async function verifyTwoFactor(
  auth: Auth,
  headers: Headers,
  input: { code: string; trustDevice: boolean },
): Promise<FlowOk | FlowError> {
  const code = input.code.replace(/\s+/g, "");
  try {
    const result = /^\d{6}$/.test(code)
      ? await auth.api.verifyTOTP({ body: { code, trustDevice: input.trustDevice }, headers, returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code, trustDevice: input.trustDevice }, headers, returnHeaders: true });
    return { ok: true, setCookies: cookiesOf(result.headers) };
  } catch (error) {
    return mapAuthError(error, authMessages.signInFailed);
  }
}

export type SignOutScope = "local" | "global" | "others";

/**
 * The spec's three sign-out scopes: this device (local), every device (global), every other
 * device (others, the visitor stays signed in here).
 */
export async function signOut(
  auth: Auth,
  db: Database,
  headers: Headers,
  scope: SignOutScope,
  userId?: string,
): Promise<FlowOk | FlowError> {
  try {
    if (scope === "others") {
      await auth.api.revokeOtherSessions({ headers });
      if (userId)
        await recordActivity(db, {
          userId,
          type: "session_revoked",
          ipAddress: headers.get(CLIENT_IP_HEADER),
          userAgent: headers.get("user-agent"),
          details: { scope },
        });
      return { ok: true, setCookies: [] };
    }
    if (scope === "global") await auth.api.revokeSessions({ headers });
    const result = await auth.api.signOut({ headers, returnHeaders: true });
    if (userId)
      await recordActivity(db, {
        userId,
        type: "sign_out",
        ipAddress: headers.get(CLIENT_IP_HEADER),
        userAgent: headers.get("user-agent"),
        details: { scope },
      });
    return { ok: true, setCookies: cookiesOf(result.headers) };
  } catch (error) {
    return mapAuthError(error, authMessages.signInFailed);
  }
}

/** Starts Google's sign-in: the URL to send the visitor to, and the state cookie to set. */
export async function startGoogleSignIn(
  auth: Auth,
  headers: Headers,
  input: { redirectTo: string; signUp: boolean },
): Promise<FlowOk<{ url: string }> | FlowError> {
  try {
    const result = await auth.api.signInSocial({
      body: {
        provider: "google",
        callbackURL: input.redirectTo,
        newUserCallbackURL: "/dashboard",
        errorCallbackURL: "/auth?erreur=google",
        requestSignUp: input.signUp,
        disableRedirect: true,
      },
      headers,
      returnHeaders: true,
    });
    const url = (result.response as { url?: string }).url;
    if (!url) return { ok: false, kind: "other", message: authMessages.googleFailed };
    return { ok: true, setCookies: cookiesOf(result.headers), url };
  } catch (error) {
    const mapped = mapAuthError(error, authMessages.googleFailed);
    if (mapped.kind === "other" && errorMessage(error)) {
      return { ...mapped, message: `${authMessages.googleErrorPrefix}${errorMessage(error)}` };
    }
    return mapped;
  }
}

/**
 * The mailed "confirm this browser" link (sign-in throttling, ./throttle.ts): once, within its
 * 30 minutes, it makes this browser one the account is known on; the owner then signs in.
 */
export async function confirmDevice(auth: Auth, headers: Headers, token: string): Promise<FlowOk | FlowError> {
  const invalid: FlowError = { ok: false, kind: "token", message: authMessages.deviceLinkInvalid };
  if (!token || token.length > 200) return invalid;
  const context = await auth.$context;
  const identifier = deviceTokenIdentifier(token);
  const verification = await context.internalAdapter.findVerificationValue(identifier);
  if (!verification) return invalid;
  await context.internalAdapter.deleteVerificationByIdentifier(identifier);
  if (verification.expiresAt < new Date()) return invalid;
  const value = knownDeviceCookieValue({ cookieHeader: headers.get("cookie"), userId: verification.value, secret: context.secret });
  return { ok: true, setCookies: [knownDeviceSetCookie(value, context.options.baseURL?.toString().startsWith("https://") ?? false)] };
}
