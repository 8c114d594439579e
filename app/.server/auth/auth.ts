import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins";
import { recordActivity, type ActivityType } from "../activity";
import type { Database } from "../db/client";
import { accounts, authRateLimits, sessions, twoFactors, users, verifications } from "../db/schema";
import { deviceConfirmationMail, loadInstituteIdentity, passwordResetMail, sendMail, verificationMail, type MailEnv } from "../mail";
import { consumeRateLimit } from "../rate-limit";
import type { AuthSettings } from "./config";
import { authErrorMessages, frenchAuthMessage } from "./error-messages";
import { authMessages, tooManyAttemptsMessage } from "./messages";
import { safeRedirect } from "./redirect";
import { checkPassword, hashPassword, passwordContextWords, verifyPassword } from "./password";
import {
  DEVICE_TOKEN_TTL_MS,
  deviceConfirmationNeeded,
  deviceTokenIdentifier,
  KNOWN_DEVICE_COOKIE,
  knownAccountsOf,
  knownDeviceCookieValue,
  knownDeviceCookieOptions,
  newDeviceToken,
  openSignInAttempt,
  recordSignInFailure,
  recordSignInSuccess,
} from "./throttle";

/**
 * The header that carries the client's address to Better Auth. The Express app overwrites it on
 * every request with `req.ip` (which honours TRUST_PROXY), so a client cannot choose it; route
 * actions pass the request's headers, which therefore carry it too.
 */
export const CLIENT_IP_HEADER = "x-campus-client-ip";

export const AUTH_BASE_PATH = "/api/auth";

/**
 * Per-address and per-IP limits of the requests that send mail or create accounts, on top of
 * Better Auth's own per-IP limiter. Password sign-ins have their own throttling (./throttle.ts).
 */
export const perAddressLimits = {
  "/sign-up/email": { email: { limit: 5, windowSeconds: 60 * 60 }, ip: { limit: 50, windowSeconds: 60 * 60 } },
  "/request-password-reset": { email: { limit: 5, windowSeconds: 60 * 60 }, ip: { limit: 50, windowSeconds: 60 * 60 } },
  "/send-verification-email": { email: { limit: 5, windowSeconds: 60 * 60 }, ip: { limit: 50, windowSeconds: 60 * 60 } },
} as const satisfies Record<string, { email: { limit: number; windowSeconds: number }; ip: { limit: number; windowSeconds: number } }>;

/** Paths where a new password is chosen, and the body field that carries it. */
const passwordFields: Record<string, "password" | "newPassword"> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
};

export interface CreateAuthOptions {
  db: Database;
  settings: AuthSettings;
  /** Mail settings (SMTP_URL, MAIL_FROM); the outbox is used when SMTP_URL is unset. */
  mailEnv: MailEnv;
}

export function normalizeEmail(email: unknown): string {
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}

function clientIpFrom(headers: Headers | undefined | null): string {
  return headers?.get(CLIENT_IP_HEADER) ?? "unknown";
}

/** What Better Auth gives its hooks. */
type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Codes whose message our hooks wrote themselves (with a delay, or the policy's reasons). */
const ownMessages = new Set(["TOO_MANY_ATTEMPTS", "PASSWORD_POLICY"]);

/** Puts the French message of its code on an error Better Auth answers (the API's JSON included). */
function translateAuthError(error: APIError) {
  const code = (error.body as { code?: string } | undefined)?.code;
  if (!error.body || !code || ownMessages.has(code)) return;
  const message = frenchAuthMessage(code);
  if (message) error.body.message = message;
}

async function enforceRateLimit(db: Database, key: string, rule: { limit: number; windowSeconds: number }) {
  const result = await consumeRateLimit(db, key, rule);
  if (!result.allowed) {
    throw new APIError("TOO_MANY_REQUESTS", {
      message: tooManyAttemptsMessage(result.retryAfterSeconds),
      code: "TOO_MANY_ATTEMPTS",
      retryAfterSeconds: result.retryAfterSeconds,
    });
  }
}

/**
 * The Better Auth instance: e-mail + password with required confirmation, reset, Google when
 * configured, TOTP two-factor, Argon2id hashing, the password policy on every path that sets a
 * password, database rate limits, deactivated accounts refused, activity recorded.
 */
export function createAuth({ db, settings, mailEnv }: CreateAuthOptions) {
  const idleSeconds = settings.sessionIdleMinutes * 60;
  const secureCookies = settings.publicUrl.startsWith("https://");

  const record = async (type: ActivityType, userId: string, headers?: Headers | null, details?: Record<string, unknown>) => {
    try {
      await recordActivity(db, {
        userId,
        type,
        ipAddress: headers?.get(CLIENT_IP_HEADER) ?? null,
        userAgent: headers?.get("user-agent") ?? null,
        details: details ?? null,
      });
    } catch (error) {
      console.error(`activity: could not record ${type}`, error);
    }
  };

  let dummyHash: Promise<string> | undefined;

  /** Mails the "confirm this browser" link (at most 3 an hour per account), without making the answer wait. */
  const mailDeviceLink = (context: AuthHookContext["context"], user: { id: string; email: string; firstName?: string | null }) => {
    void (async () => {
      const allowed = await consumeRateLimit(db, `sign-in:device-mail:${user.email}`, { limit: 3, windowSeconds: 60 * 60 });
      if (!allowed.allowed) return;
      const token = newDeviceToken();
      await context.internalAdapter.createVerificationValue({
        identifier: deviceTokenIdentifier(token),
        value: user.id,
        expiresAt: new Date(Date.now() + DEVICE_TOKEN_TTL_MS),
      });
      const identity = await loadInstituteIdentity(db);
      const url = `${settings.publicUrl}/auth/appareil?token=${encodeURIComponent(token)}`;
      await sendMail(db, mailEnv, deviceConfirmationMail({ to: user.email, firstName: user.firstName, url, identity }));
    })().catch((error: unknown) => console.error("sign-in: could not mail the device link", error));
  };

  /**
   * A password sign-in's throttling (./throttle.ts), before Better Auth checks the password:
   * refused from an address that failed too often; under attack (the account's or the site's
   * failures), a browser this account never used must be confirmed by the mailed link — the
   * answer is the same whether the password was right or not, so it tells an attacker nothing.
   */
  const guardPasswordSignIn = async (ctx: AuthHookContext, body: Record<string, unknown>) => {
    const email = normalizeEmail(body.email);
    if (!email) return;
    const attempt = { ip: clientIpFrom(ctx.headers), email };
    const knownAccounts = knownAccountsOf(ctx.headers?.get("cookie"), settings.secret);
    const lookUp = () => ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
    let found = knownAccounts.length ? await lookUp() : null;
    const knownBrowser = Boolean(found && knownAccounts.includes(found.user.id));
    const opened = await openSignInAttempt(db, { ...attempt, knownBrowser });
    if (opened.refused) {
      const minutes = tooManyAttemptsMessage(opened.retryAfterSeconds).replace(/^Trop de tentatives\. /, "");
      throw new APIError("TOO_MANY_REQUESTS", {
        message:
          opened.refused === "network"
            ? `Trop de tentatives de connexion depuis votre réseau. ${minutes}`
            : `Trop de tentatives pour ce compte depuis votre réseau. ${minutes} Vous pouvez aussi réinitialiser votre mot de passe.`,
        code: "TOO_MANY_ATTEMPTS",
        retryAfterSeconds: opened.retryAfterSeconds,
      });
    }
    if (knownBrowser || !(await deviceConfirmationNeeded(db, attempt))) return;
    found ??= await lookUp();
    const stored = found?.accounts.find((account) => account.providerId === "credential")?.password;
    const password = typeof body.password === "string" ? body.password : "";
    // An unknown address costs the same hash check as a known one: the time tells nothing either.
    dummyHash ??= hashPassword("campus: no such account");
    const right = (await verifyPassword({ hash: stored ?? (await dummyHash), password })) && Boolean(stored);
    if (!right) {
      await recordSignInFailure(db, attempt);
    } else {
      const user = found!.user as { id: string; email: string; emailVerified: boolean; banned?: boolean; firstName?: string | null };
      // An unconfirmed or deactivated account is refused by Better Auth itself (which then counts the attempt).
      if (!user.emailVerified || user.banned) return;
      await recordSignInSuccess(db, attempt);
      mailDeviceLink(ctx.context, user);
    }
    throw new APIError("FORBIDDEN", { message: authErrorMessages.DEVICE_CONFIRMATION_REQUIRED, code: "DEVICE_CONFIRMATION_REQUIRED" });
  };

  return betterAuth({
    appName: "Campus",
    baseURL: settings.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: settings.secret,
    trustedOrigins: [settings.publicUrl],
    telemetry: { enabled: false },
    logger: { level: "error" },
    database: drizzleAdapter(db, {
      provider: "pg",
      transaction: true,
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
        rateLimit: authRateLimits,
      },
    }),
    user: {
      additionalFields: {
        firstName: { type: "string", required: false, defaultValue: "", input: true },
        lastName: { type: "string", required: false, defaultValue: "", input: true },
        phone: { type: "string", required: false, input: true },
        // Never from user input: admins change roles through app/.server/users.
        role: { type: "string", required: false, defaultValue: "user", input: false },
        banned: { type: "boolean", required: false, defaultValue: false, input: false },
        bannedAt: { type: "date", required: false, input: false },
        // "Économie de données", set from the profile (app/.server/profile): read with the session,
        // so that a lesson page does not ask for it again.
        dataSaver: { type: "boolean", required: false, defaultValue: false, input: false },
      },
      changeEmail: { enabled: false },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const identity = await loadInstituteIdentity(db);
        const url = `${settings.publicUrl}/auth?mode=recuperation&token=${encodeURIComponent(token)}`;
        await sendMail(
          db,
          mailEnv,
          passwordResetMail({ to: user.email, firstName: (user as { firstName?: string }).firstName, url, identity }),
        );
      },
      onPasswordReset: async ({ user }, request) => {
        // Resets through /auth are recorded by flows.resetPassword (which has the headers).
        if (request) await record("password_reset", user.id, request.headers);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, token, url: betterAuthUrl }) => {
        const identity = await loadInstituteIdentity(db);
        // The page that asked for the sign-up (a course's checkout...) is where the link lands.
        const callback = safeRedirect(URL.parse(betterAuthUrl)?.searchParams.get("callbackURL"));
        const back = callback === "/dashboard" || callback === "/" ? "" : `&redirectTo=${encodeURIComponent(callback)}`;
        const url = `${settings.publicUrl}/auth/verification?token=${encodeURIComponent(token)}${back}`;
        await sendMail(
          db,
          mailEnv,
          verificationMail({ to: user.email, firstName: (user as { firstName?: string }).firstName, url, identity }),
        );
      },
      afterEmailVerification: async (user, request) => {
        await record("email_verified", user.id, request?.headers);
      },
    },
    socialProviders: settings.google
      ? {
          google: {
            clientId: settings.google.clientId,
            clientSecret: settings.google.clientSecret,
            prompt: "select_account",
            mapProfileToUser: (profile) => ({
              firstName: profile.given_name ?? profile.name?.split(" ")[0] ?? "",
              lastName: profile.family_name ?? profile.name?.split(" ").slice(1).join(" ") ?? "",
            }),
          },
        }
      : undefined,
    account: {
      accountLinking: { enabled: true, trustedProviders: ["google"] },
    },
    session: {
      // Idle timeout: a session unused for SESSION_IDLE_MINUTES expires. The absolute lifetime
      // (SESSION_MAX_DAYS from createdAt) is enforced in the session lookup (./session.ts).
      expiresIn: idleSeconds,
      updateAge: Math.max(60, Math.min(24 * 60 * 60, Math.floor(idleSeconds / 10))),
      freshAge: 10 * 60,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        // A flood guard only: a class signing in together shares one address; password guesses
        // are throttled by ./throttle.ts.
        "/sign-in/*": { window: 60, max: 120 },
        "/sign-up/*": { window: 60, max: 5 },
        "/request-password-reset": { window: 60, max: 5 },
        "/send-verification-email": { window: 60, max: 5 },
        "/two-factor/*": { window: 60, max: 10 },
      },
    },
    advanced: {
      cookiePrefix: "campus",
      useSecureCookies: secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: secureCookies },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      twoFactor({
        issuer: "Campus",
        totpOptions: { digits: 6, period: 30 },
        backupCodeOptions: { amount: 10, length: 10 },
      }),
    ],
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const data = user as typeof user & { firstName?: string; lastName?: string };
            const firstName = (data.firstName ?? "").trim();
            const lastName = (data.lastName ?? "").trim();
            const name = `${firstName} ${lastName}`.trim() || user.name;
            return { data: { ...user, email: normalizeEmail(user.email), firstName, lastName, name } };
          },
        },
        update: {
          before: async (user) => {
            const data = user as typeof user & { firstName?: string; lastName?: string };
            if (typeof data.firstName === "string" && typeof data.lastName === "string") {
              return { data: { ...user, name: `${data.firstName.trim()} ${data.lastName.trim()}`.trim() } };
            }
          },
        },
      },
      session: {
        create: {
          before: async (session, ctx) => {
            // A deactivated account gets no new session, whatever the sign-in method.
            const found = ctx
              ? await ctx.context.internalAdapter.findUserById(session.userId)
              : ((await db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, session.userId) })) ?? null);
            if (!found || (found as { banned?: boolean }).banned) {
              throw new APIError("FORBIDDEN", { message: authMessages.deactivated, code: "ACCOUNT_DEACTIVATED" });
            }
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const path = ctx.path;
        const body = (ctx.body ?? {}) as Record<string, unknown>;

        if (path === "/sign-in/email") await guardPasswordSignIn(ctx, body);

        const limits = perAddressLimits[path as keyof typeof perAddressLimits];
        if (limits) {
          const email = normalizeEmail(body.email);
          await enforceRateLimit(db, `auth${path}:ip:${clientIpFrom(ctx.headers)}`, limits.ip);
          if (email) await enforceRateLimit(db, `auth${path}:email:${email}`, limits.email);
        }

        const field = passwordFields[path];
        if (field) {
          const password = body[field];
          if (typeof password !== "string") return;
          let email: string | null = normalizeEmail(body.email) || null;
          if (!email && path !== "/reset-password") {
            const session = ctx.context.session ?? null;
            email = session?.user.email ?? null;
          }
          const reasons = checkPassword(password, { email, contextWords: await passwordContextWords(db) });
          if (reasons.length > 0) {
            throw new APIError("BAD_REQUEST", { message: reasons.join(" "), code: "PASSWORD_POLICY", reasons });
          }
        }
        if (path === "/sign-up/email") {
          const firstName = typeof body.firstName === "string" ? body.firstName.trim() : "";
          const lastName = typeof body.lastName === "string" ? body.lastName.trim() : "";
          if (!firstName || !lastName) {
            throw new APIError("BAD_REQUEST", { message: authMessages.namesRequired, code: "NAMES_REQUIRED" });
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        if (ctx.path === "/sign-in/email") {
          const email = normalizeEmail((ctx.body as Record<string, unknown> | undefined)?.email);
          const attempt = { ip: clientIpFrom(ctx.headers), email };
          const code = returned instanceof APIError ? (returned.body as { code?: string } | undefined)?.code : undefined;
          // Only a wrong password (or an unknown address) is a failure; any other answer came after the password was checked.
          if (email && code === "INVALID_EMAIL_OR_PASSWORD") await recordSignInFailure(db, attempt);
          else if (email && code !== "TOO_MANY_ATTEMPTS" && code !== "DEVICE_CONFIRMATION_REQUIRED") await recordSignInSuccess(db, attempt);
        }
        if (returned instanceof APIError) translateAuthError(returned);
        if (returned instanceof Error) return;
        const newSession = ctx.context.newSession;
        if (
          newSession &&
          (ctx.path.startsWith("/sign-in") || ctx.path.startsWith("/callback") || ctx.path.startsWith("/two-factor/verify"))
        ) {
          const body = returned as { twoFactorRedirect?: boolean } | null;
          const cookies = ctx.headers?.get("cookie") ?? "";
          const user = newSession.user as { twoFactorEnabled?: boolean | null };
          // With two-factor on, the password step is not yet a sign-in (unless this device is
          // trusted); the code step is one only when it completes a sign-in (not when enabling).
          const pendingCode = ctx.path.startsWith("/sign-in") && user.twoFactorEnabled === true && !/trust_device=/.test(cookies);
          const enablingCode = ctx.path.startsWith("/two-factor/verify") && !/\.two_factor=/.test(cookies);
          if (!body?.twoFactorRedirect && !pendingCode && !enablingCode) {
            await record("sign_in", newSession.user.id, ctx.headers, {
              method: ctx.path.startsWith("/callback") ? "google" : ctx.path.startsWith("/two-factor") ? "two_factor" : "password",
            });
            // This browser now knows the account: under attack, it signs in without the mailed link.
            ctx.setCookie(
              KNOWN_DEVICE_COOKIE,
              knownDeviceCookieValue({ cookieHeader: cookies, userId: newSession.user.id, secret: settings.secret }),
              knownDeviceCookieOptions(secureCookies),
            );
          }
        }
        if (newSession && ctx.path === "/verify-email") {
          // The confirmation link signs the new account in (autoSignInAfterVerification).
          await record("sign_in", newSession.user.id, ctx.headers, { method: "email_verification" });
        }
        if (ctx.path === "/change-password" && ctx.context.session) {
          await record("password_changed", ctx.context.session.user.id, ctx.headers);
        }
        // Enabling two-factor is confirmed by the first verified code: recorded by the profile page.
        if (ctx.path === "/two-factor/disable" && ctx.context.session) {
          await record("two_factor_disabled", ctx.context.session.user.id, ctx.headers);
        }
      }),
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
