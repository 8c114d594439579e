import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Database } from "../db/client";
import { consumeRateLimit, peekRateLimit, releaseRateLimit, resetRateLimit } from "../rate-limit";

/**
 * Sign-in throttling that stops attackers and not owners (docs/decisions/0023-sign-in-throttling.md).
 * Every password sign-in, through the /auth form or the API, passes the same counters, kept in
 * `rate_limits` (shared by every process):
 * - per network address: failures from one address, whatever the account → refused for a while;
 * - per address and account: failures on one account from one address → refused for a while;
 * - per account, from anywhere: past a threshold the account is "under attack", and a sign-in
 *   from a browser it has never been used on must be confirmed by a link mailed to the owner.
 *   Nobody is refused: the owner gets in by the link (or at once, on a known browser);
 * - for the whole site: past a threshold of failures (passwords sprayed over many accounts from
 *   many addresses), every sign-in from an unknown browser needs that link.
 * The first two count each attempt before the password is checked and give it back when it was
 * right, so that concurrent guesses cannot overshoot them. A browser the account has signed in on
 * before (a signed cookie) is never refused nor asked for the link: whoever shares the owner's
 * network, or attacks the account, cannot keep the owner out of their usual browser.
 */
export const signInLimits = {
  // Generous: a mobile carrier's NAT or a school lab puts many learners behind one address.
  ip: { limit: 100, windowSeconds: 15 * 60 },
  ipAccount: { limit: 5, windowSeconds: 15 * 60 },
  account: { limit: 10, windowSeconds: 24 * 60 * 60 },
  site: { limit: 200, windowSeconds: 10 * 60 },
} as const;

const keys = {
  ip: (ip: string) => `sign-in:ip:${ip}`,
  ipAccount: (ip: string, email: string) => `sign-in:ip-account:${ip}:${email}`,
  account: (email: string) => `sign-in:account:${email}`,
  site: "sign-in:site",
};

export type SignInAttempt = { ip: string; email: string; now?: Date };

/**
 * Refused from this address, and for how long; or opened (both counters took the attempt). A
 * known browser's attempt is counted but never refused.
 */
export async function openSignInAttempt(
  db: Database,
  attempt: SignInAttempt & { knownBrowser: boolean },
): Promise<{ refused: false } | { refused: "network" | "account"; retryAfterSeconds: number }> {
  const never = attempt.knownBrowser ? Number.MAX_SAFE_INTEGER : null;
  const ipResult = await consumeRateLimit(db, keys.ip(attempt.ip), {
    ...signInLimits.ip,
    limit: never ?? signInLimits.ip.limit,
    now: attempt.now,
  });
  if (!ipResult.allowed) return { refused: "network", retryAfterSeconds: ipResult.retryAfterSeconds };
  const pair = await consumeRateLimit(db, keys.ipAccount(attempt.ip, attempt.email), {
    ...signInLimits.ipAccount,
    limit: never ?? signInLimits.ipAccount.limit,
    now: attempt.now,
  });
  if (!pair.allowed) {
    await releaseRateLimit(db, keys.ip(attempt.ip));
    return { refused: "account", retryAfterSeconds: pair.retryAfterSeconds };
  }
  return { refused: false };
}

/** Whether this sign-in must be confirmed by the mailed link: the account, or the whole site, is under attack. */
export async function deviceConfirmationNeeded(db: Database, attempt: SignInAttempt): Promise<boolean> {
  const [account, site] = await Promise.all([
    peekRateLimit(db, keys.account(attempt.email), { windowSeconds: signInLimits.account.windowSeconds, now: attempt.now }),
    peekRateLimit(db, keys.site, { windowSeconds: signInLimits.site.windowSeconds, now: attempt.now }),
  ]);
  return account >= signInLimits.account.limit || site >= signInLimits.site.limit;
}

/** A wrong password (or an unknown address): the account's and the site's counters grow; the address's keep the attempt. */
export async function recordSignInFailure(db: Database, attempt: SignInAttempt): Promise<void> {
  // These two never refuse: a count past the limit only asks for the mailed link.
  const never = Number.MAX_SAFE_INTEGER;
  await consumeRateLimit(db, keys.account(attempt.email), {
    limit: never,
    windowSeconds: signInLimits.account.windowSeconds,
    now: attempt.now,
  });
  await consumeRateLimit(db, keys.site, { limit: never, windowSeconds: signInLimits.site.windowSeconds, now: attempt.now });
}

/** The right password: the address gets its attempt back, and this address's mistakes on this account are forgiven. */
export async function recordSignInSuccess(db: Database, attempt: SignInAttempt): Promise<void> {
  await releaseRateLimit(db, keys.ip(attempt.ip));
  await resetRateLimit(db, keys.ipAccount(attempt.ip, attempt.email));
}

/** Tests and the support desk: forget an account's failures (it stops asking for the mailed link). */
export async function forgetAccountFailures(db: Database, email: string): Promise<void> {
  await resetRateLimit(db, keys.account(email));
}

// --- Known browsers -------------------------------------------------------------------------

/** The cookie that remembers which accounts signed in on this browser (signed; no secret inside). */
export const KNOWN_DEVICE_COOKIE = "campus.appareils";
const KNOWN_DEVICE_MAX_AGE = 365 * 24 * 60 * 60;
/** A browser remembers this many accounts at most (the most recent). */
const KNOWN_DEVICE_ACCOUNTS = 5;

function sign(secret: string, payload: string): string {
  return createHmac("sha256", `campus-known-device:${secret}`).update(payload).digest("base64url");
}

/** The accounts this browser's cookie vouches for (an unsigned or altered cookie vouches for none). */
export function knownAccountsOf(cookieHeader: string | null | undefined, secret: string): string[] {
  const raw = (cookieHeader ?? "")
    .split(/;\s*/)
    .find((pair) => pair.startsWith(`${KNOWN_DEVICE_COOKIE}=`))
    ?.slice(KNOWN_DEVICE_COOKIE.length + 1);
  if (!raw) return [];
  const [payload, signature] = raw.split(".");
  if (!payload || !signature) return [];
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return [];
  try {
    const ids = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string").slice(0, KNOWN_DEVICE_ACCOUNTS) : [];
  } catch {
    return [];
  }
}

/** The cookie's new value: `userId` first among this browser's known accounts (URL-safe). */
export function knownDeviceCookieValue(options: { cookieHeader: string | null | undefined; userId: string; secret: string }): string {
  const ids = [options.userId, ...knownAccountsOf(options.cookieHeader, options.secret).filter((id) => id !== options.userId)].slice(
    0,
    KNOWN_DEVICE_ACCOUNTS,
  );
  const payload = Buffer.from(JSON.stringify(ids)).toString("base64url");
  return `${payload}.${sign(options.secret, payload)}`;
}

export function knownDeviceCookieOptions(secure: boolean) {
  return { path: "/", maxAge: KNOWN_DEVICE_MAX_AGE, httpOnly: true, sameSite: "lax" as const, secure };
}

/** The Set-Cookie header for a route's response. */
export function knownDeviceSetCookie(value: string, secure: boolean): string {
  return `${KNOWN_DEVICE_COOKIE}=${value}; Path=/; Max-Age=${KNOWN_DEVICE_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** A one-time token for the mailed "confirm this browser" link. */
export function newDeviceToken(): string {
  return randomBytes(24).toString("base64url");
}

/** How long the mailed link works. */
export const DEVICE_TOKEN_TTL_MS = 30 * 60 * 1000;
/** The identifier of the link's row in Better Auth's verification table. */
export const deviceTokenIdentifier = (token: string) => `appareil:${token}`;
