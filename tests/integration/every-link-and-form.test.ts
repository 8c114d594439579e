/**
 * The site as its people reach it, on a trial's demo data: following the links of every page from
 * each role's home (two addresses per kind of page, redirects followed), every page answers 200
 * with no unfilled value in its text; then every form of those pages, posted empty and with
 * oversized values (hidden fields and the intent kept, as a browser sends them), is answered below
 * 500, and the server still answers the next request. fuzz.test.ts covers the route table with
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
import { formsOf, linksOf } from "../setup/html";
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
/** The pages each role reached, with their HTML, whose forms the second test posts. */
const pages: Record<Who, Map<string, string>> = { anonymous: new Map(), user: new Map(), teacher: new Map(), admin: new Map() };

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
      pages[who].set(path, html);
      const shown = unfilled.exec(visibleText(html));
      if (shown) failures.push(`${path}: « ${shown[0]} » in the page`);
      for (const link of linksOf(html)) {
        if (notFollowed.test(link) || seen.has(link)) continue;
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
    expect(pages[who].size).toBeGreaterThan(who === "anonymous" ? 20 : 40);
  }, 120_000);

  it("answers every form of those pages, posted empty or oversized, below 500, and the server answers the next request", async () => {
    const posted = new Set<string>();
    const failures: string[] = [];
    for (const [page, html] of pages[who]) {
      for (const form of formsOf(html, page, app.base)) {
        if (/deconnexion/.test(form.action) || posted.has(form.key)) continue;
        posted.add(form.key);
        for (const variant of ["empty", "oversized"] as const) {
          const typed = new Map(
            form.editable.map(({ name, type }) => [name, variant === "empty" ? "" : type === "number" ? "1e308" : "é".repeat(5000)]),
          );
          const body = new URLSearchParams(form.fields.map(([name, value]) => [name, typed.get(name) ?? value]));
          if (form.intent) body.set("intent", form.intent);
          const response = await fetch(new URL(form.action, app.base), {
            method: "POST",
            headers: { Cookie: cookies[who] ?? "", Origin: app.base, "Content-Type": "application/x-www-form-urlencoded" },
            body,
            redirect: "manual",
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          await response.arrayBuffer();
          if (response.status >= 500) failures.push(`${page} → POST ${form.action} ${form.intent} (${variant}): ${response.status}`);
          const next = await get(who, "/healthz").catch((error: Error) => error);
          if (next instanceof Error || next.status !== 200)
            failures.push(`${page} → POST ${form.action} (${variant}): next request failed`);
          else await next.arrayBuffer();
        }
      }
    }
    expect(failures).toEqual([]);
    if (who !== "anonymous") expect(posted.size).toBeGreaterThan(5);
  }, 240_000);
});
