import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listRecentActivity } from "~/.server/activity";
import type { CampusAuth } from "~/.server/auth/express";
import { frenchAuthMessage } from "~/.server/auth/error-messages";
import { mapAuthError, requestPasswordReset, resendVerification, resetPassword, signIn, signUp, verifyEmail } from "~/.server/auth/flows";
import { resolveSession } from "~/.server/auth/session";
import { accounts, mailOutbox, sessions, users } from "~/.server/db/schema";
import { listOutbox } from "~/.server/mail";
import { authMessages } from "~/components/auth/messages";
import { passwordMessages } from "~/lib/password-policy";
import { createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { browserHeaders, cookieFrom, createTestAuth, linkFromOutbox, signInCookie, tokenOf } from "../setup/auth";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let campus: CampusAuth;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
});
afterAll(async () => handle?.close());

const strong = "un cheval bleu sur la colline";

describe("sign-up, confirmation, sign-in (through the outbox)", () => {
  test("a new account confirms its address from the mail's link, then signs in", async () => {
    const db = handle.db;
    const result = await signUp(campus.auth, db, browserHeaders("203.0.113.1"), {
      firstName: "Moussa",
      lastName: "Keïta",
      email: "Moussa.Keita@Example.ML",
      password: strong,
    });
    expect(result.ok).toBe(true);
    const [user] = await db.select().from(users).where(eq(users.email, "moussa.keita@example.ml"));
    expect(user).toMatchObject({
      firstName: "Moussa",
      lastName: "Keïta",
      name: "Moussa Keïta",
      role: "user",
      emailVerified: false,
      banned: false,
    });

    // Argon2id at OWASP parameters, not Better Auth's scrypt default.
    const [account] = await db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(account!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    // The mail is in French, with the institute's name and a link to /auth/verification.
    const [mail] = await listOutbox(db, "moussa.keita@example.ml", 1);
    expect(mail!.subject).toContain("Confirmez votre adresse e-mail");
    expect(mail!.text).toContain("Institut Consulaire d'Études et de Formation");
    expect(mail!.html).toContain("Confirmer mon adresse e-mail");

    // Not confirmed yet: sign-in refused with the unconfirmed message.
    const refused = await signIn(campus.auth, browserHeaders("203.0.113.1"), { email: "moussa.keita@example.ml", password: strong });
    expect(refused).toMatchObject({ ok: false, kind: "unverified", message: authMessages.emailNotVerified });

    const link = await linkFromOutbox(db, "moussa.keita@example.ml", /http:\/\/campus\.test\/auth\/verification\?token=\S+/);
    const verified = await verifyEmail(campus.auth, browserHeaders("203.0.113.1"), tokenOf(link));
    expect(verified.ok).toBe(true);
    // Confirmation signs the visitor in (the link lands on /dashboard).
    const cookie = cookieFrom(verified.ok ? verified.setCookies : []);
    const session = await resolveSession(campus.auth, new Headers({ cookie }));
    expect(session.user).toMatchObject({ email: "moussa.keita@example.ml", emailVerified: true, role: "user", firstName: "Moussa" });
    // That automatic sign-in is in the activity log like any other.
    const [confirmedSignIn] = (await listRecentActivity(db, user!.id)).filter((event) => event.type === "sign_in");
    expect(confirmedSignIn?.details).toMatchObject({ method: "email_verification" });

    const signedIn = await signIn(campus.auth, browserHeaders("203.0.113.1"), { email: "MOUSSA.KEITA@example.ml", password: strong });
    expect(signedIn.ok).toBe(true);
    const activity = await listRecentActivity(db, user!.id);
    expect(activity.map((event) => event.type)).toEqual(expect.arrayContaining(["sign_in", "email_verified"]));
    const signInEvent = activity.find((event) => event.type === "sign_in")!;
    expect(signInEvent.ipAddress).toBe("203.0.113.1");
  });

  test("a confirmation link cannot be forged", async () => {
    const result = await verifyEmail(campus.auth, browserHeaders(), "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6Im5vYm9keUBleGFtcGxlLm1sIn0.forged");
    expect(result).toMatchObject({ ok: false, kind: "token", message: authMessages.verificationLinkInvalid });
  });

  test("an address already registered gets the spec's message, and no second account", async () => {
    await createUser(handle.db, { email: "deja@example.ml", password: true });
    const result = await signUp(campus.auth, handle.db, browserHeaders("203.0.113.2"), {
      firstName: "A",
      lastName: "B",
      email: "DEJA@example.ml",
      password: strong,
    });
    expect(result).toMatchObject({ ok: false, kind: "taken", message: "Cette adresse e-mail est déjà utilisée. Veuillez vous connecter." });
    expect(await handle.db.$count(users, eq(users.email, "deja@example.ml"))).toBe(1);
  });

  test("users cannot choose their own role at sign-up", async () => {
    const attempt = await campus.auth.api
      .signUpEmail({
        body: { email: "pirate@example.ml", password: strong, name: "x", firstName: "P", lastName: "R", role: "admin" } as never,
        headers: browserHeaders("203.0.113.3"),
      })
      .catch((error: unknown) => error);
    const [row] = await handle.db.select({ role: users.role }).from(users).where(eq(users.email, "pirate@example.ml"));
    // Either refused outright, or created as a plain user: never an admin.
    if (row) expect(row.role).toBe("user");
    else expect(attempt).toBeInstanceOf(Error);
  });
});

describe("Better Auth's error codes", () => {
  test("every one has its French message, and the flows give it rather than a generic failure", async () => {
    const codes = Object.entries(campus.auth.$ERROR_CODES as Record<string, string | { message: string }>);
    expect(codes.length).toBeGreaterThan(50);
    for (const [code, english] of codes) {
      const message = frenchAuthMessage(code);
      expect(message, code).toBeTruthy();
      expect(message, code).not.toBe(typeof english === "string" ? english : english.message);
      const mapped = mapAuthError({ body: { code, message: english } }, "générique");
      expect(mapped.message, code).not.toBe("générique");
    }
  });
});

describe("password policy (French reasons, on every path)", () => {
  test.each([
    ["court", passwordMessages.tooShort],
    ["password123", passwordMessages.common],
    ["azerty123", passwordMessages.common],
    ["Motdepasse2024!", passwordMessages.common],
    ["x".repeat(129), passwordMessages.tooLong],
    ["        ", passwordMessages.blank],
    ["  court   ", passwordMessages.tooShort],
    ["icef2025", passwordMessages.contextWord],
    ["Bamako-ICEF!", passwordMessages.contextWord],
    ["aaaaaaaaaaaa", passwordMessages.repeated],
  ])("sign-up refuses %j", async (password, reason) => {
    const email = `policy-${Math.random().toString(36).slice(2)}@example.ml`;
    const result = await signUp(campus.auth, handle.db, browserHeaders("203.0.113.4"), { firstName: "A", lastName: "B", email, password });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.kind).toBe("policy");
      expect(result.fieldErrors?.password).toContain(reason);
    }
    expect(await handle.db.$count(users, eq(users.email, email))).toBe(0);
  });

  test("a direct call to Better Auth's sign-up endpoint cannot skip the policy", async () => {
    const error = (await campus.auth.api
      .signUpEmail({
        body: { email: "direct@example.ml", password: "iloveyou1", name: "x", firstName: "A", lastName: "B" } as never,
        headers: browserHeaders("203.0.113.5"),
      })
      .catch((caught: unknown) => caught)) as { body?: { code?: string; message?: string } };
    expect(error.body?.code).toBe("PASSWORD_POLICY");
    expect(error.body?.message).toContain("trop courant");
    const institute = (await campus.auth.api
      .signUpEmail({
        body: { email: "direct2@example.ml", password: "icef2025", name: "x", firstName: "A", lastName: "B" } as never,
        headers: browserHeaders("203.0.113.5"),
      })
      .catch((caught: unknown) => caught)) as { body?: { code?: string; message?: string } };
    expect(institute.body?.message).toBe(passwordMessages.contextWord);
  });

  test("passwords of 128 characters are accepted", async () => {
    const long = "une phrase de passe très longue ".repeat(5).slice(0, 128);
    const result = await signUp(campus.auth, handle.db, browserHeaders("203.0.113.6"), {
      firstName: "A",
      lastName: "B",
      email: "long@example.ml",
      password: long,
    });
    expect(result.ok).toBe(true);
  });

  test("changing the password goes through the policy and ends the other sessions", async () => {
    const user = await createUser(handle.db, { email: "change@example.ml", password: true });
    const { password } = user;
    const here = await signInCookie(campus, "change@example.ml", password, "203.0.113.7");
    const elsewhere = await signInCookie(campus, "change@example.ml", password, "203.0.113.8");

    const weak = (await campus.auth.api
      .changePassword({ body: { currentPassword: password, newPassword: "12345678" }, headers: browserHeaders("203.0.113.7", here) })
      .catch((caught: unknown) => caught)) as { body?: { code?: string } };
    expect(weak.body?.code).toBe("PASSWORD_POLICY");
    const repeated = (await campus.auth.api
      .changePassword({ body: { currentPassword: password, newPassword: "aaaaaaaaaaaa" }, headers: browserHeaders("203.0.113.7", here) })
      .catch((caught: unknown) => caught)) as { body?: { message?: string } };
    expect(repeated.body?.message).toBe(passwordMessages.repeated);

    await campus.auth.api.changePassword({
      body: { currentPassword: password, newPassword: "une toute nouvelle phrase", revokeOtherSessions: true },
      headers: browserHeaders("203.0.113.7", here),
    });
    expect((await resolveSession(campus.auth, new Headers({ cookie: elsewhere }))).user).toBeNull();
    const types = (await listRecentActivity(handle.db, user.id)).map((event) => event.type);
    expect(types).toContain("password_changed");
  });
});

describe("sign-in answers", () => {
  test("a wrong password and an unknown address get the same answer", async () => {
    await createUser(handle.db, { email: "connue@example.ml", password: true });
    const wrong = await signIn(campus.auth, browserHeaders("203.0.113.11"), {
      email: "connue@example.ml",
      password: "pas le bon mot de passe",
    });
    const unknown = await signIn(campus.auth, browserHeaders("203.0.113.11"), {
      email: "inconnue@example.ml",
      password: "pas le bon mot de passe",
    });
    expect(wrong).toEqual({ ok: false, kind: "invalid", message: "E-mail ou mot de passe incorrect." });
    expect(unknown).toEqual(wrong);
  });

  test("each sign-in creates a new session", async () => {
    const { password } = await createUser(handle.db, { email: "sessions@example.ml", password: true });
    const first = await signInCookie(campus, "sessions@example.ml", password);
    const second = await signInCookie(campus, "sessions@example.ml", password);
    expect(first).not.toBe(second);
    const [user] = await handle.db.select().from(users).where(eq(users.email, "sessions@example.ml"));
    expect(await handle.db.$count(sessions, eq(sessions.userId, user!.id))).toBe(2);
  });

  test("an unconfirmed address is refused and can have the mail sent again", async () => {
    await signUp(campus.auth, handle.db, browserHeaders("203.0.113.12"), {
      firstName: "A",
      lastName: "B",
      email: "attente@example.ml",
      password: strong,
    });
    const before = await handle.db.$count(mailOutbox, eq(mailOutbox.to, "attente@example.ml"));
    const refused = await signIn(campus.auth, browserHeaders("203.0.113.12"), { email: "attente@example.ml", password: strong });
    expect(refused).toMatchObject({ ok: false, kind: "unverified" });
    const resent = await resendVerification(campus.auth, browserHeaders("203.0.113.12"), "attente@example.ml");
    expect(resent.ok).toBe(true);
    expect(await handle.db.$count(mailOutbox, eq(mailOutbox.to, "attente@example.ml"))).toBe(before + 1);
    // The same answer for an unknown address, and no mail.
    expect((await resendVerification(campus.auth, browserHeaders("203.0.113.12"), "personne@example.ml")).ok).toBe(true);
    expect(await handle.db.$count(mailOutbox, eq(mailOutbox.to, "personne@example.ml"))).toBe(0);
  });

  test("a deactivated account cannot sign in and its sessions end", async () => {
    const user = await createUser(handle.db, { email: "desactive@example.ml", password: true });
    const { password } = user;
    const cookie = await signInCookie(campus, "desactive@example.ml", password);
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user?.id).toBe(user.id);

    await handle.db.update(users).set({ banned: true, bannedAt: new Date() }).where(eq(users.id, user.id));
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user).toBeNull();
    expect(await handle.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);

    const refused = await signIn(campus.auth, browserHeaders("203.0.113.13"), { email: "desactive@example.ml", password });
    expect(refused).toEqual({ ok: false, kind: "deactivated", message: "Ce compte a été désactivé. Contactez l'administration." });
    // A wrong password still gets the ordinary answer (nothing learnt about the account).
    const wrong = await signIn(campus.auth, browserHeaders("203.0.113.13"), {
      email: "desactive@example.ml",
      password: "pas le bon mot de passe",
    });
    expect(wrong).toMatchObject({ ok: false, kind: "invalid" });
  });
});

describe("password recovery", () => {
  test("reset by mail: the link works once, ends every session, and signs the visitor in", async () => {
    const user = await createUser(handle.db, { email: "oubli@example.ml", password: true });
    const { password } = user;
    const oldSession = await signInCookie(campus, "oubli@example.ml", password);

    const requested = await requestPasswordReset(campus.auth, browserHeaders("203.0.113.14"), "Oubli@Example.ml");
    expect(requested.ok).toBe(true);
    const link = await linkFromOutbox(handle.db, "oubli@example.ml", /http:\/\/campus\.test\/auth\?mode=recuperation&token=\S+/);
    const [mail] = await listOutbox(handle.db, "oubli@example.ml", 1);
    expect(mail!.subject).toContain("Réinitialisation de votre mot de passe");

    const weak = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.14"), {
      token: tokenOf(link),
      password: "soleil2024",
    });
    expect(weak).toMatchObject({ ok: false, kind: "policy" });
    const repeated = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.14"), {
      token: tokenOf(link),
      password: "aaaaaaaaaaaa",
    });
    expect(repeated).toMatchObject({ ok: false, kind: "policy", fieldErrors: { password: passwordMessages.repeated } });

    const reset = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.14"), {
      token: tokenOf(link),
      password: "ma nouvelle phrase secrète",
    });
    expect(reset).toMatchObject({ ok: true, signedIn: true, twoFactor: false });
    const fresh = cookieFrom(reset.ok ? reset.setCookies : []);
    expect((await resolveSession(campus.auth, new Headers({ cookie: fresh }))).user?.id).toBe(user.id);
    expect((await resolveSession(campus.auth, new Headers({ cookie: oldSession }))).user).toBeNull();

    const reused = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.14"), {
      token: tokenOf(link),
      password: "encore une autre phrase",
    });
    expect(reused).toMatchObject({ ok: false, kind: "token", message: authMessages.resetLinkInvalid });

    expect((await signIn(campus.auth, browserHeaders("203.0.113.15"), { email: "oubli@example.ml", password })).ok).toBe(false);
    expect(
      (await signIn(campus.auth, browserHeaders("203.0.113.15"), { email: "oubli@example.ml", password: "ma nouvelle phrase secrète" })).ok,
    ).toBe(true);
    const types = (await listRecentActivity(handle.db, user.id)).map((event) => event.type);
    expect(types).toContain("password_reset");
  });

  test("an unknown address gets the same answer and no mail", async () => {
    const result = await requestPasswordReset(campus.auth, browserHeaders("203.0.113.16"), "absent@example.ml");
    expect(result.ok).toBe(true);
    expect(await handle.db.$count(mailOutbox, eq(mailOutbox.to, "absent@example.ml"))).toBe(0);
  });

  test("an expired link is refused", async () => {
    await createUser(handle.db, { email: "expire@example.ml", password: true });
    await requestPasswordReset(campus.auth, browserHeaders("203.0.113.17"), "expire@example.ml");
    const link = await linkFromOutbox(handle.db, "expire@example.ml", /http:\/\/campus\.test\/auth\?mode=recuperation&token=\S+/);
    const context = await campus.auth.$context;
    const verification = await context.internalAdapter.findVerificationValue(`reset-password:${tokenOf(link)}`);
    const { verifications } = await import("~/.server/db/schema");
    await handle.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.id, verification!.id));
    const result = await resetPassword(campus.auth, handle.db, browserHeaders("203.0.113.17"), {
      token: tokenOf(link),
      password: "une phrase toute neuve",
    });
    expect(result).toMatchObject({ ok: false, kind: "token" });
  });

  test("recovery is rate limited per address", async () => {
    const results = [];
    for (let i = 0; i < 7; i++)
      results.push(await requestPasswordReset(campus.auth, browserHeaders(`192.0.2.${100 + i}`), "spam@example.ml"));
    expect(results.slice(0, 5).every((result) => result.ok)).toBe(true);
    expect(results.slice(5).every((result) => !result.ok && result.kind === "rate")).toBe(true);
  });
});

describe("session lifetime", () => {
  test("a session unused longer than the idle timeout is over", async () => {
    const user = await createUser(handle.db, { email: "inactif@example.ml", password: true });
    const { password } = user;
    const cookie = await signInCookie(campus, "inactif@example.ml", password);
    await handle.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.userId, user.id));
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user).toBeNull();
  });

  test("a session older than SESSION_MAX_DAYS is over even when in use, and deleted", async () => {
    const user = await createUser(handle.db, { email: "ancien@example.ml", password: true });
    const { password } = user;
    const cookie = await signInCookie(campus, "ancien@example.ml", password);
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user?.id).toBe(user.id);
    await handle.db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await resolveSession(campus.auth, new Headers({ cookie }))).user).toBeNull();
    expect(await handle.db.$count(sessions, and(eq(sessions.userId, user.id)))).toBe(0);
  });

  test("the idle timeout follows SESSION_IDLE_MINUTES", async () => {
    const shortLived = createTestAuth(handle.db, { sessionIdleMinutes: 30 });
    const user = await createUser(handle.db, { email: "court-terme@example.ml", password: true });
    const { password } = user;
    await signInCookie(shortLived, "court-terme@example.ml", password);
    const [session] = await handle.db.select().from(sessions).where(eq(sessions.userId, user.id));
    const minutes = (session!.expiresAt.getTime() - session!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30.1);
  });
});
