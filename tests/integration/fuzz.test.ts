/**
 * A bounded fuzz of the whole route table (read from the build, so a new route is fuzzed the day
 * it is added), as every kind of visitor: hostile path parameters (out-of-range ids, NUL bytes,
 * broken percent-encoding, traversal, very long values), hostile query strings, bodies that are
 * not forms, odd methods and Range headers, on documents, data requests and resource routes.
 * Whatever the route answers, it is never a 5xx, and the process's memory stays flat.
 * docs/decisions/0020-bounded-requests.md
 */
import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { createCourse, createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { routePatterns, serveBuiltApp, type BuiltApp } from "../setup/http-app";

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

/** Memory still in use once the garbage is collected: the JavaScript heap and the buffers outside it. */
function memoryInUse() {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers, rss: usage.rss };
}

type Who = "anonymous" | "user" | "teacher" | "admin";
const everyone: Who[] = ["anonymous", "user", "teacher", "admin"];

let handle: DatabaseHandle;
let app: BuiltApp;
const cookies: Partial<Record<Who, string>> = {};
let realSlug = "";
let realLessonId = "";

/** Values for a path parameter: a real one (so the route's deeper code runs) and hostile ones. */
function parameterValues(name: string): string[] {
  const hostile = ["99999999999999999999", "-1", "0", "%00", "%E0%A4%A", "..%2F..%2Fetc%2Fpasswd", "x".repeat(3000), "%27%20OR%201%3D1--"];
  if (name === "slug") return [realSlug, ...hostile];
  if (name === "lessonId" || name === "id") return [realLessonId, ...hostile];
  if (name === "reference") return ["ICEF-AAAA-BBBB", ...hostile];
  if (name === "provider") return ["sandbox", "cinetpay", ...hostile];
  return hostile;
}

const ranges = ["bytes=999999999999-", "bytes=-0", "bytes=abc", "bytes=0-1,2-3,4-5"];
const oddMethods = ["PUT", "DELETE", "PATCH", "TRACE"];
const hostileQueries = [
  "?q=%00&page=-1&statut=%3Cscript%3E",
  "?redirectTo=%0d%0aSet-Cookie:%20a=b&onglet=../../x",
  "?page=99999999999999999999&date=0000-00-00&id=1e309",
];

/** Bodies a careless or hostile client sends to an action. */
const bodies: Array<{ type: string; body: string }> = [
  { type: "application/json", body: '{"intent":"delete","id":99999999999}' },
  { type: "text/plain", body: "intent=delete" },
  { type: "multipart/form-data; boundary=z", body: "--z\r\nbroken" },
  { type: "application/x-www-form-urlencoded", body: "" },
  {
    type: "application/x-www-form-urlencoded",
    body: new URLSearchParams({
      intent: "save",
      id: "99999999999",
      reference: "ICEF-ZZZZ-ZZZZ",
      email: "a".repeat(400),
      date: "0000-01-01T00:00",
      nextLiveAt: "0000-01-01T00:00",
      seconds: "1e309",
      title: "t".repeat(5000),
      redirectTo: "/\t/evil.example",
      status: "archived",
    }).toString(),
  },
];

type Sent = { method: string; path: string; headers?: Record<string, string>; body?: string };

function send(who: Who, request: Sent): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Origin: app.base, ...request.headers };
    if (cookies[who]) headers.Cookie = cookies[who]!;
    const outgoing = http.request(`${app.base}${request.path}`, { method: request.method, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

/**
 * The requests for one route pattern as the `turn`-th visitor: the real page and its data request,
 * then hostile values, queries, Range headers, methods and bodies, each visitor taking the next
 * ones in turn, so that the four visitors together try every one on every route.
 */
function requestsFor(pattern: string, hasAction: boolean, turn: number): Sent[] {
  const pick = <T>(list: T[], offset = 0) => list[(turn * 2 + offset) % list.length]!;
  const fill = (choose: (name: string) => string) => pattern.replace(/:(\w+)/g, (_, name: string) => choose(name));
  const real = fill((name) => parameterValues(name)[0]!);
  const sent: Sent[] = [
    { method: "GET", path: real },
    { method: "GET", path: `${real}.data` },
    { method: "GET", path: `${real}${pick(hostileQueries)}` },
    { method: "GET", path: real, headers: { Range: pick(ranges) } },
    { method: pick(oddMethods), path: real, body: "x=1" },
  ];
  if (pattern.includes(":")) {
    for (const offset of [0, 1]) sent.push({ method: "GET", path: fill((name) => pick(parameterValues(name).slice(1), offset)) });
  }
  if (hasAction) {
    for (const { type, body } of bodies) sent.push({ method: "POST", path: real, headers: { "Content-Type": type }, body });
    const { type, body } = pick(bodies);
    sent.push({ method: "POST", path: `${real}.data`, headers: { "Content-Type": type }, body });
  }
  return sent;
}

beforeAll(async () => {
  handle = await createTestDatabase();
  app = await serveBuiltApp(handle);
  const teacher = await createUser(handle.db, { role: "teacher", password: true });
  const { course, lessons } = await createCourse(handle.db, { instructor: teacher, status: "published", priceFcfa: 0, lessons: 2 });
  realSlug = course.slug;
  realLessonId = String(lessons[0]!.id);
  for (const role of ["user", "teacher", "admin"] as const) {
    const user = role === "teacher" ? teacher : await createUser(handle.db, { role, password: true });
    cookies[role] = await app.signIn(user.email, user.password!);
  }
}, 180_000);

afterAll(async () => {
  await app?.close();
  await handle?.close();
});

describe("the whole route table, fuzzed", () => {
  it("covers every route of the build", () => {
    const patterns = routePatterns(app.routes).map((route) => route.pattern);
    expect(patterns).toEqual(expect.arrayContaining(["/", "/formations/:slug", "/dashboard/profile", "/admin/financial", "/fichiers/:id"]));
  });

  it("never answers 5xx, as anyone, and keeps memory flat", async () => {
    const routes = routePatterns(app.routes)
      // Signing out would end the session the rest of the fuzz uses; its refusals are tested with the auth routes.
      .filter((route) => route.pattern !== "/auth/deconnexion");
    const failures: string[] = [];
    const before = memoryInUse();
    let count = 0;
    for (const [turn, who] of everyone.entries()) {
      for (const { pattern, route } of routes) {
        const requests = requestsFor(pattern, Boolean(route.module.action), turn);
        // A few at a time: enough to overlap, not enough to swamp a 2-core machine.
        for (let i = 0; i < requests.length; i += 4) {
          const batch = requests.slice(i, i + 4);
          const statuses = await Promise.all(batch.map((request) => send(who, request)));
          statuses.forEach((status, index) => {
            if (status >= 500 || status === 0) {
              const request = batch[index]!;
              failures.push(
                `${who} ${request.method} ${request.path.slice(0, 120)} ${request.headers?.["Content-Type"] ?? ""} → ${status}`,
              );
            }
          });
          count += batch.length;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(1500);
    const after = memoryInUse();
    expect(after.heap + after.buffers - before.heap - before.buffers).toBeLessThan(100 * 1024 * 1024);
    // About 80 routes × 4 roles × 10 requests: a loaded 2-core CI machine needs more than two minutes.
  }, 360_000);
});
