import { getSessionCookie } from "better-auth/cookies";
import { fromNodeHeaders, toNodeHandler } from "better-auth/node";
import type express from "express";
import type { Database } from "../db/client";
import type { MailEnv } from "../mail";
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, createAuth, type Auth } from "./auth";
import { authEnvSchema, authEnvShape, authSettingsFrom, type AuthEnv, type AuthSettings, type InstanceEnv } from "./config";
import { registerSessionPolicy, resolveSession, type SessionUser } from "./session";
import type { SessionCache } from "./session-cache";

export interface CampusAuth {
  auth: Auth;
  settings: AuthSettings;
  mailEnv: MailEnv;
}

/** Builds the Better Auth instance from the database and the environment (once per process). */
export function createCampusAuth(options: {
  db: Database;
  /** The app's Env (its account variables included), or any object with these fields. */
  env: InstanceEnv & { LOG_LEVEL?: string } & Partial<AuthEnv>;
}): CampusAuth {
  const authEnv = authEnvSchema.parse(Object.fromEntries(Object.keys(authEnvShape).map((key) => [key, options.env[key as keyof AuthEnv]])));
  const settings = authSettingsFrom(options.env, authEnv);
  const mailEnv: MailEnv = { SMTP_URL: settings.smtpUrl, MAIL_FROM: settings.mailFrom, LOG_LEVEL: options.env.LOG_LEVEL };
  const auth = createAuth({ db: options.db, settings, mailEnv });
  registerSessionPolicy(auth, { maxDays: settings.sessionMaxDays, db: options.db });
  return { auth, settings, mailEnv };
}

/**
 * Mounts accounts on the Express app, BEFORE any body parser:
 * - every request gets the client-IP header Better Auth reads (from req.ip, which honours
 *   TRUST_PROXY; a client's own value is overwritten);
 * - Better Auth's handler on /api/auth/*;
 * - for requests carrying a session cookie, the session is resolved once (idle timeout, absolute
 *   lifetime, deactivated accounts) and a refreshed cookie forwarded (a dead one is not cleared); `sessionOf(res)` gives it
 *   to getLoadContext. With a `sessionCache` (./session-cache.ts), a cookie resolved a few
 *   seconds ago is answered from memory. Requests that arrive together with the same cookies (a
 *   page and its images) share one lookup.
 */
export function mountAuth(app: express.Express, campusAuth: CampusAuth, options: { sessionCache?: SessionCache } = {}) {
  const { sessionCache } = options;
  const { auth } = campusAuth;
  const cookiePrefix = "campus";
  const lookups = new Map<string, ReturnType<typeof resolveSession>>();
  // Keyed by the whole Cookie header: the refreshed cookie also depends on the others (remember me).
  const lookUp = (headers: Headers) => {
    const key = headers.get("cookie") ?? "";
    let lookup = lookups.get(key);
    if (!lookup) {
      lookup = resolveSession(auth, headers).finally(() => lookups.delete(key));
      lookups.set(key, lookup);
    }
    return lookup;
  };
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    next();
  });
  app.all(`${AUTH_BASE_PATH}/{*rest}`, (req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    toNodeHandler(auth)(req, res).catch(next);
  });
  app.use(async (req, res, next) => {
    const headers = fromNodeHeaders(req.headers);
    const sessionCookie = getSessionCookie(headers, { cookiePrefix });
    if (!sessionCookie) {
      res.locals.campusSession = Promise.resolve(null);
      return next();
    }
    const cached = sessionCache?.get(sessionCookie);
    if (cached) {
      res.locals.campusSession = Promise.resolve(cached);
      return next();
    }
    try {
      const { user, setCookies, session } = await lookUp(headers);
      // A refreshed cookie is forwarded. The cleared cookies of a dead session are not: this request
      // may have left before the browser got a new session (a password change closes the others),
      // and its late answer would wipe that new cookie. A dead cookie only leads to the sign-in page.
      if (user) for (const cookie of setCookies) res.append("Set-Cookie", cookie);
      if (user && session && sessionCache) sessionCache.set(sessionCookie, user, session);
      res.locals.campusSession = Promise.resolve(user);
      next();
    } catch (error) {
      next(error);
    }
  });
}

/** The session `mountAuth` resolved for this response (null when anonymous). */
export function sessionOf(res: express.Response): Promise<SessionUser | null> | null {
  return (res.locals.campusSession as Promise<SessionUser | null> | undefined) ?? null;
}
