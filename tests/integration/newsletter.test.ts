import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clientIpContext, dbContext } from "~/.server/context";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, newsletterSubscriptions, rateLimits } from "~/.server/db/schema";
import { NEWSLETTER_QUEUE, NEWSLETTER_RATE_LIMIT, subscribeToNewsletter } from "~/.server/newsletter";
import { NEWSLETTER_MESSAGES } from "~/lib/newsletter";
import { action } from "~/routes/public/newsletter";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(newsletterSubscriptions);
  await handle.db.delete(rateLimits);
  await handle.db.delete(jobs);
});

const emails = async () => (await handle.db.select().from(newsletterSubscriptions)).map((row) => row.email);

describe("subscribeToNewsletter", () => {
  it("subscribes a new address, trimmed and lower-cased", async () => {
    expect(await subscribeToNewsletter(handle.db, "  Awa.Traore@Example.ML ")).toEqual({
      status: "subscribed",
      email: "awa.traore@example.ml",
    });
    expect(await emails()).toEqual(["awa.traore@example.ml"]);
  });

  it("makes a second subscription a friendly no-op, whatever the case or spaces: pending, then already once confirmed", async () => {
    await subscribeToNewsletter(handle.db, "moussa@example.ml");
    expect(await subscribeToNewsletter(handle.db, "moussa@example.ml")).toEqual({ status: "pending", email: "moussa@example.ml" });
    expect(await subscribeToNewsletter(handle.db, " MOUSSA@example.ml\t")).toMatchObject({ status: "pending" });
    expect(await emails()).toEqual(["moussa@example.ml"]);
    // One confirmation mail queued, not one per submit.
    expect(await handle.db.$count(jobs, eq(jobs.queue, NEWSLETTER_QUEUE))).toBe(1);
    await handle.db.update(newsletterSubscriptions).set({ pendingSince: null });
    expect(await subscribeToNewsletter(handle.db, "moussa@example.ml")).toEqual({ status: "already", email: "moussa@example.ml" });
  });

  it("never creates duplicates under concurrent double submits", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => subscribeToNewsletter(handle.db, "fatou@example.ml")));
    expect(results.filter((r) => r.status === "subscribed")).toHaveLength(1);
    expect(results.filter((r) => r.status === "pending")).toHaveLength(7);
    expect(await emails()).toEqual(["fatou@example.ml"]);
  });

  it.each<[unknown, string]>([
    ["", "empty"],
    ["   ", "blank"],
    ["awa", "no @"],
    ["awa@", "no domain"],
    ["a b@example.ml", "space"],
    [`${"a".repeat(250)}@example.ml`, "too long"],
    [null, "missing"],
    [42, "not text"],
  ])("refuses %j (%s) with a French message, storing nothing", async (email) => {
    expect(await subscribeToNewsletter(handle.db, email)).toEqual({ status: "invalid", message: NEWSLETTER_MESSAGES.invalid });
    expect(await emails()).toEqual([]);
  });

  it("limits attempts per IP address", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    for (let i = 0; i < NEWSLETTER_RATE_LIMIT.limit; i++) {
      expect(await subscribeToNewsletter(handle.db, `n${i}@example.ml`, { ip: "203.0.113.9", now })).toMatchObject({
        status: "subscribed",
      });
    }
    expect(await subscribeToNewsletter(handle.db, "late@example.ml", { ip: "203.0.113.9", now })).toEqual({
      status: "rate-limited",
      message: "Trop de tentatives. Réessayez dans 60 minutes.",
      retryAfterSeconds: 3600,
    });
    expect(await subscribeToNewsletter(handle.db, "late@example.ml", { ip: "203.0.113.10", now })).toMatchObject({ status: "subscribed" });
    expect(await emails()).toHaveLength(NEWSLETTER_RATE_LIMIT.limit + 1);
  });
});

describe("POST /newsletter", () => {
  type Result = { data: unknown; init: ResponseInit | null };
  async function post(fields: Record<string, string>, ip = "198.51.100.4"): Promise<Result> {
    const request = new Request("http://localhost/newsletter", { method: "POST", body: new URLSearchParams(fields) });
    const context = new RouterContextProvider();
    context.set(dbContext, handle.db);
    context.set(clientIpContext, ip);
    const result = (await action({
      request,
      context,
      params: {},
      url: new URL(request.url),
      pattern: "/newsletter",
    } as unknown as Parameters<typeof action>[0])) as unknown as Result;
    return result;
  }

  it("answers subscribed, then already", async () => {
    const first = await post({ email: "Kadiatou@Example.ml", website: "" });
    expect(first.data).toEqual({ status: "subscribed", message: NEWSLETTER_MESSAGES.subscribed });
    expect(first.init?.status ?? 200).toBe(200);
    expect((await post({ email: "kadiatou@example.ml" })).data).toEqual({ status: "pending", message: NEWSLETTER_MESSAGES.pending });
    await handle.db.update(newsletterSubscriptions).set({ pendingSince: null });
    expect((await post({ email: "kadiatou@example.ml" })).data).toEqual({ status: "already", message: NEWSLETTER_MESSAGES.already });
    expect(await emails()).toEqual(["kadiatou@example.ml"]);
  });

  it("answers 400 with the field error and what was typed", async () => {
    const result = await post({ email: "pas valide" });
    expect(result.init?.status).toBe(400);
    expect(result.data).toEqual({
      status: "error",
      message: NEWSLETTER_MESSAGES.invalid,
      fieldErrors: { email: NEWSLETTER_MESSAGES.invalid },
      email: "pas valide",
    });
    expect((await post({})).init?.status).toBe(400);
  });

  it("pretends success when the honeypot is filled, and stores nothing", async () => {
    const result = await post({ email: "bot@example.ml", website: "https://spam.example" });
    expect(result.data).toMatchObject({ status: "subscribed" });
    expect(await emails()).toEqual([]);
  });

  it("answers 429 once an address has tried too often", async () => {
    for (let i = 0; i < NEWSLETTER_RATE_LIMIT.limit; i++) await post({ email: `r${i}@example.ml` }, "192.0.2.50");
    const result = await post({ email: "again@example.ml" }, "192.0.2.50");
    expect(result.init?.status).toBe(429);
    expect(result.data).toMatchObject({
      status: "error",
      message: expect.stringMatching(/^Trop de tentatives/),
      email: "again@example.ml",
    });
  });
});
