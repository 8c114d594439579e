import { and, eq } from "drizzle-orm";
import { isRole, type Role } from "~/lib/roles";
import { AppError } from "../errors";
import type { Database } from "../db/client";
import { sessions } from "../db/schema";
import type { Auth } from "./auth";

/** The signed-in user as loaders and actions see it (the contract of app/.server/auth/guards.ts). */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  role: Role;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  sessionId: string;
  image?: string | null;
  /** "Économie de données": videos in low quality, nothing loaded before play. */
  dataSaver: boolean;
}

export interface ResolvedSession {
  user: SessionUser | null;
  /** Set-Cookie headers Better Auth produced (a refreshed or a cleared session cookie). */
  setCookies: string[];
  /** The session's lifetime, when one was found (what the session cache checks). */
  session?: { expiresAt: Date; createdAt: Date };
}

/** Per-instance session policy (the absolute lifetime), registered when the instance is built. */
const policies = new WeakMap<object, { maxDays: number; db: Database }>();

export function registerSessionPolicy(auth: Auth, policy: { maxDays: number; db: Database }) {
  policies.set(auth, policy);
}

export function sessionPolicyOf(auth: Auth) {
  return policies.get(auth);
}

/** True when a session created at `createdAt` has outlived the absolute lifetime. */
export function isPastAbsoluteLifetime(createdAt: Date, maxDays: number, now = new Date()): boolean {
  return now.getTime() - createdAt.getTime() > maxDays * 24 * 60 * 60 * 1000;
}

function toSessionUser(user: Record<string, unknown>, sessionId: string): SessionUser {
  const role = user.role;
  if (!isRole(role)) console.error(`auth: user ${String(user.id)} has an unknown role (${String(role)}); treated as "user".`);
  return {
    id: String(user.id),
    email: String(user.email),
    firstName: typeof user.firstName === "string" ? user.firstName : "",
    lastName: typeof user.lastName === "string" ? user.lastName : "",
    phone: typeof user.phone === "string" && user.phone ? user.phone : null,
    // A role that fails to load counts as none: the least privileged role, which only opens /dashboard.
    role: isRole(role) ? role : "user",
    emailVerified: user.emailVerified === true,
    twoFactorEnabled: user.twoFactorEnabled === true,
    sessionId,
    image: typeof user.image === "string" ? user.image : null,
    dataSaver: user.dataSaver === true,
  };
}

/**
 * Looks the session of `headers` up through Better Auth (which applies the idle timeout and may
 * refresh the cookie), then applies what Better Auth does not: the absolute lifetime
 * (SESSION_MAX_DAYS after the session's creation) and deactivated accounts. Expired or refused
 * sessions are deleted. A lookup that fails (the database does not answer) throws "unavailable":
 * answering as if signed out would send a person mid-form to the sign-in page, losing what they typed.
 */
export async function resolveSession(auth: Auth, headers: Headers): Promise<ResolvedSession> {
  let result: Awaited<ReturnType<typeof lookup>>;
  try {
    result = await lookup(auth, headers);
  } catch (error) {
    throw AppError.unavailable("Votre session n'a pas pu être vérifiée. Réessayez dans un instant.", error);
  }
  const setCookies = result.headers?.getSetCookie?.() ?? [];
  const found = result.response;
  if (!found) return { user: null, setCookies };
  const policy = sessionPolicyOf(auth);
  const user = found.user as unknown as Record<string, unknown>;
  const session = found.session;
  if (policy) {
    if (user.banned === true) {
      await policy.db.delete(sessions).where(eq(sessions.userId, String(user.id)));
      return { user: null, setCookies };
    }
    if (isPastAbsoluteLifetime(new Date(session.createdAt), policy.maxDays)) {
      await policy.db.delete(sessions).where(and(eq(sessions.id, session.id), eq(sessions.userId, String(user.id))));
      return { user: null, setCookies };
    }
  }
  return {
    user: toSessionUser(user, session.id),
    setCookies,
    session: { expiresAt: new Date(session.expiresAt), createdAt: new Date(session.createdAt) },
  };
}

function lookup(auth: Auth, headers: Headers) {
  return auth.api.getSession({ headers, returnHeaders: true });
}
