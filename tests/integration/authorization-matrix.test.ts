/**
 * The authorization matrix: every route of /dashboard, /admin and /teacher (read from the built
 * app, so a new route is checked the day it is added), for anonymous, student, teacher and admin:
 * - the page itself (a document request: layout and route loaders together);
 * - the route's own loader alone (a data request for that route id only), so that a loader that
 *   forgot its guard is caught even when its layout guards the page;
 * - the route's action, when it has one (a data POST runs the action alone);
 * - each intent of each form the pages render (read from the HTML each role receives, on pages
 *   filled with a course, an enrolment, a payment, a forum thread and a notification): refused by
 *   the guard to every role the area refuses, and, posted by a role whose page does not offer
 *   it, changing nothing in the database.
 * It builds the app once (about 10 s; TEST_BUILD_DIR reuses a build), serves it over HTTP on a free
 * port against a fresh test database, and signs the accounts in through Better Auth's real endpoint.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { eq, sql } from "drizzle-orm";
import {
  UNSAFE_decodeViaTurboStream as decodeViaTurboStream,
  UNSAFE_SingleFetchRedirectSymbol as SingleFetchRedirectSymbol,
} from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { auditLog, users } from "~/.server/db/schema";
import { loadEnv } from "~/.server/env";
import type { Role } from "~/lib/roles";
import { cookieFrom } from "../setup/auth";
import { createCourse, createNotification, createPayment, createReply, createThread, createUser, enrol, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { formsOf, type PostedForm } from "../setup/html";
import { buildForTests } from "../setup/server-build";

type Who = "anonymous" | Role;
const everyone: Who[] = ["anonymous", "user", "teacher", "admin"];
const AREAS = ["/dashboard", "/admin", "/teacher"];

/** Who may open a path (document 1's guards; the course creator is a teacher's screen). */
function allowedRoles(pathname: string): Role[] {
  if (pathname.startsWith("/admin")) return ["admin"];
  if (pathname.startsWith("/teacher") || pathname.startsWith("/dashboard/course-creator")) return ["teacher", "admin"];
  return ["user", "teacher", "admin"];
}

type RouteEntry = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: { loader?: unknown; action?: unknown; default?: unknown };
};
type AreaRoute = {
  id: string;
  pattern: string;
  url: string;
  index: boolean;
  hasLoader: boolean;
  hasAction: boolean;
  dynamic: boolean;
  postOnly: boolean;
};

/** Full URL patterns of the build's routes under the three areas, with sample values for :params. */
function areaRoutes(routes: Record<string, RouteEntry>): AreaRoute[] {
  const fullPath = (id: string): string => {
    const route = routes[id]!;
    const own = route.path ?? "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return [parent, own].filter(Boolean).join("/").replace(/\/+/g, "/");
  };
  const result: AreaRoute[] = [];
  for (const route of Object.values(routes)) {
    if (route.id === "root") continue;
    const pattern = `/${fullPath(route.id)}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
    if (!AREAS.some((area) => pattern === area || pattern.startsWith(`${area}/`))) continue;
    // Layout routes are checked through their children (a layout alone is not a page).
    const hasChildren = Object.values(routes).some((other) => other.parentId === route.id);
    if (hasChildren && !route.index) continue;
    const dynamic = /[:*]/.test(pattern);
    const url = pattern.replace(/:[^/]+/g, "999999").replace(/\*$/, "exemple");
    // A resource route made for POST (no page): a GET gets its guard, then 405.
    const postOnly = !route.module.default && Boolean(route.module.action);
    result.push({
      id: route.id,
      pattern,
      url,
      index: Boolean(route.index),
      hasLoader: Boolean(route.module.loader),
      hasAction: Boolean(route.module.action),
      dynamic,
      postOnly,
    });
  }
  return result.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

let buildDir = "";
let removeBuild = () => {};
let handle: DatabaseHandle;
let server: http.Server;
let base = "";
let routes: AreaRoute[] = [];
const cookies: Partial<Record<Who, string>> = {};
const ids: Partial<Record<Role, string>> = {};
const people: Partial<Record<Role, TestUser>> = {};
const PASSWORD = "Matrice-des-droits-2024";

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  return cookieFrom(response.headers.getSetCookie());
}

beforeAll(async () => {
  ({ buildDir, remove: removeBuild } = await buildForTests());
  handle = await createTestDatabase();
  for (const role of ["user", "teacher", "admin"] as const) {
    const user = await createUser(handle.db, {
      role,
      email: `${role}-matrice@exemple.ml`,
      firstName: "Test",
      lastName: role,
      password: PASSWORD,
    });
    ids[role] = user.id;
    people[role] = user;
  }

  const bundle = (await import(pathToFileURL(path.join(buildDir, "server/index.js")).href)) as typeof import("~/.server/http/app");
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: "memory://",
    PUBLIC_URL: "http://127.0.0.1:1",
    LOG_LEVEL: "silent",
  } as NodeJS.ProcessEnv);
  // The port is known once listening: start, then rebuild the app with the right PUBLIC_URL.
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const campus = await bundle.createCampusApp({ env: { ...env, PUBLIC_URL: base }, database: handle });
  server.on("request", campus.handler);

  const serverBuildFile = fs.readdirSync(path.join(buildDir, "server/assets")).find((name) => name.startsWith("server-build-"));
  const serverBuild = (await import(pathToFileURL(path.join(buildDir, "server/assets", serverBuildFile!)).href)) as {
    routes: Record<string, RouteEntry>;
  };
  routes = areaRoutes(serverBuild.routes);

  for (const role of ["user", "teacher", "admin"] as const) cookies[role] = await signIn(`${role}-matrice@exemple.ml`);
}, 120_000);

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await handle?.close();
  removeBuild();
});

function send(url: string, who: Who, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (cookies[who]) headers.set("Cookie", cookies[who]!);
  headers.set("Origin", base);
  return fetch(`${base}${url}`, { ...init, headers, redirect: "manual" });
}

/** What a response amounts to: a redirect (document 3xx, or a data request's encoded redirect) or a status. */
type Outcome = { status: number; location: string | null };

async function documentOutcome(response: Response): Promise<Outcome> {
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") };
}

async function dataOutcome(response: Response, method: "GET" | "POST"): Promise<Outcome> {
  if (response.status !== 202 || !response.body) {
    await response.arrayBuffer();
    return { status: response.status, location: null };
  }
  // A data request answers a redirect with 202 and the redirect in the turbo-stream body.
  const decoded = await decodeViaTurboStream(response.body, globalThis);
  await decoded.done;
  const value = decoded.value as Record<string | symbol, unknown>;
  const redirect = (method === "GET" ? value[SingleFetchRedirectSymbol] : value) as { redirect?: string; status?: number } | undefined;
  return { status: redirect?.status ?? 202, location: redirect?.redirect ?? null };
}

/** The single-fetch URL of a route: `?_routes=<id>` runs that loader alone; `?index` aims a POST at an index route. */
function dataUrl(route: AreaRoute, options: { onlyLoader?: boolean; post?: boolean }) {
  const query: string[] = [];
  if (options.post && route.index) query.push("index");
  if (options.onlyLoader) query.push(`_routes=${encodeURIComponent(route.id)}`);
  return `${route.url}.data${query.length ? `?${query.join("&")}` : ""}`;
}

/** The expected outcome for `who` on `route`: the guard's redirect, or the page itself. */
function expected(route: AreaRoute, who: Who): "allowed" | { location: string } {
  if (who === "anonymous") return { location: `/auth?redirectTo=${encodeURIComponent(route.url)}` };
  return allowedRoles(route.pattern).includes(who) ? "allowed" : { location: "/dashboard" };
}

function mismatch(route: AreaRoute, who: Who, kind: string, outcome: Outcome, okStatuses: number[]): string | null {
  const want = expected(route, who);
  if (want === "allowed") {
    const guardRedirect = outcome.location === "/dashboard" || outcome.location?.startsWith("/auth");
    if (!guardRedirect && okStatuses.includes(outcome.status)) return null;
    return `${kind} ${route.url} as ${who}: expected ${okStatuses.join("/")}, got ${outcome.status} ${outcome.location ?? ""}`;
  }
  if ([301, 302, 303, 307, 308].includes(outcome.status) && outcome.location === want.location) return null;
  return `${kind} ${route.url} as ${who}: expected a redirect to ${want.location}, got ${outcome.status} ${outcome.location ?? ""}`;
}

describe("the route table under test", () => {
  it("covers every area and grows with the app", () => {
    const patterns = routes.map((route) => route.pattern);
    expect(patterns).toEqual(
      expect.arrayContaining(["/dashboard", "/dashboard/profile", "/admin", "/admin/users", "/admin/users/export.csv", "/teacher"]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(routes.filter((route) => route.hasAction).map((route) => route.pattern)).toContain("/admin/users");
  });
});

describe.each(everyone)("as %s", (who) => {
  it("opens only the pages its role allows (document requests)", async () => {
    const problems: string[] = [];
    for (const route of routes) {
      const outcome = await documentOutcome(await send(route.url, who));
      const problem = mismatch(route, who, "GET", outcome, route.postOnly ? [405] : route.dynamic ? [200, 404] : [200]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it("is refused by each route's own loader, without its layout (data requests)", async () => {
    const problems: string[] = [];
    for (const route of routes.filter((entry) => entry.hasLoader && !entry.pattern.endsWith(".csv"))) {
      const outcome = await dataOutcome(await send(dataUrl(route, { onlyLoader: true }), who), "GET");
      const problem = mismatch(route, who, "loader", outcome, route.postOnly ? [405] : route.dynamic ? [200, 404] : [200]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it("is refused by each action before it does anything (data POST)", async () => {
    const problems: string[] = [];
    for (const route of routes.filter((entry) => entry.hasAction)) {
      const body = new URLSearchParams({ intent: "matrice-sans-effet" });
      const outcome = await dataOutcome(await send(dataUrl(route, { post: true }), who, { method: "POST", body }), "POST");
      // Allowed: the action answers the meaningless intent its own way (an error, a redirect back).
      const problem = mismatch(route, who, "POST", outcome, [200, 202, 204, 302, 303, 400, 403, 404, 405, 422]);
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });
});

describe("a forged role change", () => {
  const changeRole = (who: Who, role: Role) =>
    send("/admin/users", who, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "change-role", userId: ids.user!, role }),
    });

  it("is refused to a student, a teacher and an anonymous visitor, and changes nothing", async () => {
    for (const who of ["user", "teacher", "anonymous"] as const) {
      const response = await changeRole(who, "admin");
      expect(response.status, who).toBe(302);
      expect(response.headers.get("location"), who).toBe(
        who === "anonymous" ? `/auth?redirectTo=${encodeURIComponent("/admin/users")}` : "/dashboard",
      );
    }
    const [student] = await handle.db.select({ role: users.role }).from(users).where(eq(users.id, ids.user!));
    expect(student?.role).toBe("user");
    expect(await handle.db.select().from(auditLog).where(eq(auditLog.action, "role_changed"))).toHaveLength(0);
  });

  it("goes through for an admin (so the refusal above is not an accident)", async () => {
    const response = await changeRole("admin", "teacher");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/users");
    const [student] = await handle.db.select({ role: users.role }).from(users).where(eq(users.id, ids.user!));
    expect(student?.role).toBe("teacher");
    // Put it back for the other tests of this file.
    expect((await changeRole("admin", "user")).status).toBe(303);
    expect(await handle.db.select().from(auditLog).where(eq(auditLog.action, "role_changed"))).toHaveLength(2);
  });
});

/** Every table's content, as one hash per table (what a refused action must leave as it was). */
async function databaseState(): Promise<Map<string, string>> {
  // Written by any request or by the clock (session refresh, request counters, the job scheduler), not by an action's effect.
  const volatile = new Set(["sessions", "rate_limits", "job_schedules", "jobs", "__drizzle_migrations"]);
  const result = await handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  const state = new Map<string, string>();
  for (const { tablename } of (result as unknown as { rows: Array<{ tablename: string }> }).rows) {
    if (volatile.has(tablename)) continue;
    const hashed = await handle.db.execute(
      sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${tablename}" t`),
    );
    state.set(tablename, (hashed as unknown as { rows: Array<{ h: string }> }).rows[0]!.h);
  }
  return state;
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([table, hash]) => before.get(table) !== hash).map(([table]) => table);
}

function postForm(form: PostedForm, who: Who) {
  const body = new URLSearchParams(form.fields);
  if (form.intent) body.set("intent", form.intent);
  return send(form.action, who, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
}

describe("each intent of each form", () => {
  /** page URL → role → the forms that role's page offers, by key (action path # intent). */
  const offered = new Map<string, Map<Role, Map<string, PostedForm>>>();

  beforeAll(async () => {
    // Pages with something on them: a course taught by the teacher with a paid learner, a pending
    // cash payment, a forum thread with a reply, a notification.
    const { course, lessons } = await createCourse(handle.db, {
      instructor: people.teacher!,
      title: "Matrice des intentions",
      priceFcfa: 40_000,
    });
    const other = await createCourse(handle.db, { instructor: people.teacher!, title: "Matrice à payer", priceFcfa: 30_000 });
    await enrol(handle.db, people.user!, course, { paid: true });
    const { reference } = await createPayment(handle.db, people.user!, other.course);
    const thread = await createThread(handle.db, people.user!, { title: "Une question de la matrice" });
    await createReply(handle.db, people.teacher!, thread);
    await createNotification(handle.db, people.user!);
    const sampleValue = (pattern: string, param: string) => {
      if (param === "slug") return course.slug;
      if (param === "lessonId") return String(lessons[0]!.id);
      if (param === "reference") return reference;
      if (param === "id" && pattern.includes("/forum/")) return String(thread.id);
      if (param === "id" && pattern.includes("course-creator")) return String(course.id);
      return "999999";
    };
    for (const route of routes.filter((entry) => !entry.postOnly && !/\.(csv|pdf|jwt)$/.test(entry.pattern))) {
      const url = route.pattern.replace(/:([^/]+)/g, (_, param: string) => sampleValue(route.pattern, param)).replace(/\*$/, "exemple");
      const byRole = new Map<Role, Map<string, PostedForm>>();
      for (const role of allowedRoles(route.pattern)) {
        const response = await send(url, role);
        const html = await response.text();
        if (response.status !== 200) continue;
        const forms = new Map<string, PostedForm>();
        for (const form of formsOf(html, url, base)) {
          if (AREAS.some((area) => form.action === area || form.action.startsWith(`${area}/`) || form.action.startsWith(`${area}?`)))
            forms.set(form.key, form);
        }
        byRole.set(role, forms);
      }
      offered.set(url, byRole);
    }
  }, 120_000);

  const everyForm = () => {
    const forms = new Map<string, PostedForm>();
    for (const byRole of offered.values())
      for (const roleForms of byRole.values()) for (const [key, form] of roleForms) forms.set(key, form);
    return [...forms.values()];
  };

  it("reads the forms of the pages (the matrix grows with them)", () => {
    const keys = everyForm().map((form) => form.key);
    expect(keys).toEqual(
      expect.arrayContaining(["/admin/users#change-role", "/admin/financial#record-cash", "/dashboard/notifications#read-all"]),
    );
    expect(keys.length).toBeGreaterThanOrEqual(15);
  });

  it.each(everyone)("refuses as %s every intent its role may not reach, before it changes anything", async (who) => {
    const refused = everyForm().filter((form) => who === "anonymous" || !allowedRoles(new URL(form.action, base).pathname).includes(who));
    const before = await databaseState();
    const problems: string[] = [];
    for (const form of refused) {
      const response = await postForm(form, who);
      await response.arrayBuffer();
      const location = response.headers.get("location") ?? "";
      const guarded = who === "anonymous" ? location.startsWith("/auth?redirectTo=") : location === "/dashboard";
      if (response.status !== 302 || !guarded) problems.push(`${form.key} as ${who}: ${response.status} ${location}`);
    }
    expect(problems).toEqual([]);
    expect(changedTables(before, await databaseState())).toEqual([]);
  });

  it("changes nothing when a role posts an intent its own page does not offer it", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [page, byRole] of offered) {
      for (const [owner, forms] of byRole) {
        for (const [who, own] of byRole) {
          if (who === owner) continue;
          const foreign = [...forms.values()].filter((form) => !own.has(form.key));
          if (!foreign.length) continue;
          const before = await databaseState();
          for (const form of foreign) {
            const response = await postForm(form, who);
            await response.arrayBuffer();
            checked += 1;
            if (response.status >= 500) problems.push(`${form.key} (offered to ${owner} on ${page}) as ${who}: ${response.status}`);
          }
          const changed = changedTables(before, await databaseState());
          if (changed.length)
            problems.push(
              `${foreign.map((form) => form.key).join(", ")} (offered to ${owner} on ${page}) as ${who} changed ${changed.join(", ")}`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
