import type { RouterContextProvider } from "react-router";
import { CLIENT_IP_HEADER } from "~/.server/auth/auth";
import { createCampusAuth, type CampusAuth } from "~/.server/auth/express";
import type { SessionUser } from "~/.server/auth/session";
import { createRouterContext, type RouterServices } from "~/.server/http/router-context";
import type { Database } from "~/.server/db/client";
import { listOutbox } from "~/.server/mail";
import { loadEnv } from "~/.server/env";

export const TEST_PUBLIC_URL = "http://campus.test";

/** Better Auth on a test database (outbox mail unless smtpUrl is given). */
export function createTestAuth(
  db: Database,
  options: { smtpUrl?: string; sessionIdleMinutes?: number; sessionMaxDays?: number } = {},
): CampusAuth {
  return createCampusAuth({
    db,
    env: {
      DATA_DIR: "memory://",
      PUBLIC_URL: TEST_PUBLIC_URL,
      LOG_LEVEL: "silent",
      SMTP_URL: options.smtpUrl,
      SESSION_IDLE_MINUTES: options.sessionIdleMinutes ?? 7 * 24 * 60,
      SESSION_MAX_DAYS: options.sessionMaxDays ?? 30,
    },
  });
}

/** Request headers as the Express app would pass them (a client address, a browser). */
export function browserHeaders(ip = "203.0.113.10", cookie?: string): Headers {
  const headers = new Headers({ [CLIENT_IP_HEADER]: ip, "user-agent": "Mozilla/5.0 (Linux; Android 13) Chrome/120 Mobile" });
  if (cookie) headers.set("cookie", cookie);
  return headers;
}

/** "name=value; name2=value2" from Set-Cookie headers (what a browser would send back). */
export function cookieFrom(setCookies: string[], previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const [name, ...value] = pair.split("=");
    jar.set(name!, value.join("="));
  }
  for (const line of setCookies) {
    const [pair] = line.split(";");
    const [name, ...value] = pair!.split("=");
    const expired = /max-age=0/i.test(line) || value.join("=") === "";
    if (expired) jar.delete(name!.trim());
    else jar.set(name!.trim(), value.join("="));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The latest outbox mail to `to`, and the first link it contains matching `pattern`. */
export async function linkFromOutbox(db: Database, to: string, pattern: RegExp): Promise<string> {
  const [mail] = await listOutbox(db, to, 1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const link = mail.text.match(pattern)?.[0];
  if (!link) throw new Error(`no link matching ${pattern} in: ${mail.text}`);
  return link;
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

/** The certificates' services of route tests (the test public URL, a fixed secret). */
export const testCertificates = { publicUrl: TEST_PUBLIC_URL, secret: "un secret de test pour signer les certificats" };

/** The environment of route tests (test mode, memory database, the test public URL). */
export const testEnv = () => loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", PUBLIC_URL: TEST_PUBLIC_URL });

/**
 * A router context like the Express app builds (the same builder), for calling loaders and actions
 * directly: the session comes from the request's cookie, unless `user` is given (as the guard
 * middleware of a signed-in layout would have set it).
 */
export function routerContext(
  db: Database,
  campusAuth: CampusAuth,
  options: Omit<RouterServices, "db" | "env" | "auth"> & { user?: SessionUser } = {},
): RouterContextProvider {
  return createRouterContext(
    {
      db,
      env: testEnv(),
      auth: campusAuth.auth,
      storage: options.storage,
      payments: options.payments,
      certificates: options.certificates ?? testCertificates,
      finance: options.finance,
    },
    { clientIp: "203.0.113.10", user: options.user },
  );
}

/** Signs in and returns the Cookie header a browser would then send. */
export async function signInCookie(campusAuth: CampusAuth, email: string, password: string, ip = "203.0.113.20"): Promise<string> {
  const result = await campusAuth.auth.api.signInEmail({ body: { email, password }, headers: browserHeaders(ip), returnHeaders: true });
  return cookieFrom(result.headers.getSetCookie());
}
