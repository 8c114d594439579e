import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins";
import { recordActivity, type ActivityType } from "../activity";
import type { Database } from "../db/client";
import { accounts, authRateLimits, sessions, twoFactors, users, verifications } from "../db/schema";
import { loadInstituteIdentity, passwordResetMail, sendMail, verificationMail, type MailEnv } from "../mail";
import { consumeRateLimit, resetRateLimit } from "../rate-limit";
import type { AuthSettings } from "./config";
import { authMessages, tooManyAttemptsMessage } from "./messages";
import { safeRedirect } from "./redirect";
import { checkPassword, hashPassword, verifyPassword } from "./password";

/**
 * The header that carries the client's address to Better Auth. The Express app overwrites it on
 * every request with `req.ip` (which honours TRUST_PROXY), so a client cannot choose it; route
 * actions pass the request's headers, which therefore carry it too.
 */
export const CLIENT_IP_HEADER = "x-campus-client-ip";

export const AUTH_BASE_PATH = "/api/auth";

/** Per-address and per-IP limits, on top of Better Auth's own per-IP limiter. */
export const perAddressLimits = {
  // Per address: 10 attempts per 15 minutes, forgotten after a successful sign-in. Per IP: generous,
  // since many learners share one address (mobile carriers' NAT, school labs).
  "/sign-in/email": { email: { limit: 10, windowSeconds: 15 * 60 }, ip: { limit: 200, windowSeconds: 15 * 60 } },
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
        await sendMail(db, mailEnv, passwordResetMail({ to: user.email, firstName: (user as { firstName?: string }).firstName, url, identity }));
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
        await sendMail(db, mailEnv, verificationMail({ to: user.email, firstName: (user as { firstName?: string }).firstName, url, identity }));
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
        "/sign-in/*": { window: 60, max: 10 },
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
              : (await db.query.users.findFirst({ where: (u, { eq }) => eq(u.id, session.userId) })) ?? null;
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
          const reasons = checkPassword(password, email);
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
        if (returned instanceof Error) return;
        const newSession = ctx.context.newSession;
        if (newSession && (ctx.path.startsWith("/sign-in") || ctx.path.startsWith("/callback") || ctx.path.startsWith("/two-factor/verify"))) {
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
          }
        }
        if (newSession && ctx.path === "/verify-email") {
          // The confirmation link signs the new account in (autoSignInAfterVerification).
          await record("sign_in", newSession.user.id, ctx.headers, { method: "email_verification" });
        }
        if (ctx.path === "/sign-in/email" && (newSession || (returned as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect)) {
          // The right password: the address's failed attempts are forgiven.
          const email = normalizeEmail((ctx.body as Record<string, unknown> | undefined)?.email);
          if (email) await resetRateLimit(db, `auth/sign-in/email:email:${email}`);
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
