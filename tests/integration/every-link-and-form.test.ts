/**
 * The site as its people reach it, on a trial's demo data: following the links of every page from
 * each role's home (two addresses per kind of page, redirects followed), every page answers 200 with
 * no unfilled value in its text; then every form of those pages, posted empty and with oversized values (hidden
 * fields and the button's intent kept, as a browser sends them), is answered below 500, and the
 * server still answers the next request. fuzz.test.ts covers the route table with
 * hostile addresses and bodies; this covers the real pages and forms with real data.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { users } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { demoAccounts } from "~/.server/db/seed/demo-accounts";
import { createCourse, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { serveBuiltApp, type BuiltApp } from "../setup/http-app";

type Who = "anonymous" | "admin" | "teacher" | "user";
const homes: Record<Who, string> = { anonymous: "/", user: "/dashboard", teacher: "/teacher", admin: "/admin" };
/** Links not followed: files, exports and signing out. */
const notFollowed = /^\/(api|assets)\/|deconnexion|telecharger|export|\.(pdf|csv|ics|json|png|jpg|webp|svg|xml|txt)(\?|$)/;
/** Text no page should show: a value the code did not fill. */
const unfilled = /\b(NaN|undefined|Infinity)\b|\[object Object\]/;
/** A stalled connection fails the test at once rather than at the test's timeout. */
const REQUEST_TIMEOUT_MS = 10_000;

let handle: DatabaseHandle;
let app: BuiltApp;
const cookies: Partial<Record<Who, string>> = {};
const pages: Record<Who, string[]> = { anonymous: [], user: [], teacher: [], admin: [] };

beforeAll(async () => {
  handle = await createTestDatabase();
  await seedDatabase(handle.db, { demoAccounts: true });
  // A draft of the demo teacher: its previews (course page, free lesson) are walked by its teacher
  // and the administrators, and must offer no enrolment.
  const [teacher] = await handle.db.select().from(users).where(eq(users.email, "enseignant@campus.test"));
  await createCourse(handle.db, {
    instructor: { ...teacher!, password: null } as TestUser,
    title: "Brouillon à relire",
    status: "draft",
    lessons: [{ title: "Première leçon", isFree: true }, { title: "Deuxième leçon" }],
  });
  app = await serveBuiltApp(handle, { LOG_LEVEL: "error" });
  for (const account of demoAccounts) cookies[account.role as Who] = await app.signIn(account.email, account.password);
}, 180_000);

afterAll(async () => {
  await app?.close();
  await handle?.close();
});

function get(who: Who, path: string) {
  return fetch(new URL(path, app.base), {
    headers: { Cookie: cookies[who] ?? "" },
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decode(match[1]!) : undefined;
};
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe.each(["anonymous", "user", "teacher", "admin"] as const)("as %s", (who) => {
  it("follows every link: each page answers 200 and shows no unfilled value", async () => {
    const seen = new Set([homes[who]]);
    const linkedFrom = new Map<string, string>();
    const perKind = new Map<string, number>();
    const queue = [homes[who]];
    const failures: string[] = [];
    while (queue.length) {
      const path = queue.shift()!;
      const response = await get(who, path);
      const html = await response.text();
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location?.startsWith("/")) {
        // Where a link leads elsewhere for this person (signed in: /auth goes to their space).
        if (!seen.has(location)) {
          seen.add(location);
          queue.push(location);
        }
        continue;
      }
      if (response.status !== 200) {
        failures.push(`${path} (linked from ${linkedFrom.get(path) ?? "home"}): ${response.status}`);
        continue;
      }
      pages[who].push(path);
      const shown = unfilled.exec(visibleText(html));
      if (shown) failures.push(`${path}: « ${shown[0]} » in the page`);
      for (const [, raw] of html.matchAll(/<a\s[^>]*href="(\/[^"#]*)/g)) {
        const link = decode(raw!);
        if (link.startsWith("//") || notFollowed.test(link) || seen.has(link)) continue;
        // Two addresses of each kind of page (ids and query values aside) are enough.
        const kind = link.replace(/\?.*/, "?").replace(/\/(\d+|[\w-]{20,}|ICEF-[\w-]+)(?=\/|$)/g, "/:id");
        if ((perKind.get(kind) ?? 0) >= 2) continue;
        perKind.set(kind, (perKind.get(kind) ?? 0) + 1);
        seen.add(link);
        linkedFrom.set(link, path);
        queue.push(link);
      }
    }
    expect(failures).toEqual([]);
    // The demo data gives each role a site worth walking.
    expect(pages[who].length).toBeGreaterThan(who === "anonymous" ? 20 : 40);
  }, 120_000);

  it("answers every form of those pages, posted empty or oversized, below 500, and the server answers the next request", async () => {
    const posted = new Set<string>();
    const failures: string[] = [];
    for (const page of pages[who]) {
      const html = await (await get(who, page)).text();
      for (const [, head, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
        if ((attribute(`<form${head}`, "method") ?? "get").toLowerCase() !== "post") continue;
        const action = attribute(`<form${head}`, "action") ?? page;
        if (/deconnexion/.test(action)) continue;
        const fields = [...inner!.matchAll(/<(input|textarea|select|button)\b([^>]*)>/g)].flatMap(([, element, attributes]) => {
          const tag = `<x${attributes}`;
          const name = attribute(tag, "name");
          if (!name) return [];
          const type = attribute(tag, "type") ?? (element === "button" ? "submit" : "text");
          return [{ name, type, value: attribute(tag, "value") ?? "" }];
        });
        const submit = fields.find((field) => field.type === "submit");
        const hidden = fields.filter((field) => field.type === "hidden");
        const kind = `${action.replace(/\d+/g, ":id")} ${hidden.map((field) => `${field.name}=${field.name === "intent" ? field.value : ""}`).join("&")} ${submit?.name ?? ""}=${submit?.value ?? ""}`;
        if (posted.has(kind)) continue;
        posted.add(kind);
        for (const variant of ["empty", "oversized"] as const) {
          const body = new URLSearchParams();
          for (const field of fields) {
            if (field.type === "submit") continue;
            if (field.type === "hidden") body.append(field.name, field.value);
            else if (variant === "oversized") body.append(field.name, field.type === "number" ? "1e308" : "é".repeat(5000));
            else if (field.type !== "checkbox" && field.type !== "radio") body.append(field.name, "");
          }
          if (submit) body.append(submit.name, submit.value);
          const response = await fetch(new URL(action, new URL(page, app.base)), {
            method: "POST",
            headers: { Cookie: cookies[who] ?? "", Origin: app.base, "Content-Type": "application/x-www-form-urlencoded" },
            body,
            redirect: "manual",
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          await response.arrayBuffer();
          if (response.status >= 500) failures.push(`${page} → POST ${action} (${variant}): ${response.status}`);
          const next = await get(who, "/healthz").catch((error: Error) => error);
          if (next instanceof Error || next.status !== 200) failures.push(`${page} → POST ${action} (${variant}): next request failed`);
          else await next.arrayBuffer();
        }
      }
    }
    expect(failures).toEqual([]);
    if (who !== "anonymous") expect(posted.size).toBeGreaterThan(5);
  }, 240_000);
});
