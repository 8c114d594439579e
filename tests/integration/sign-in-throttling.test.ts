/**
 * Sign-in throttling that stops attackers and not owners (app/.server/auth/throttle.ts,
 * docs/decisions/0023-sign-in-throttling.md), through the /auth form's flow and Better Auth's
 * API, which share the counters in the database: an attack on an account never keeps its owner
 * out; one address guessing is refused fast; spraying many accounts switches unknown browsers to
 * the mailed link; concurrent guesses cannot overshoot; two processes see the same counters.
 */
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { confirmDevice, signIn, type FlowError } from "~/.server/auth/flows";
import { signInLimits } from "~/.server/auth/throttle";
import type { CampusAuth } from "~/.server/auth/express";
import { mailOutbox, rateLimits, verifications } from "~/.server/db/schema";
import { listOutbox } from "~/.server/mail";
import { consumeRateLimit } from "~/.server/rate-limit";
import { createUser, type TestUser } from "../factories";
import { browserHeaders, cookieFrom, createTestAuth, TEST_PUBLIC_URL, tokenOf } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let campus: CampusAuth;
let ipCounter = 0;

/** A fresh address for each attacker or owner. */
const newIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createTestAuth(handle.db);
});
afterAll(async () => handle?.close());
beforeEach(async () => {
  await handle.db.delete(rateLimits);
  await handle.db.delete(mailOutbox);
});

const outcome = (result: { ok: true } | FlowError) => (result.ok ? "ok" : result.kind);

async function guess(user: TestUser, ip = newIp(), cookie?: string) {
  return signIn(campus.auth, browserHeaders(ip, cookie), { email: user.email, password: "pas le bon mot de passe" });
}

async function owner(user: TestUser, ip = newIp(), cookie?: string) {
  return signIn(campus.auth, browserHeaders(ip, cookie), { email: user.email, password: user.password! });
}

/** The mailed link reaches the outbox without holding up the answer: wait for it. */
async function deviceLink(email: string): Promise<string> {
  for (let i = 0; i < 50; i += 1) {
    const [mail] = await listOutbox(handle.db, email, 1);
    const link = mail?.text.match(/http:\/\/campus\.test\/auth\/appareil\?token=\S+/)?.[0];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no device link mailed to ${email}`);
}

async function failuresOn(user: TestUser, count: number) {
  for (let i = 0; i < count; i += 1) expect(outcome(await guess(user))).toBe("invalid");
}

describe("an attack on one account, from many addresses", () => {
  test("never locks its owner out: a new browser gets the mailed link, a known one gets in at once", async () => {
    const victim = await createUser(handle.db, { password: true });
    // The owner's phone: signed in before the attack, so it is a known browser.
    const before = await owner(victim);
    expect(before.ok).toBe(true);
    const phone = cookieFrom(before.ok ? before.setCookies : []);

    await failuresOn(victim, signInLimits.account.limit);

    // Right password, unknown browser: no lock-out message, a confirmation link instead.
    const laptop = await owner(victim);
    expect(laptop).toMatchObject({ ok: false, kind: "confirm_device" });
    const link = await deviceLink(victim.email);
    // The attacker gets the very same answer, and no mail is sent for a wrong password.
    await handle.db.delete(mailOutbox);
    const attacker = (await guess(victim)) as FlowError;
    expect(attacker.kind).toBe("confirm_device");
    expect(attacker.message).toBe((laptop as FlowError).message);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listOutbox(handle.db, victim.email)).toHaveLength(0);

    // The owner opens the link on the laptop, then signs in there.
    const confirmed = await confirmDevice(campus.auth, browserHeaders(newIp()), tokenOf(link));
    expect(confirmed.ok).toBe(true);
    const laptopCookie = cookieFrom(confirmed.ok ? confirmed.setCookies : []);
    expect(outcome(await owner(victim, newIp(), laptopCookie))).toBe("ok");
    // The link served once.
    expect(outcome(await confirmDevice(campus.auth, browserHeaders(newIp()), tokenOf(link)))).toBe("token");

    // The phone never noticed the attack.
    expect(outcome(await owner(victim, newIp(), phone))).toBe("ok");
  });

  test("a forged or foreign known-browser cookie vouches for nothing", async () => {
    const victim = await createUser(handle.db, { password: true });
    const other = await createUser(handle.db, { password: true });
    const signedIn = await owner(other);
    const otherCookie = cookieFrom(signedIn.ok ? signedIn.setCookies : []);
    await failuresOn(victim, signInLimits.account.limit);
    // Known for another account only.
    expect(outcome(await owner(victim, newIp(), otherCookie))).toBe("confirm_device");
    // Altered.
    const forged = otherCookie.replace(/campus\.appareils=([^.;]+)\.([^;]+)/, (_, payload: string) => {
      const ids = JSON.stringify([victim.id]);
      return `campus.appareils=${Buffer.from(ids).toString("base64url")}.${payload.slice(0, 10)}`;
    });
    expect(outcome(await owner(victim, newIp(), forged))).toBe("confirm_device");
  });

  test("the link expires after 30 minutes and cannot be forged", async () => {
    expect(outcome(await confirmDevice(campus.auth, browserHeaders(newIp()), "inventé"))).toBe("token");
    const victim = await createUser(handle.db, { password: true });
    await failuresOn(victim, signInLimits.account.limit);
    expect(outcome(await owner(victim))).toBe("confirm_device");
    const link = await deviceLink(victim.email);
    await handle.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(verifications.identifier, "appareil:%"));
    expect(outcome(await confirmDevice(campus.auth, browserHeaders(newIp()), tokenOf(link)))).toBe("token");
  });
});

describe("one address guessing", () => {
  test("one account from one address is refused fast; the owner elsewhere is not", async () => {
    const victim = await createUser(handle.db, { password: true });
    const attackerIp = newIp();
    for (let i = 0; i < signInLimits.ipAccount.limit; i += 1) expect(outcome(await guess(victim, attackerIp))).toBe("invalid");
    const refused = (await guess(victim, attackerIp)) as FlowError;
    expect(refused.kind).toBe("rate");
    expect(refused.message).toMatch(/^Trop de tentatives pour ce compte depuis votre réseau\. Réessayez dans \d+ minutes?\./);
    // Even the right password from that address waits: the address is what is refused.
    expect(outcome(await owner(victim, attackerIp))).toBe("rate");
    // The owner, anywhere else, signs in as usual (too few failures to ask for the link).
    expect(outcome(await owner(victim))).toBe("ok");
  });

  test("many accounts from one address are refused once the address has failed too often", async () => {
    const ip = newIp();
    // The address's failures so far, counted faster than by running them.
    for (let i = 0; i < signInLimits.ip.limit - 1; i += 1) {
      await consumeRateLimit(handle.db, `sign-in:ip:${ip}`, { ...signInLimits.ip });
    }
    const someone = await createUser(handle.db, { password: true });
    expect(outcome(await guess(someone, ip))).toBe("invalid");
    const refused = (await guess(await createUser(handle.db, { password: true }), ip)) as FlowError;
    expect(refused).toMatchObject({ kind: "rate" });
    expect(refused.message).toMatch(/^Trop de tentatives de connexion depuis votre réseau\./);
    // Another address is not concerned.
    expect(outcome(await owner(someone))).toBe("ok");
  });

  test("a class signing in from one address is never refused: right passwords give their attempt back", async () => {
    const ip = newIp();
    const learners = await Promise.all(Array.from({ length: 6 }, () => createUser(handle.db, { password: true })));
    for (const learner of learners) {
      expect(outcome(await guess(learner, ip))).toBe("invalid");
      expect(outcome(await owner(learner, ip))).toBe("ok");
      expect(outcome(await owner(learner, ip))).toBe("ok");
    }
    // Only the 6 typos count against the address.
    const [row] = await handle.db
      .select()
      .from(rateLimits)
      .where(eq(rateLimits.key, `sign-in:ip:${ip}`));
    expect(row?.count).toBe(6);
  });

  test("concurrent guesses cannot overshoot the limit", async () => {
    const victim = await createUser(handle.db, { password: true });
    const ip = newIp();
    const results = await Promise.all(Array.from({ length: 20 }, () => guess(victim, ip)));
    const kinds = results.map(outcome);
    expect(kinds.filter((kind) => kind === "invalid")).toHaveLength(signInLimits.ipAccount.limit);
    expect(kinds.filter((kind) => kind === "rate")).toHaveLength(20 - signInLimits.ipAccount.limit);
  });
});

describe("passwords sprayed over the whole site", () => {
  test("switch every unknown browser to the mailed link, and leave known browsers alone", async () => {
    const regular = await createUser(handle.db, { password: true });
    const first = await owner(regular);
    const regularCookie = cookieFrom(first.ok ? first.setCookies : []);
    // The site's failures of the last minutes, from many addresses on many accounts.
    for (let i = 0; i < signInLimits.site.limit; i += 1) {
      await consumeRateLimit(handle.db, "sign-in:site", { limit: Number.MAX_SAFE_INTEGER, windowSeconds: signInLimits.site.windowSeconds });
    }
    const newcomer = await createUser(handle.db, { password: true });
    expect(outcome(await owner(newcomer))).toBe("confirm_device");
    await deviceLink(newcomer.email);
    expect(outcome(await owner(regular, newIp(), regularCookie))).toBe("ok");
  });
});

describe("one set of counters", () => {
  test("the form and the API count together, in French", async () => {
    const victim = await createUser(handle.db, { password: true });
    const ip = newIp();
    for (let i = 0; i < signInLimits.ipAccount.limit; i += 1) {
      const response = await campus.auth.handler(
        new Request(`${TEST_PUBLIC_URL}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: TEST_PUBLIC_URL, "x-campus-client-ip": ip },
          body: JSON.stringify({ email: victim.email, password: "pas le bon" }),
        }),
      );
      expect(response.status).toBe(401);
      expect(((await response.json()) as { message: string }).message).toBe("E-mail ou mot de passe incorrect.");
    }
    // The form, from the same address, is refused: the API's failures counted.
    expect(outcome(await guess(victim, ip))).toBe("rate");
    const api = await campus.auth.handler(
      new Request(`${TEST_PUBLIC_URL}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: TEST_PUBLIC_URL, "x-campus-client-ip": ip },
        body: JSON.stringify({ email: victim.email, password: victim.password }),
      }),
    );
    expect(api.status).toBe(429);
    expect(((await api.json()) as { message: string }).message).toMatch(/^Trop de tentatives pour ce compte/);
  });

  test("two processes on one database share them", async () => {
    const otherProcess = createTestAuth(handle.db);
    const victim = await createUser(handle.db, { password: true });
    const ip = newIp();
    for (let i = 0; i < signInLimits.ipAccount.limit; i += 1) {
      const instance = i % 2 ? campus : otherProcess;
      expect(outcome(await signIn(instance.auth, browserHeaders(ip), { email: victim.email, password: "faux" }))).toBe("invalid");
    }
    expect(outcome(await signIn(otherProcess.auth, browserHeaders(ip), { email: victim.email, password: "faux" }))).toBe("rate");
    expect(outcome(await signIn(campus.auth, browserHeaders(ip), { email: victim.email, password: "faux" }))).toBe("rate");
  });
});
