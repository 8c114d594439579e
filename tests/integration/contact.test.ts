import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { RouterContextProvider, createRoutesStub } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContactForm } from "~/components/contact/contact-form";
import { CONTACT_RATE_LIMITS, listContactMessages, sendContactMessage } from "~/.server/contact";
import { clientIpContext, dbContext } from "~/.server/context";
import type { DatabaseHandle } from "~/.server/db/client";
import { contactMessages, rateLimits } from "~/.server/db/schema";
import { CONTACT_INTERESTS, CONTACT_SUBJECTS } from "~/lib/contact";
import { action } from "~/routes/public/contact";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});
beforeEach(async () => {
  await handle.db.delete(contactMessages);
  await handle.db.delete(rateLimits);
});

const valid = {
  name: "Awa Traoré",
  email: "awa.traore@example.ml",
  phone: "+223 76 12 34 56",
  subject: "Inscription aux formations",
  message: "Bonjour, je souhaite m'inscrire à la formation en cybersécurité.",
  interest: "Cybersécurité",
};
const ip = "203.0.113.7";
const stored = () => handle.db.select().from(contactMessages);

describe("sendContactMessage", () => {
  it("stores a valid message, trimmed, with the sender's address", async () => {
    const result = await sendContactMessage(handle.db, { ...valid, name: "  Awa Traoré  ", website: "" }, { ip });
    expect(result).toEqual({ ok: true });
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ...valid, ipAddress: ip });
  });

  it("stores optional fields as null when left empty", async () => {
    expect(await sendContactMessage(handle.db, { ...valid, phone: "  ", interest: "" }, { ip })).toEqual({ ok: true });
    expect((await stored())[0]).toMatchObject({ phone: null, interest: null });
  });

  it("refuses empty required fields with a French message per field, storing nothing", async () => {
    const result = await sendContactMessage(handle.db, { name: "", email: "", subject: "", message: "   " }, { ip });
    expect(result).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        name: "Veuillez indiquer votre nom.",
        email: "Veuillez indiquer votre adresse e-mail.",
        subject: "Veuillez choisir un sujet dans la liste.",
        message: "Veuillez écrire votre message.",
      },
    });
    expect(await stored()).toHaveLength(0);
  });

  it("refuses missing fields (a bot posting nothing)", async () => {
    const result = await sendContactMessage(handle.db, {}, { ip });
    expect(result.ok).toBe(false);
    if (!result.ok && result.reason === "invalid") {
      expect(Object.keys(result.fieldErrors).sort()).toEqual(["email", "message", "name", "subject"]);
    }
  });

  it.each(["awa", "awa@", "@example.ml", "awa traore@example.ml", "awa@example"])(
    "refuses the e-mail %j and keeps what was typed",
    async (email) => {
      const result = await sendContactMessage(handle.db, { ...valid, email }, { ip });
      expect(result).toMatchObject({
        ok: false,
        reason: "invalid",
        fieldErrors: { email: "Veuillez saisir une adresse e-mail valide (exemple : nom@domaine.ml)." },
        values: { ...valid, email },
      });
      expect(await stored()).toHaveLength(0);
    },
  );

  it("refuses a subject or an interest outside the lists", async () => {
    const result = await sendContactMessage(handle.db, { ...valid, subject: "Spam", interest: "Casino" }, { ip });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        subject: "Veuillez choisir un sujet dans la liste.",
        interest: "Veuillez choisir un centre d'intérêt dans la liste.",
      },
    });
    expect(await stored()).toHaveLength(0);
  });

  it("accepts every listed subject and interest", async () => {
    for (const [index, subject] of CONTACT_SUBJECTS.entries()) {
      const interest = CONTACT_INTERESTS[index];
      const result = await sendContactMessage(
        handle.db,
        { ...valid, email: `s${index}@example.ml`, subject, interest },
        { ip: `10.0.0.${index}` },
      );
      expect(result).toEqual({ ok: true });
    }
    expect(await stored()).toHaveLength(CONTACT_SUBJECTS.length);
  });

  it("bounds the lengths of every field", async () => {
    const result = await sendContactMessage(
      handle.db,
      { ...valid, name: "a".repeat(101), email: `${"a".repeat(250)}@example.ml`, phone: "1".repeat(31), message: "m".repeat(5001) },
      { ip },
    );
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: {
        name: "Votre nom ne doit pas dépasser 100 caractères.",
        email: "Cette adresse e-mail est trop longue.",
        phone: "Le numéro ne doit pas dépasser 30 caractères.",
        message: expect.stringMatching(/^Votre message est trop long : 5\s000 caractères au maximum\.$/),
      },
    });
    expect(await stored()).toHaveLength(0);
    // The limit itself is fine.
    expect(await sendContactMessage(handle.db, { ...valid, name: "a".repeat(100), message: "m".repeat(5000) }, { ip })).toEqual({
      ok: true,
    });
  });

  it("refuses a 100 KB message with a message and echoes back only a bounded part of it", async () => {
    const huge = "x".repeat(100 * 1024);
    const result = await sendContactMessage(handle.db, { ...valid, message: huge }, { ip });
    expect(result).toMatchObject({ ok: false, reason: "invalid", fieldErrors: { message: expect.stringContaining("trop long") } });
    if (!result.ok) expect(result.values.message!.length).toBeLessThanOrEqual(10_000);
    expect(await stored()).toHaveLength(0);
  });

  it("checks phone numbers without being fussy about their format", async () => {
    for (const phone of ["+223 76 12 34 56", "76123456", "(+223) 20-22-50-36", "00223 66.18.73.40"]) {
      expect(await sendContactMessage(handle.db, { ...valid, phone }, { ip: phone })).toEqual({ ok: true });
    }
    for (const phone of ["appelez-moi", "1234", "+223 <b>76</b>"]) {
      const result = await sendContactMessage(handle.db, { ...valid, phone }, { ip });
      expect(result).toMatchObject({ ok: false, fieldErrors: { phone: expect.any(String) } });
    }
  });

  it("stores markup as typed (it is escaped when rendered)", async () => {
    const markup = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
    expect(await sendContactMessage(handle.db, { ...valid, name: "<b>Awa</b>", message: markup }, { ip })).toEqual({ ok: true });
    const [row] = await listContactMessages(handle.db);
    expect(row).toMatchObject({ name: "<b>Awa</b>", message: markup });
  });

  it("pretends success when the honeypot is filled, and stores nothing", async () => {
    const result = await sendContactMessage(handle.db, { ...valid, website: "http://spam.example" }, { ip });
    expect(result).toEqual({ ok: true });
    // Even invalid input gets the same answer: a bot learns nothing.
    expect(await sendContactMessage(handle.db, { website: "x" }, { ip })).toEqual({ ok: true });
    expect(await stored()).toHaveLength(0);
    expect(await handle.db.select().from(rateLimits)).toHaveLength(0);
  });

  it("limits messages per IP address", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    for (let i = 0; i < CONTACT_RATE_LIMITS.perIp.limit; i++) {
      expect(await sendContactMessage(handle.db, { ...valid, email: `p${i}@example.ml` }, { ip, now })).toEqual({ ok: true });
    }
    const refused = await sendContactMessage(
      handle.db,
      { ...valid, email: "other@example.ml" },
      { ip, now: new Date("2026-03-01T10:20:00Z") },
    );
    expect(refused).toMatchObject({
      ok: false,
      reason: "rate-limited",
      message: "Trop de messages envoyés. Réessayez dans 40 minutes.",
      retryAfterSeconds: 40 * 60,
      values: { email: "other@example.ml" },
    });
    expect(await stored()).toHaveLength(CONTACT_RATE_LIMITS.perIp.limit);
    // Another address is not affected, and the window ends.
    expect(await sendContactMessage(handle.db, { ...valid, email: "x@example.ml" }, { ip: "198.51.100.1", now })).toEqual({ ok: true });
    expect(await sendContactMessage(handle.db, { ...valid, email: "y@example.ml" }, { ip, now: new Date("2026-03-01T11:00:00Z") })).toEqual(
      { ok: true },
    );
  });

  it("limits messages per e-mail address, whatever its case and the IP used", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    for (let i = 0; i < CONTACT_RATE_LIMITS.perEmail.limit; i++) {
      const email = i % 2 ? "AWA@example.ml" : "awa@example.ml";
      expect(await sendContactMessage(handle.db, { ...valid, email }, { ip: `192.0.2.${i}`, now })).toEqual({ ok: true });
    }
    const refused = await sendContactMessage(handle.db, { ...valid, email: "Awa@Example.ml" }, { ip: "192.0.2.99", now });
    expect(refused).toMatchObject({ ok: false, reason: "rate-limited", message: "Trop de messages envoyés. Réessayez dans 60 minutes." });
  });
});

describe("POST /contact", () => {
  function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams(fields);
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.toString().length), ...headers },
    });
    const context = new RouterContextProvider();
    context.set(dbContext, handle.db);
    context.set(clientIpContext, ip);
    return action({ request, context, params: {}, url: new URL(request.url), pattern: "/contact" } as unknown as Parameters<
      typeof action
    >[0]);
  }

  it("redirects after a message is sent (no double submit on reload)", async () => {
    const response = await post(valid);
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(302);
    expect((response as Response).headers.get("Location")).toBe("/contact?envoye=1#message-envoye");
    expect(await stored()).toHaveLength(1);
  });

  it("answers 400 with the errors and what was typed", async () => {
    const result = (await post({ ...valid, email: "pas-un-email" })) as unknown as { data: unknown; init: ResponseInit };
    expect(result.init.status).toBe(400);
    expect(result.data).toMatchObject({ fieldErrors: { email: expect.any(String) }, values: { ...valid, email: "pas-un-email" } });
  });

  it("refuses a body far larger than the form before reading it", async () => {
    const result = (await post({ ...valid, message: "x".repeat(100 * 1024) })) as unknown as { data: unknown; init: ResponseInit };
    expect(result.init.status).toBe(413);
    expect(result.data).toEqual({ formError: expect.stringContaining("trop long") });
    expect(await stored()).toHaveLength(0);
  });

  it("answers 429 with a Retry-After header once the limit is reached", async () => {
    for (let i = 0; i < CONTACT_RATE_LIMITS.perEmail.limit; i++) await post(valid);
    const result = (await post(valid)) as unknown as { data: unknown; init: ResponseInit };
    expect(result.init.status).toBe(429);
    expect(new Headers(result.init.headers).get("Retry-After")).toMatch(/^\d+$/);
    expect(result.data).toMatchObject({ formError: expect.stringMatching(/^Trop de messages envoyés\. Réessayez dans \d+ minutes?\.$/) });
  });
});

describe("contact form rendering", () => {
  it("puts typed markup back into the form escaped", () => {
    const values = {
      name: `"><script>alert(1)</script>`,
      email: "awa@example.ml",
      message: `</textarea><script>alert(2)</script><b>gras</b>`,
      subject: "Autre",
    };
    const Stub = createRoutesStub([
      {
        path: "/contact",
        Component: () => createElement(ContactForm, { regionId: "contact-form-region", values, fieldErrors: { email: "<i>erreur</i>" } }),
      },
    ]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/contact"] }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>gras</b>");
    expect(html).not.toContain("<i>erreur</i>");
    expect(html).toContain("&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;&lt;b&gt;gras&lt;/b&gt;");
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain("&lt;i&gt;erreur&lt;/i&gt;");
    // The chosen subject is kept.
    expect(html).toMatch(/<option value="Autre" selected="">Autre<\/option>/);
  });
});
