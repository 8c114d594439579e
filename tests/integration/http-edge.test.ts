/**
 * What every request meets before any route (app/.server/http/edge.ts) and how whatever escapes
 * a route is answered (app/.server/http/route-errors.ts), on the production build served over
 * HTTP: request ids, one body limit enforced while the body streams, 405 for other methods, one
 * Origin check for every write, bodies that are not forms, NUL bytes, database refusals, and
 * unexpected errors answered with a request id and no detail.
 */
import http from "node:http";
import net from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { contactMessages, newsletterSubscriptions } from "~/.server/db/schema";
import { postgresCodeOf, routeErrorAnswer } from "~/.server/http/route-errors";
import { createUser } from "../factories";
import { createTestDatabase } from "../setup/db";
import { serveBuiltApp, type BuiltApp } from "../setup/http-app";

let handle: DatabaseHandle;
let app: BuiltApp;
let base = "";
let studentCookie = "";
let teacherCookie = "";
const errorLog = vi.spyOn(console, "error");

beforeAll(async () => {
  handle = await createTestDatabase();
  app = await serveBuiltApp(handle, { LOG_LEVEL: "error" });
  base = app.base;
  const student = await createUser(handle.db, { password: true });
  const teacher = await createUser(handle.db, { role: "teacher", password: true });
  studentCookie = await app.signIn(student.email, student.password!);
  teacherCookie = await app.signIn(teacher.email, teacher.password!);
  errorLog.mockImplementation(() => {});
}, 180_000);

afterAll(async () => {
  errorLog.mockRestore();
  await app?.close();
  await handle?.close();
});

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body,
    redirect: "manual",
  });
}

async function subscribed(email: string) {
  return (await handle.db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email))).length > 0;
}

/**
 * Streams `totalBytes` of form data to `path` in chunks (chunked transfer encoding, no length
 * announced) and stops when the server answers or closes: the answer's status, and how much the
 * server let through before.
 */
function streamBody(path: string, totalBytes: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number | null; sent: number; body: string }>((resolve) => {
    const chunk = Buffer.alloc(256 * 1024, "a");
    let sent = 0;
    let status: number | null = null;
    let body = "";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ status, sent, body });
    };
    const request = http.request(`${base}${path}`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked", ...headers },
    });
    request.on("response", (response) => {
      status = response.statusCode ?? null;
      response.setEncoding("utf8");
      response.on("data", (text: string) => (body += text));
      response.on("end", finish);
      response.on("error", finish);
    });
    request.on("error", finish);
    request.on("close", () => setTimeout(finish, 50));
    const pump = () => {
      while (!done && status === null && sent < totalBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (sent >= totalBytes) request.end();
    };
    request.write("email=x%40exemple.ml&a=");
    pump();
  });
}

/** Any method, TRACE included (fetch refuses some). */
function rawRequest(method: string, path: string) {
  return new Promise<{ status: number; allow: string | undefined }>((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method, headers: { Origin: base } }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("request ids", () => {
  it("gives every response its own id, cached anonymous pages included", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${base}/a-propos`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      ids.add(response.headers.get("x-request-id") ?? "");
    }
    expect(ids.size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{10}$/);
  });
});

describe("one body limit, enforced while the body streams", () => {
  it("refuses a declared length over the limit before reading it, and the action never runs", async () => {
    const body = `email=gros%40exemple.ml&website=&pad=${"a".repeat(1_100_000)}`;
    const response = await post("/newsletter", body, { Accept: "text/html" });
    expect(response.status).toBe(413);
    const page = await response.text();
    expect(page).toContain("Envoi trop volumineux");
    expect(page).toContain(response.headers.get("x-request-id"));
    expect(await subscribed("gros@exemple.ml")).toBe(false);
  });

  it("cuts a chunked body at the limit: 413, nothing stored, the rest never read", async () => {
    for (const path of ["/newsletter", "/contact", "/auth", "/api/auth/sign-in/email", "/newsletter.data"]) {
      const result = await streamBody(path, 64 * 1024 * 1024);
      expect(result.status, path).toBe(413);
      // The server stopped reading long before the 64 MB were sent.
      expect(result.sent, path).toBeLessThan(16 * 1024 * 1024);
    }
    expect(await subscribed("x@exemple.ml")).toBe(false);
    expect(await handle.db.select().from(contactMessages)).toHaveLength(0);
  });

  it("keeps the refused connection open a moment: a client still sending, that reads late, gets the 413", async () => {
    // A slow phone: it goes on sending its body and reads the answer only later. Were the
    // connection closed at once while bytes still arrive, the reset would lose the 413 (the
    // client sees "connection reset" instead of the message).
    const { host, hostname, port } = new URL(base);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.pause();
    let failure: Error | undefined;
    socket.on("error", (error) => (failure = error));
    const chunk = Buffer.alloc(256 * 1024, "a");
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]);
    socket.write(
      `POST /newsletter HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${base}\r\n` +
        "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
    );
    const sendUntil = Date.now() + 400;
    while (Date.now() < sendUntil && !failure && !socket.destroyed) {
      if (!socket.write(frame))
        await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), new Promise((resolve) => setTimeout(resolve, 50))]);
      else await new Promise((resolve) => setImmediate(resolve));
    }
    let answer = "";
    socket.on("data", (data: Buffer) => (answer += data.toString("latin1")));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.resume();
    await vi.waitFor(() => expect(answer).toContain("\r\n\r\n"), { timeout: 5_000 });
    expect(failure).toBeUndefined();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    // And the server does close it.
    await closed;
  });

  it("answers the next request of a connection whose body a route did not read (a refusal, a redirect to sign in)", async () => {
    // A browser follows a redirect on the same connection: were the unread rest of the body left
    // on it, the next request would wait behind it until the connection timed out. The body comes
    // in pieces, as over a network, so that the server has paused it before the route answers.
    const { host, hostname, port } = new URL(base);
    for (const path of ["/contact", "/dashboard/profile"]) {
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once("connect", resolve));
      let answer = "";
      socket.on("data", (data: Buffer) => (answer += data.toString("latin1")));
      const total = 200 * 1024;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${base}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${total}\r\n\r\nname=`,
      );
      for (let sent = 5; sent < total; sent += 8 * 1024) {
        socket.write("a".repeat(Math.min(8 * 1024, total - sent)));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await vi.waitFor(() => expect(answer.match(/^HTTP\/1\.1 \d+/gm), path).toHaveLength(2), { timeout: 5_000 });
      const [first, second] = answer.match(/^HTTP\/1\.1 \d+/gm)!;
      expect(first, path).toBe(path === "/contact" ? "HTTP/1.1 413" : "HTTP/1.1 302");
      expect(second, path).toBe("HTTP/1.1 200");
      socket.destroy();
    }
  });

  it("keeps memory flat under many oversized bodies at once", async () => {
    const before = process.memoryUsage().rss;
    const paths = [
      "/contact",
      "/newsletter",
      "/auth",
      "/api/auth/sign-in/email",
      "/dashboard/profile",
      "/formations/intelligence-artificielle/inscription",
    ];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => streamBody(paths[i % paths.length]!, 48 * 1024 * 1024, { Cookie: studentCookie })),
    );
    for (const result of results) expect([413, null], JSON.stringify(result.status)).toContain(result.status);
    expect(results.filter((result) => result.status === 413).length).toBeGreaterThanOrEqual(10);
    // 12 × 48 MB offered; a server that buffered them would have grown by hundreds of MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("lets the course form carry more than other forms (lessons' text)", async () => {
    const body = `title=Long&pad=${"a".repeat(2_000_000)}`;
    const refused = await post("/contact", body);
    await refused.arrayBuffer();
    expect(refused.status).toBe(413);
    const course = await post("/teacher/create-course", body, { Cookie: teacherCookie });
    await course.arrayBuffer();
    expect(course.status).not.toBe(413);
    expect(course.status).toBeLessThan(500);
  });
});

describe("bodies that are not forms", () => {
  const kinds: Array<[string, BodyInit | null, Record<string, string>, number]> = [
    ["JSON", '{"email":"a@b.ml"}', { "Content-Type": "application/json" }, 415],
    ["text", "bonjour", { "Content-Type": "text/plain" }, 415],
    ["no body", null, { "Content-Type": "" }, 415],
    ["broken multipart", "--x\r\nnonsense", { "Content-Type": "multipart/form-data; boundary=y" }, 400],
  ];
  it.each(kinds)("%s gets 400 or 415, never 500, from every kind of action", async (_kind, body, headers, status) => {
    for (const path of ["/contact", "/newsletter", "/auth", "/newsletter.data"]) {
      const response = await post(path, body, headers);
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
    }
    for (const path of ["/dashboard/profile", "/barre-laterale", "/formations/intelligence-artificielle/inscription"]) {
      const response = await post(path, body, { ...headers, Cookie: studentCookie });
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
    }
  });
});

describe("methods", () => {
  it("answers 405 with Allow to anything but GET, HEAD and POST, everywhere but the uploads", async () => {
    for (const method of ["PUT", "PATCH", "DELETE", "TRACE", "OPTIONS", "PROPFIND"]) {
      for (const path of ["/", "/contact", "/dashboard/profile", "/api/auth/sign-in/email", "/barre-laterale"]) {
        const response = await rawRequest(method, path);
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.allow).toBe("GET, HEAD, POST");
      }
    }
    expect((await rawRequest("OPTIONS", "/api/televersements")).status).not.toBe(405);
  });
});

describe("NUL bytes and broken addresses", () => {
  it("refuses them in the address (path or query) and in form fields, and stores nothing", async () => {
    for (const path of ["/formations/ab%00cd", "/formations?q=a%00b", "/dashboard/formations/x%00", "/formations/%E0%A4%A"]) {
      const response = await fetch(`${base}${path}`, { headers: { Cookie: studentCookie } });
      await response.arrayBuffer();
      expect(response.status, path).toBe(400);
    }
    const response = await post("/newsletter", "email=nul%00%40exemple.ml&website=");
    await response.arrayBuffer();
    expect(response.status).toBe(400);
    const profile = await post("/dashboard/profile", "intent=profile&firstName=A%00wa&lastName=T", { Cookie: studentCookie });
    await profile.arrayBuffer();
    expect(profile.status).toBe(400);
  });
});

describe("one Origin check for every write", () => {
  it("refuses a write from another site, resource routes and Better Auth included, and changes nothing", async () => {
    const foreign = { Origin: "https://evil.example" };
    const newsletter = await post("/newsletter", "email=csrf%40exemple.ml&website=", foreign);
    expect(newsletter.status).toBe(403);
    expect(await subscribed("csrf@exemple.ml")).toBe(false);
    const sidebar = await post("/barre-laterale", "collapsed=true&redirectTo=/dashboard", { ...foreign, Cookie: studentCookie });
    expect(sidebar.status).toBe(403);
    expect(sidebar.headers.get("set-cookie")).toBeNull();
    const position = await post("/dashboard/formations/x/lecons/1/position", "seconds=10", { ...foreign, Cookie: studentCookie });
    expect(position.status).toBe(403);
    const signOut = await post("/api/auth/sign-out", "", { ...foreign, Cookie: studentCookie });
    expect(signOut.status).toBe(403);
    // Without Origin, a browser's cross-site marker is enough to refuse.
    const marked = await fetch(`${base}/newsletter`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site" },
      body: "email=csrf2%40exemple.ml&website=",
    });
    expect(marked.status).toBe(403);
    expect(await subscribed("csrf2@exemple.ml")).toBe(false);
  });

  it("lets the site's own writes through, and the providers' callbacks, which prove themselves otherwise", async () => {
    const own = await post("/barre-laterale", "collapsed=true&redirectTo=/dashboard/profile", { Cookie: studentCookie });
    expect(own.status).toBe(302);
    expect(own.headers.get("location")).toBe("/dashboard/profile");
    const notification = await post("/api/paiements/notification/sandbox", "reference=ICEF-AAAA-BBBB", {
      Origin: "https://cinetpay.example",
    });
    // Refused for its missing signature, not for its origin.
    expect(notification.status).toBe(401);
  });

  it("sends a sidebar post nowhere but this site (one safeRedirect)", async () => {
    for (const target of ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "/x\r\nSet-Cookie: a=b"]) {
      const response = await post("/barre-laterale", new URLSearchParams({ collapsed: "false", redirectTo: target }), {
        Cookie: studentCookie,
      });
      expect(response.status, JSON.stringify(target)).toBe(302);
      expect(response.headers.get("location"), JSON.stringify(target)).toBe("/dashboard");
    }
  });
});

describe("errors no route expected", () => {
  const leaks = /contact_messages|slug_hidden|insert into|select |\/work\/|node_modules|\bat [\w.<>]+ \(|Failed query/i;

  it("answers 500 with the request id and nothing else, and logs the error under that id", async () => {
    await handle.db.execute(sql.raw(`alter table contact_messages rename to contact_messages_hidden`));
    try {
      const form = new URLSearchParams({ name: "Awa", email: "awa@exemple.ml", subject: "Autre", message: "Bonjour, une question." });
      for (const path of ["/contact", "/contact.data"]) {
        errorLog.mockClear();
        const response = await post(path, form, { Accept: "text/html" });
        const text = await response.text();
        const id = response.headers.get("x-request-id")!;
        expect(response.status, path).toBe(500);
        expect(text, path).toContain(id);
        expect(text, path).not.toMatch(leaks);
        expect(
          errorLog.mock.calls.some((call) => String(call[0]).includes(id)),
          path,
        ).toBe(true);
      }
    } finally {
      await handle.db.execute(sql.raw(`alter table contact_messages_hidden rename to contact_messages`));
    }
  });

  it("does the same for a resource route", async () => {
    await handle.db.execute(sql.raw(`alter table courses rename column slug to slug_hidden`));
    try {
      const response = await fetch(`${base}/sitemap.xml`);
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(text).toContain(response.headers.get("x-request-id"));
      expect(text).not.toMatch(leaks);
    } finally {
      await handle.db.execute(sql.raw(`alter table courses rename column slug_hidden to slug`));
    }
  });

  it("answers what PostgreSQL refuses as data with 400, whatever the driver", async () => {
    const refusals = [sql`select ${"a\u0000b"}::text`, sql`select ${"99999999999"}::integer`, sql`select ${"0000-01-01"}::timestamptz`];
    for (const query of refusals) {
      const error = await handle.db.execute(query).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(postgresCodeOf(error)).toMatch(/^22/);
      const answer = routeErrorAnswer(error, { requestId: "r1", resource: false, log: () => {}, where: "test" }) as {
        init: { status: number };
      };
      expect(answer.init.status).toBe(400);
    }
  });
});
