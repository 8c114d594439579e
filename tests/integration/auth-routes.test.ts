import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createOTP } from "@better-auth/utils/otp";
import { disableTwoFactor, startTwoFactor } from "~/.server/auth/account-security";
import type { CampusAuth } from "~/.server/auth/express";
import { getOptionalUser } from "~/.server/auth/guards";
import { signedInAdmin, signedInTeacher, signedInUser } from "~/.server/auth/middleware";
import { userContext } from "~/.server/context";
import { resolveSession } from "~/.server/auth/session";
import { sessions, users } from "~/.server/db/schema";
import { action as authAction, loader as authLoader } from "~/routes/auth/auth";
import { action as signOutAction } from "~/routes/auth/deconnexion";
import { loader as verificationLoader } from "~/routes/auth/verification";
import { createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { browserHeaders, cookieFrom, createTestAuth, linkFromOutbox, routerContext, signInCookie, TEST_PUBLIC_URL } from "../setup/auth";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let campus: CampusAuth;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
});
afterAll(async () => handle?.close());

function formRequest(path: string, fields: Record<string, string>, cookie?: string, ip = "203.0.113.50"): Request {
  const headers = browserHeaders(ip, cookie);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.set("origin", TEST_PUBLIC_URL);
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: "POST", headers, body: new URLSearchParams(fields) });
}

function getRequest(path: string, cookie?: string): Request {
  return new Request(`${TEST_PUBLIC_URL}${path}`, { headers: browserHeaders("203.0.113.50", cookie) });
}

/** Runs a loader/action and returns its thrown or returned Response (redirects are thrown). */
async function run(
  fn: (args: never) => unknown,
  request: Request,
): Promise<{ status: number; location: string | null; setCookies: string[]; clearSiteData?: string | null; body: unknown }> {
  let outcome: unknown;
  try {
    outcome = await fn({ request, context: routerContext(handle.db, campus), params: {} } as never);
  } catch (thrown) {
    outcome = thrown;
  }
  if (outcome instanceof Response) {
    return {
      status: outcome.status,
      location: outcome.headers.get("location"),
      setCookies: outcome.headers.getSetCookie(),
      clearSiteData: outcome.headers.get("clear-site-data"),
      body: null,
    };
  }
  // data() results
  const value = outcome as { type?: string; data?: unknown; init?: ResponseInit | null };
  if (value && value.type === "DataWithResponseInit") {
    const headers = new Headers(value.init?.headers);
    return { status: value.init?.status ?? 200, location: null, setCookies: headers.getSetCookie(), body: value.data };
  }
  return { status: 200, location: null, setCookies: [], body: outcome };
}

describe("/auth sign-in action", () => {
  test("a teacher lands on /teacher and an admin on /admin, unless a page asked for the sign-in", async () => {
    const teacher = await createUser(handle.db, { role: "teacher", password: true });
    const admin = await createUser(handle.db, { role: "admin", password: true });
    const signIn = (email: string, password: string, redirectTo?: string) =>
      run(authAction, formRequest("/auth", { intent: "signin", email, password, ...(redirectTo ? { redirectTo } : {}) }));
    expect((await signIn(teacher.email, teacher.password)).location).toBe("/teacher");
    expect((await signIn(admin.email, admin.password)).location).toBe("/admin");
    expect((await signIn(admin.email, admin.password, "/dashboard")).location).toBe("/dashboard");
    expect((await signIn(teacher.email, teacher.password, "/dashboard/forum")).location).toBe("/dashboard/forum");
  });

  test("success redirects to /dashboard with the session cookie set (HttpOnly, SameSite=Lax)", async () => {
    const { password } = await createUser(handle.db, { email: "route@example.ml", password: true });
    const response = await run(authAction, formRequest("/auth", { intent: "signin", email: "route@example.ml", password }));
    expect(response.status).toBe(302);
    expect(response.location).toBe("/dashboard");
    const sessionCookie = response.setCookies.find((line) => line.startsWith("campus.session_token="));
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    // Not https in tests: no Secure flag (it is set when PUBLIC_URL is https).
    expect(sessionCookie).not.toMatch(/;\s*Secure/i);
  });

  test.each([
    ["/dashboard/profile?onglet=securite", "/dashboard/profile?onglet=securite"],
    ["//evil.example/phish", "/dashboard"],
    ["https://evil.example/", "/dashboard"],
    ["/\\evil.example", "/dashboard"],
    ["javascript:alert(1)", "/dashboard"],
  ])("redirectTo %j sends the user to %j", async (redirectTo, expected) => {
    const email = `redir-${Math.random().toString(36).slice(2)}@example.ml`;
    const { password } = await createUser(handle.db, { email, password: true });
    const response = await run(authAction, formRequest("/auth", { intent: "signin", email, password, redirectTo }));
    expect(response.location).toBe(expected);
  });

  test("bad input is answered beside the fields, the e-mail kept", async () => {
    const response = await run(authAction, formRequest("/auth", { intent: "signin", email: "pas-une-adresse", password: "" }));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      fieldErrors: {
        email: "Saisissez une adresse e-mail valide (par exemple nom@exemple.ml).",
        password: "Le mot de passe est obligatoire.",
      },
      values: { email: "pas-une-adresse" },
    });
  });

  test("wrong credentials: 401 and the catalogue's message", async () => {
    const response = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email: "nobody@example.ml", password: "quelque chose" }),
    );
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: "E-mail ou mot de passe incorrect." });
  });

  test("a signed-in visitor opening /auth goes to /dashboard", async () => {
    const { password } = await createUser(handle.db, { email: "deja-connecte@example.ml", password: true });
    const cookie = await signInCookie(campus, "deja-connecte@example.ml", password);
    const response = await run(authLoader, getRequest("/auth", cookie));
    expect(response.location).toBe("/dashboard");
    const anonymous = await run(authLoader, getRequest("/auth?onglet=inscription"));
    expect(anonymous.body).toMatchObject({ view: "tabs", tab: "inscription", google: false });
  });
});

describe("/auth sign-up and new-password actions", () => {
  test("sign-up success redirects to the confirmation message; the mail's link signs in and lands on /dashboard", async () => {
    const response = await run(
      authAction,
      formRequest("/auth?onglet=inscription", {
        intent: "signup",
        firstName: "Oumar",
        lastName: "Sidibé",
        email: "oumar@example.ml",
        password: "la route de Ségou",
      }),
    );
    expect(response.location).toBe("/auth?message=inscription");
    const page = await run(authLoader, getRequest("/auth?message=inscription"));
    expect(page.body).toMatchObject({
      flash: { text: "Compte créé avec succès ! Vérifiez votre e-mail pour confirmer votre inscription." },
    });

    const link = await linkFromOutbox(handle.db, "oumar@example.ml", /http:\/\/campus\.test\/auth\/verification\?token=\S+/);
    const landing = await run(verificationLoader, getRequest(new URL(link).pathname + new URL(link).search));
    expect(landing.location).toBe("/dashboard");
    const cookie = cookieFrom(landing.setCookies);
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user?.email).toBe("oumar@example.ml");

    const dead = await run(verificationLoader, getRequest("/auth/verification?token=nimporte.quoi.faux"));
    expect(dead.location).toBe("/auth?message=verification-invalide");
  });

  test("sign-up with missing names and a common password lists every problem", async () => {
    const response = await run(
      authAction,
      formRequest("/auth?onglet=inscription", {
        intent: "signup",
        firstName: " ",
        lastName: "",
        email: "x@example.ml",
        password: "password",
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ fieldErrors: { firstName: "Le prénom est obligatoire.", lastName: "Le nom est obligatoire." } });
  });

  test("new password: mismatch and length messages, then success and a used link", async () => {
    await createUser(handle.db, { email: "nouveau-mdp@example.ml", password: true });
    await run(authAction, formRequest("/auth?onglet=recuperation", { intent: "reset-request", email: "nouveau-mdp@example.ml" }));
    const link = await linkFromOutbox(handle.db, "nouveau-mdp@example.ml", /http:\/\/campus\.test\/auth\?mode=recuperation&token=\S+/);
    const token = new URL(link).searchParams.get("token")!;
    const path = `/auth?mode=recuperation&token=${token}`;

    const page = await run(authLoader, getRequest(path));
    expect(page.body).toMatchObject({ view: "reset", token });

    const mismatch = await run(
      authAction,
      formRequest(path, { intent: "reset", token, password: "une phrase correcte", confirmPassword: "une autre phrase" }),
    );
    expect(mismatch.body).toMatchObject({ fieldErrors: { confirmPassword: "Les mots de passe ne correspondent pas." } });
    const short = await run(authAction, formRequest(path, { intent: "reset", token, password: "court", confirmPassword: "court" }));
    expect(short.body).toMatchObject({ fieldErrors: { password: "Le mot de passe doit contenir au moins 8 caractères." } });

    const done = await run(
      authAction,
      formRequest(path, { intent: "reset", token, password: "une phrase correcte", confirmPassword: "une phrase correcte" }),
    );
    expect(done.body).toMatchObject({ done: { message: "Mot de passe mis à jour avec succès !", next: "/dashboard" } });
    expect(done.setCookies.some((line) => line.startsWith("campus.session_token="))).toBe(true);

    const used = await run(authLoader, getRequest(path));
    expect(used.body).toMatchObject({ view: "reset", token: null });
  });

  test("the recovery answer is the same for an unknown address", async () => {
    const known = await run(
      authAction,
      formRequest("/auth?onglet=recuperation", { intent: "reset-request", email: "nouveau-mdp@example.ml" }, undefined, "203.0.113.60"),
    );
    const unknown = await run(
      authAction,
      formRequest("/auth?onglet=recuperation", { intent: "reset-request", email: "fantome@example.ml" }, undefined, "203.0.113.60"),
    );
    expect(known.location).toBe("/auth?onglet=recuperation&message=recuperation");
    expect(unknown.location).toBe(known.location);
  });
});

/** Runs a guard middleware as React Router would: the role it let through (from the context), or where it redirected. */
async function guarded(guard: typeof signedInAdmin, request: Request, context = routerContext(handle.db, campus)) {
  try {
    await guard({ request, context, params: {} } as never, async () => new Response(null));
    return context.get(userContext).role;
  } catch (error) {
    return (error as Response).headers.get("location");
  }
}

describe("guards", () => {
  test("anonymous visitors are sent to /auth with the page to come back to", async () => {
    const request = getRequest("/dashboard/profile?onglet=securite");
    expect(await guarded(signedInUser, request)).toBe(`/auth?redirectTo=${encodeURIComponent("/dashboard/profile?onglet=securite")}`);
    expect(await guarded(signedInAdmin, request)).toMatch(/^\/auth\?redirectTo=/);
  });

  test("roles: admin guard and teacher guard", async () => {
    const roles = ["user", "teacher", "admin"] as const;
    const cookies: Record<string, string> = {};
    for (const role of roles) {
      const { password } = await createUser(handle.db, { email: `${role}-guard@example.ml`, role, password: true });
      cookies[role] = await signInCookie(campus, `${role}-guard@example.ml`, password);
    }
    const attempt = (guard: typeof signedInAdmin, role: string) => guarded(guard, getRequest("/admin/users", cookies[role]));
    expect(await attempt(signedInAdmin, "user")).toBe("/dashboard");
    expect(await attempt(signedInAdmin, "teacher")).toBe("/dashboard");
    expect(await attempt(signedInAdmin, "admin")).toBe("admin");
    expect(await attempt(signedInTeacher, "user")).toBe("/dashboard");
    expect(await attempt(signedInTeacher, "teacher")).toBe("teacher");
    expect(await attempt(signedInTeacher, "admin")).toBe("admin");
  });

  test("a role that fails to load counts as none (least privilege)", async () => {
    const user = await createUser(handle.db, { email: "role-bizarre@example.ml", password: true });
    const { password } = user;
    await handle.db.update(users).set({ role: "superadmin" }).where(eq(users.id, user.id));
    const cookie = await signInCookie(campus, "role-bizarre@example.ml", password);
    const context = routerContext(handle.db, campus);
    const found = await getOptionalUser({ request: getRequest("/dashboard", cookie), context });
    expect(found?.role).toBe("user");
    expect(await guarded(signedInAdmin, getRequest("/admin", cookie), context)).toBe("/dashboard");
  });
});

describe("sign-out scopes", () => {
  async function threeDevices(email: string) {
    const user = await createUser(handle.db, { email, password: true });
    const { password } = user;
    const devices = [];
    for (let i = 0; i < 3; i++) devices.push(await signInCookie(campus, email, password, `203.0.113.${70 + i}`));
    return { user, devices };
  }
  const alive = async (cookie: string) => Boolean((await resolveSession(campus.auth, new Headers({ cookie }))).user);

  test("local ends this device only", async () => {
    const { devices } = await threeDevices("local@example.ml");
    const response = await run(signOutAction, formRequest("/auth/deconnexion", { scope: "local" }, devices[0]));
    expect(response.location).toBe("/");
    expect(response.setCookies.some((line) => /campus\.session_token=;|campus\.session_token=.*Max-Age=0/i.test(line))).toBe(true);
    // The device forgets its caches and stored lessons with the session (issue 13).
    expect(response.clearSiteData).toBe('"cache", "storage"');
    expect([await alive(devices[0]!), await alive(devices[1]!), await alive(devices[2]!)]).toEqual([false, true, true]);
  });

  test("others ends every other device and keeps this one", async () => {
    const { devices } = await threeDevices("others@example.ml");
    const response = await run(signOutAction, formRequest("/auth/deconnexion", { scope: "others" }, devices[0]));
    expect(response.location).toBe("/dashboard/profile?onglet=securite");
    expect(response.clearSiteData).toBeNull();
    expect([await alive(devices[0]!), await alive(devices[1]!), await alive(devices[2]!)]).toEqual([true, false, false]);
  });

  test("global ends every device", async () => {
    const { user, devices } = await threeDevices("global@example.ml");
    await run(signOutAction, formRequest("/auth/deconnexion", { scope: "global" }, devices[1]));
    expect(await handle.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
  });
});

describe("two-factor sign-in", () => {
  test("with TOTP on, sign-in asks for the code, which then opens the session", async () => {
    const user = await createUser(handle.db, { email: "totp@example.ml", password: true });
    const { password } = user;
    const cookie = await signInCookie(campus, "totp@example.ml", password);
    const enabled = await campus.auth.api.enableTwoFactor({ body: { password }, headers: browserHeaders("203.0.113.80", cookie) });
    if (!("totpURI" in enabled)) throw new Error("TOTP set-up expected");
    const secret = new URL(enabled.totpURI).searchParams.get("secret")!;
    const code = () => createOTP(base32Decode(secret), { digits: 6, period: 30 }).totp();
    await campus.auth.api.verifyTOTP({ body: { code: await code() }, headers: browserHeaders("203.0.113.80", cookie) });
    const [row] = await handle.db.select({ twoFactorEnabled: users.twoFactorEnabled }).from(users).where(eq(users.id, user.id));
    expect(row!.twoFactorEnabled).toBe(true);

    const first = await run(
      authAction,
      formRequest(
        "/auth",
        { intent: "signin", email: "totp@example.ml", password, redirectTo: "/dashboard/profile" },
        undefined,
        "203.0.113.81",
      ),
    );
    expect(first.location).toBe(`/auth?etape=code&redirectTo=${encodeURIComponent("/dashboard/profile")}`);
    expect(first.setCookies.some((line) => line.startsWith("campus.session_token=") && !/Max-Age=0/.test(line))).toBe(false);
    const pending = cookieFrom(first.setCookies);

    const wrong = await run(
      authAction,
      formRequest("/auth?etape=code", { intent: "two-factor", code: "000000", redirectTo: "/dashboard/profile" }, pending, "203.0.113.81"),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: "Code incorrect. Vérifiez l'heure de votre téléphone et réessayez." });

    const right = await run(
      authAction,
      formRequest(
        "/auth?etape=code",
        { intent: "two-factor", code: await code(), redirectTo: "/dashboard/profile" },
        pending,
        "203.0.113.81",
      ),
    );
    expect(right.location).toBe("/dashboard/profile");
    const session = cookieFrom(right.setCookies, pending);
    expect((await resolveSession(campus.auth, new Headers({ cookie: session }))).user).toMatchObject({
      email: "totp@example.ml",
      twoFactorEnabled: true,
    });
    // One sign-in recorded for the password step of the first cookie, one for the code: the
    // half-done sign-in (password accepted, code pending) is not a sign-in.
    const { listRecentActivity } = await import("~/.server/activity");
    const signIns = (await listRecentActivity(handle.db, user.id)).filter((event) => event.type === "sign_in");
    expect(signIns.map((event) => (event.details as { method?: string })?.method)).toEqual(["two_factor", "password"]);
  });
});

describe("two-factor set-up from the profile", () => {
  test("a password longer than any allowed is wrong, beside its field, when turning two-factor on or off", async () => {
    const user = await createUser(handle.db, { email: "long-password@example.ml", password: true });
    const headers = browserHeaders("203.0.113.90", await signInCookie(campus, "long-password@example.ml", user.password));
    const tooLong = { password: "é".repeat(5000) };
    for (const step of [startTwoFactor, disableTwoFactor]) {
      await expect(step(campus.auth, headers, tooLong)).rejects.toMatchObject({
        code: "invalid",
        fieldErrors: { password: "Mot de passe incorrect." },
      });
    }
    await expect(startTwoFactor(campus.auth, headers, { password: "pas le bon" })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { password: "Mot de passe incorrect." },
    });
  });
});

describe("Better Auth's own endpoints", () => {
  test("its per-IP limiter (database storage) refuses bursts of two-factor codes", async () => {
    // (Password sign-ins have their own throttling: tests/integration/sign-in-throttling.test.ts.)
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await campus.auth.handler(
        new Request(`${TEST_PUBLIC_URL}/api/auth/two-factor/verify-totp`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: TEST_PUBLIC_URL, "x-campus-client-ip": "198.51.100.200" },
          body: JSON.stringify({ code: "123456" }),
        }),
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

function base32Decode(input: string): Uint8Array {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const output: number[] = [];
  for (const char of input.replace(/=+$/, "").toUpperCase()) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      output.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(output);
}
