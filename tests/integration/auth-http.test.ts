import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createCampusAuth, mountAuth, sessionOf } from "~/.server/auth/express";
import { finalErrorHandler } from "~/.server/http/edge";
import { signInCookie } from "../setup/auth";
import { createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { loader as authLoader, action as authAction } from "~/routes/auth/auth";
import { RouterContextProvider } from "react-router";
import { authContext, dbContext } from "~/.server/context";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => handle?.close());

async function listen(app: express.Express) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An Express app with accounts mounted the way app/.server/http/app.ts does, echoing what routes would see. */
function appWith(trustProxy: false | number) {
  const campus = createCampusAuth({
    db: handle.db,
    env: { DATA_DIR: "memory://", PUBLIC_URL: "http://127.0.0.1", LOG_LEVEL: "silent" },
  });
  const app = express();
  app.set("trust proxy", trustProxy);
  mountAuth(app, campus);
  app.get("/echo", async (req, res) => {
    const user = await sessionOf(res);
    res.json({ ip: req.headers["x-campus-client-ip"], user: user?.email ?? null });
  });
  return { app, campus };
}

describe("client address", () => {
  test("without TRUST_PROXY, X-Forwarded-For and a forged client-IP header are ignored", async () => {
    const { app } = appWith(false);
    const server = await listen(app);
    try {
      const response = await fetch(`${server.url}/echo`, { headers: { "x-forwarded-for": "6.6.6.6", "x-campus-client-ip": "7.7.7.7" } });
      expect((await response.json()).ip).toBe("127.0.0.1");
    } finally {
      await server.close();
    }
  });

  test("with TRUST_PROXY (one proxy), the address the proxy appended is used", async () => {
    const { app } = appWith(1);
    const server = await listen(app);
    try {
      const response = await fetch(`${server.url}/echo`, {
        headers: { "x-forwarded-for": "6.6.6.6, 41.73.100.5", "x-campus-client-ip": "7.7.7.7" },
      });
      expect((await response.json()).ip).toBe("41.73.100.5");
    } finally {
      await server.close();
    }
  });
});

describe("HTTP mount", () => {
  test("Better Auth answers on /api/auth/*, and the session cookie is resolved once per request", async () => {
    const { app, campus } = appWith(false);
    const server = await listen(app);
    try {
      const ok = await fetch(`${server.url}/api/auth/ok`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("cache-control")).toBe("no-store");

      const { password } = await createUser(handle.db, { email: "http@example.ml", password: true });
      const cookie = await signInCookie(campus, "http@example.ml", password);
      const echoed = await fetch(`${server.url}/echo`, { headers: { cookie } });
      expect((await echoed.json()).user).toBe("http@example.ml");
      const anonymous = await fetch(`${server.url}/echo`);
      expect((await anonymous.json()).user).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe("a database that does not answer", () => {
  test("a signed-in request is answered 503 (retry), never treated as signed out", async () => {
    const own = await createTestDatabase();
    const campus = createCampusAuth({ db: own.db, env: { DATA_DIR: "memory://", PUBLIC_URL: "http://127.0.0.1", LOG_LEVEL: "silent" } });
    const app = express();
    mountAuth(app, campus);
    app.get("/echo", async (_req, res) => res.json({ user: (await sessionOf(res))?.email ?? null }));
    app.use(finalErrorHandler(() => {}));
    const server = await listen(app);
    try {
      const { password } = await createUser(own.db, { email: "panne@example.ml", password: true });
      const cookie = await signInCookie(campus, "panne@example.ml", password);
      expect((await (await fetch(`${server.url}/echo`, { headers: { cookie } })).json()).user).toBe("panne@example.ml");

      await own.close();
      const page = await fetch(`${server.url}/echo`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(await page.text()).toContain("Votre session n&#39;a pas pu être vérifiée");
      // Without a session cookie nothing is looked up: the anonymous request still gets through.
      expect((await (await fetch(`${server.url}/echo`)).json()).user).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe("https deployments", () => {
  test("cookies are Secure (with the __Secure- prefix) when PUBLIC_URL is https", async () => {
    const campus = createCampusAuth({
      db: handle.db,
      env: { DATA_DIR: "memory://", PUBLIC_URL: "https://campus.example.ml", LOG_LEVEL: "silent" },
    });
    const { password } = await createUser(handle.db, { email: "https@example.ml", password: true });
    const result = await campus.auth.api.signInEmail({
      body: { email: "https@example.ml", password },
      headers: new Headers({ "x-campus-client-ip": "203.0.113.99" }),
      returnHeaders: true,
    });
    const cookie = result.headers.getSetCookie().find((line) => line.includes("session_token"))!;
    expect(cookie).toMatch(/^__Secure-campus\.session_token=/);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });
});

describe("Google sign-in", () => {
  function contextFor(google: boolean) {
    const campus = createCampusAuth({
      db: handle.db,
      env: {
        DATA_DIR: "memory://",
        PUBLIC_URL: "http://campus.test",
        LOG_LEVEL: "silent",
        ...(google ? { GOOGLE_CLIENT_ID: "client-id.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "secret" } : {}),
      },
    });
    const context = new RouterContextProvider();
    context.set(dbContext, handle.db);
    context.set(authContext, campus.auth);
    return context;
  }

  test("hidden when not configured, offered when it is", async () => {
    const request = new Request("http://campus.test/auth");
    const without = (await authLoader({ request, context: contextFor(false), params: {} } as never)) as { google: boolean };
    expect(without.google).toBe(false);
    const withGoogle = (await authLoader({ request, context: contextFor(true), params: {} } as never)) as { google: boolean };
    expect(withGoogle.google).toBe(true);
  });

  test("the button's action sends the visitor to Google with a state cookie", async () => {
    const request = new Request("http://campus.test/auth", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-campus-client-ip": "203.0.113.98", origin: "http://campus.test" },
      body: new URLSearchParams({ intent: "google", redirectTo: "/dashboard", signUp: "0" }),
    });
    const thrown = await Promise.resolve(authAction({ request, context: contextFor(true), params: {} } as never)).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!);
    expect(location.hostname).toBe("accounts.google.com");
    expect(location.searchParams.get("client_id")).toBe("client-id.apps.googleusercontent.com");
    expect(location.searchParams.get("redirect_uri")).toBe("http://campus.test/api/auth/callback/google");
    expect(response.headers.getSetCookie().some((line) => /state/i.test(line))).toBe(true);
  });
});
