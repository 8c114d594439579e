import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { CLIENT_IP_HEADER } from "~/.server/auth/auth";
import { createCampusAuth, type CampusAuth } from "~/.server/auth/express";
import { authContext, clientIpContext, dbContext, envContext } from "~/.server/context";
import type { Database } from "~/.server/db/client";
import { users } from "~/.server/db/schema";
import { listOutbox } from "~/.server/mail";
import { loadEnv } from "~/.server/env";

export const TEST_PUBLIC_URL = "http://campus.test";

/** Better Auth on a test database (outbox mail unless smtpUrl is given). */
export function createTestAuth(db: Database, options: { smtpUrl?: string; sessionIdleMinutes?: number; sessionMaxDays?: number } = {}): CampusAuth {
  return createCampusAuth({
    db,
    env: {
      NODE_ENV: "test",
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

/** A router context like the Express app builds, for calling loaders and actions directly. */
export function routerContext(db: Database, campusAuth: CampusAuth): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(dbContext, db);
  context.set(envContext, loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", PUBLIC_URL: TEST_PUBLIC_URL }));
  context.set(authContext, campusAuth.auth);
  context.set(clientIpContext, "203.0.113.10");
  return context;
}

/** Creates a confirmed account with a password, directly through Better Auth. */
export async function createVerifiedUser(
  campusAuth: CampusAuth,
  db: Database,
  input: { email: string; password?: string; firstName?: string; lastName?: string; role?: "admin" | "teacher" | "user" },
) {
  const password = input.password ?? "une phrase assez longue";
  await campusAuth.auth.api.signUpEmail({
    body: { email: input.email, password, name: "x", firstName: input.firstName ?? "Awa", lastName: input.lastName ?? "Traoré" },
    headers: browserHeaders(`198.51.100.${Math.floor(Math.random() * 250)}`),
  });
  await db
    .update(users)
    .set({ emailVerified: true, role: input.role ?? "user" })
    .where(eq(users.email, input.email.toLowerCase()));
  const [user] = await db.select().from(users).where(eq(users.email, input.email.toLowerCase()));
  return { user: user!, password };
}

/** Signs in and returns the Cookie header a browser would then send. */
export async function signInCookie(campusAuth: CampusAuth, email: string, password: string, ip = "203.0.113.20"): Promise<string> {
  const result = await campusAuth.auth.api.signInEmail({ body: { email, password }, headers: browserHeaders(ip), returnHeaders: true });
  return cookieFrom(result.headers.getSetCookie());
}
