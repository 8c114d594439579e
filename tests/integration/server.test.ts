import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildForTests, freePort } from "../setup/server-build";

// These tests start real server processes: on a loaded 2-core machine (CI beside other work) a
// start or an exit takes several times longer than on a calm one. Limits, not expectations.
const PATIENCE = 3;

/**
 * The real thing: the production build started by its entry (build/server/start.js) in its own
 * process, as `npm start` does, on a temporary DATA_DIR (PGlite). Covers start-up refusals (bad
 * variable, folder already in use, busy port), the stale-lock take-over, headers (CSP nonce,
 * caching, compression), and the graceful stop. Every process started here is killed in a
 * finally/afterAll.
 */

const root = path.resolve(import.meta.dirname, "../..");
let buildDir: string;
let removeBuild = () => {};
const children = new Set<ChildProcess>();
const tempDirs: string[] = [];

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-server-test-"));
  tempDirs.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The command of a package.json script, without its leading "node". */
function scriptArgs(name: "serve" | "dev"): string[] {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts[name];
  return script.split(/\s+/).slice(1);
}

/** Starts the test build as `npm run serve` does (its Node options, its entry). PGlite unless DATABASE_URL is given. */
function startServer(env: Record<string, string>): Started {
  const { DATABASE_URL: _ignored, NODE_ENV: _test, ...inherited } = process.env;
  const args = scriptArgs("serve");
  // The script's entry lies in build/: the same file in the test build.
  const entry = path.join(buildDir, path.relative("build", args.pop()!));
  const child = spawn(process.execPath, [...args, entry], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: "production",
      BETTER_AUTH_SECRET: "test-secret-that-is-long-enough-for-better-auth-0123456789",
      BUILD_DIR: buildDir,
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

async function waitUntilListening(started: Started, port: number, timeoutMs = 40_000 * PATIENCE) {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void started.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}) before listening:\n${started.output()}`);
    try {
      // A worker listens only once ready: one answer means the server serves.
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not listen within ${timeoutMs} ms:\n${started.output()}`);
}

async function exitWithin(started: Started, ms: number) {
  return Promise.race([started.exited, new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms))]);
}

beforeAll(async () => {
  ({ buildDir, remove: removeBuild } = await buildForTests());
}, 120_000 * PATIENCE);

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  removeBuild();
});

describe("start-up refusals", () => {
  it("names a bad variable, says why, and exits 1 without a stack trace", async () => {
    const started = startServer({ PORT: "abc", DATA_DIR: tempDir(), TRUST_PROXY: "yes" });
    expect(await exitWithin(started, 20_000 * PATIENCE)).toBe(1);
    const output = started.output();
    expect(output).toContain("Configuration invalide");
    expect(output).toContain('PORT = "abc" : doit être un nombre entier entre 1 et 65535.');
    expect(output).toContain('TRUST_PROXY = "yes"');
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe("a running server", () => {
  let port: number;
  let base: string;
  let dataDir: string;
  let server: Started;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dataDir = tempDir();
    // A lock left by a process that died (kill -9, power cut): taken over at start.
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => dead.once("exit", resolve));
    fs.writeFileSync(path.join(dataDir, "campus.lock"), `${dead.pid}\n`);
    // Two processes (a primary keeping PGlite, two workers), as `npm start` on two cores.
    server = startServer({ PORT: String(port), DATA_DIR: dataDir, WORKERS: "2" });
    await waitUntilListening(server, port);
  }, 60_000 * PATIENCE);

  it("took over the stale lock and holds it with its own pid", () => {
    expect(fs.readFileSync(path.join(dataDir, "campus.lock"), "utf8").trim()).toBe(String(server.child.pid));
  });

  it.runIf(process.platform === "linux")("runs the primary and its workers with two malloc arenas, under its first pid", () => {
    const pid = server.child.pid!;
    const environOf = (member: number) => fs.readFileSync(`/proc/${member}/environ`, "utf8").split("\0");
    const workers = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).map(Number);
    expect(workers).toHaveLength(2);
    for (const member of [pid, ...workers]) expect(environOf(member)).toContain("MALLOC_ARENA_MAX=2");
  });

  it("answers the health check with the database's state", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", database: "pglite" });
  });

  it("refuses a second start on the same DATA_DIR, naming the owner", async () => {
    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await exitWithin(second, 20_000 * PATIENCE)).toBe(1);
    expect(second.output()).toContain(`déjà utilisé par un autre processus Campus (pid ${server.child.pid})`);
    expect(second.output()).not.toMatch(/\n\s+at /);
    // The first one is untouched.
    expect(fs.readFileSync(path.join(dataDir, "campus.lock"), "utf8").trim()).toBe(String(server.child.pid));
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it(
    "refuses a busy port clearly, and releases its own data folder",
    async () => {
      const otherDir = tempDir();
      const third = startServer({ PORT: String(port), DATA_DIR: otherDir });
      expect(await exitWithin(third, 40_000 * PATIENCE)).toBe(1);
      expect(third.output()).toContain(`Le port ${port} est déjà utilisé`);
      expect(fs.existsSync(path.join(otherDir, "campus.lock"))).toBe(false);
    },
    45_000 * PATIENCE,
  );

  it("serves pages with security headers, a fresh CSP nonce on every script, and no shared caching", async () => {
    // A page that keeps React (public pages load one script from 'self' only: decision 0024).
    const first = await fetch(`${base}/connexion`);
    expect(first.status).toBe(200);
    const csp = first.headers.get("content-security-policy")!;
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(/script-src [^;]*/.exec(csp)![0]).not.toContain("unsafe-inline");
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts.filter((tag) => !tag.includes("application/ld+json"))) {
      expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(first.headers.get("x-powered-by")).toBeNull();
    // No HSTS on a plain-http PUBLIC_URL (it would lock a laptop's localhost to https).
    expect(first.headers.get("strict-transport-security")).toBeNull();

    const second = await fetch(`${base}/connexion`);
    expect(second.headers.get("content-security-policy")).not.toBe(csp);

    // A public page: no React, one classic script from the site itself, allowed by 'self'.
    const home = await (await fetch(`${base}/`)).text();
    const homeScripts = home.match(/<script\b[^>]*>/g)!.filter((tag) => !tag.includes("application/ld+json"));
    expect(homeScripts).toHaveLength(1);
    expect(homeScripts[0]).toMatch(/src="\/assets\/progressive-[\w-]+\.js"/);
  });

  it("compresses pages: brotli when accepted, gzip otherwise, nothing when not asked", async () => {
    const br = await fetch(`${base}/formations`, { headers: { "accept-encoding": "br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await fetch(`${base}/formations`, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const plain = await fetch(`${base}/formations`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("<html");
  });

  it("sends a rendered page compressed whole, with its length, in one piece", async () => {
    // A cookie skips the anonymous page cache: this is a fresh render. Brotli, though the browser
    // lists gzip first.
    const response = await fetch(`${base}/formations`, { headers: { "accept-encoding": "gzip, deflate, br, zstd", cookie: "x=1" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("transfer-encoding")).toBeNull();
    expect(response.headers.get("vary")).toMatch(/Accept-Encoding/i);
    const length = Number(response.headers.get("content-length"));
    const html = await response.text(); // fetch decodes it
    expect(html).toContain("<html");
    expect(length).toBeGreaterThan(0);
    expect(length).toBeLessThan(Buffer.byteLength(html) / 3);
  });

  it("serves hashed assets precompressed with a one-year immutable cache, and a plain 404 for missing ones", async () => {
    // The framework chunk: large enough that compression must at least halve it.
    const assets = fs.readdirSync(path.join(buildDir, "client/assets"));
    const entry = assets.find((name) => name.startsWith("framework-") && name.endsWith(".js"))!;
    const raw = fs.readFileSync(path.join(buildDir, "client/assets", entry));

    const br = await fetch(`${base}/assets/${entry}`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(br.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(br.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(Buffer.from(await br.arrayBuffer()).equals(raw)).toBe(true); // fetch decodes it
    expect(Number(br.headers.get("content-length"))).toBeLessThan(raw.length / 2);

    const gzip = await fetch(`${base}/assets/${entry}`, { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const identity = await fetch(`${base}/assets/${entry}`, { headers: { "accept-encoding": "identity" } });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(identity.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await identity.arrayBuffer()).equals(raw)).toBe(true);

    const missing = await fetch(`${base}/assets/entry.client-0ld.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^text\/plain/);
    const traversal = await fetch(`${base}/assets/..%2f..%2fpackage.json`);
    expect(traversal.status).toBe(404);
  });

  it("brings the signed-in shell in one file from the sign-in page on (decision 0037)", async () => {
    const signInPage = await (await fetch(`${base}/auth`)).text();
    const preloads = [...signInPage.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]!);
    expect(preloads.length).toBeGreaterThan(0);
    expect(preloads.filter((href) => /^\/assets\/shell-[\w-]+\.js$/.test(href))).toHaveLength(1);
    // The public site's components are not a chunk of their own any more (public pages load no React).
    expect(preloads.filter((href) => href.startsWith("/assets/public-"))).toEqual([]);
  });

  it("serves anonymous pages from its short cache, with a CSP that allows exactly their inline scripts", async () => {
    const url = `${base}/connexion?cache-test=1`;
    const first = await fetch(url);
    const firstHtml = await first.text();
    const second = await fetch(url, { headers: { "accept-encoding": "br" } });
    const secondHtml = await second.text();
    expect(second.status).toBe(200);
    expect(secondHtml).toBe(firstHtml);
    expect(second.headers.get("content-encoding")).toBe("br");
    expect(second.headers.get("cache-control")).toBe("private, no-cache");
    const csp = second.headers.get("content-security-policy")!;
    expect(csp).not.toContain("nonce-");
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!;
    expect(scriptSrc).not.toContain("unsafe-inline");
    const { createHash } = await import("node:crypto");
    const inline = [...secondHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (match) => !/src=|application\/ld\+json/.test(match[1]!),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const match of inline) {
      expect(scriptSrc).toContain(`'sha256-${createHash("sha256").update(match[2]!).digest("base64")}'`);
    }

    // A visitor with any cookie (signed in, a toast...) always gets a fresh render with a nonce.
    const withCookie = await fetch(url, { headers: { cookie: "x=1" } });
    expect(withCookie.headers.get("content-security-policy")).toMatch(/'nonce-/);
  });

  it("answers an unknown path with the French 404 page and a 404 status", async () => {
    const response = await fetch(`${base}/cette-page-n-existe-pas`);
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/Oups\s! Page introuvable/);
  });

  it("runs a server bundle written in ASCII, whose French pages still read right (decision 0039)", async () => {
    // V8 keeps each module's source for the process's life: one byte a character only when all are ASCII.
    const serverDir = path.join(buildDir, "server");
    const files = fs.readdirSync(serverDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    const start = "start.js"; // server.ts's own French messages: a few kilobytes, left as written
    const isAscii = (file: string) => fs.readFileSync(path.join(serverDir, file)).every((byte) => byte < 0x80);
    const nonAscii = files.filter((file) => file !== start && !isAscii(file));
    expect(nonAscii).toEqual([]);
    const page = await (await fetch(`${base}/formations`)).text();
    expect(page).toContain("Toutes les catégories");
    expect(page).toContain("fera progresser votre carrière ou votre entreprise\u00a0:");
  });

  // Last: stops the server.
  it(
    "on SIGTERM finishes the request in flight, refuses new connections, closes the database and exits 0",
    async () => {
      // A request in flight: a form post whose body is still arriving when the signal comes.
      const body = "nom=A&email=a%40exemple.ml&sujet=autre&message=Bonjour";
      const socket = net.connect(port, "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      let response = "";
      socket.on("data", (chunk) => (response += chunk));
      const closed = new Promise((resolve) => socket.once("close", resolve));
      socket.write(
        `POST /contact HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));

      server.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Still running: waiting for our request to finish.
      expect(server.child.exitCode).toBeNull();
      await expect(fetch(`${base}/healthz`)).rejects.toThrow(); // no new connections

      socket.write(body.slice(10));
      await closed; // the server answers, then closes the connection itself
      expect(response).toMatch(/^HTTP\/1\.1 (200|303|400|403|429) /);
      expect(response.toLowerCase()).toContain("connection: close");

      expect(await exitWithin(server, 10_000 * PATIENCE)).toBe(0);
      expect(server.output()).toContain("SIGTERM reçu");
      expect(fs.existsSync(path.join(dataDir, "campus.lock"))).toBe(false);
    },
    30_000 * PATIENCE,
  );
});

describe("several processes (WORKERS=2, a trial)", () => {
  it(
    "runs two workers on one database: a session opened through one is known to the other; a dead worker is replaced",
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const server = startServer({ PORT: String(port), DATA_DIR: tempDir(), NODE_ENV: "", BETTER_AUTH_SECRET: "", WORKERS: "2" });
      // Until both workers are ready, a new connection is refused (none ready yet) or served: a
      // worker still opening its database does not listen, so never answers « Campus démarre » (503).
      const atStart: (number | "refused")[] = [];
      const startEnds = Date.now() + 60_000 * PATIENCE;
      while (!server.output().includes("2 processus") && Date.now() < startEnds) {
        if (server.child.exitCode !== null) throw new Error(`server exited:\n${server.output()}`);
        atStart.push(
          await fetch(`${base}/healthz`, { headers: { connection: "close" } }).then(
            (response) => response.status,
            () => "refused" as const,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(server.output()).toContain("2 processus");
      expect(atStart.filter((status) => status !== 200 && status !== "refused")).toEqual([]);
      // ps exits 1 when it finds none.
      const workers = () =>
        spawnSync("ps", ["-o", "pid=", "--ppid", String(server.child.pid)], { encoding: "utf8" })
          .stdout.split("\n")
          .map((line) => Number(line.trim()))
          .filter(Boolean);
      expect(workers()).toHaveLength(2);

      const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: base },
        body: JSON.stringify({ email: "admin@campus.test", password: "Demo-Admin-ICEF-2025" }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      // New connections land on either worker: every one knows the session. A worker whose
      // database is too slow to answer on a loaded machine says 503 (try again), never "signed out".
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const page = await fetch(`${base}/admin/users`, { headers: { cookie, connection: "close" }, redirect: "manual" });
        statuses.push(page.status);
        expect([200, 503], `${page.status} ${page.headers.get("location")}\n${server.output()}`).toContain(page.status);
      }
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(6);

      const [victim] = workers();
      process.kill(victim!, "SIGKILL");
      await vi.waitFor(() => expect(server.output()).toContain("il est relancé"), { timeout: 10_000 * PATIENCE });
      // While its replacement starts, the other worker answers every new connection: the new one
      // takes connections only once ready (no « Campus démarre » 503 from it).
      const duringRestart: number[] = [];
      const restartEnds = Date.now() + 4_000 * PATIENCE;
      while (Date.now() < restartEnds) {
        duringRestart.push((await fetch(`${base}/healthz`, { headers: { connection: "close" } })).status);
      }
      expect(duringRestart.filter((status) => status !== 200)).toEqual([]);
      await vi.waitFor(
        () => {
          const now = workers();
          expect(now).toHaveLength(2);
          expect(now).not.toContain(victim);
        },
        { timeout: 20_000 * PATIENCE },
      );
      for (let i = 0; i < 6; i++) expect((await fetch(`${base}/healthz`, { headers: { connection: "close" } })).status).toBe(200);

      server.child.kill("SIGTERM");
      expect(await exitWithin(server, 20_000 * PATIENCE)).toBe(0);
      expect(workers()).toEqual([]);
    },
    90_000 * PATIENCE,
  );
});

describe("a trial (no NODE_ENV, no CAMPUS_MODE)", () => {
  it(
    "says so, generates its secret, and has the demo accounts",
    async () => {
      const port = await freePort();
      const dataDir = tempDir();
      // WORKERS unset, on PGlite: one process, PGlite inside it (docs/decisions/0042-one-process-on-pglite.md).
      const started = startServer({ PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "", BETTER_AUTH_SECRET: "" });
      try {
        await waitUntilListening(started, port);
        if (process.platform === "linux") {
          const pid = started.child.pid!;
          expect(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim()).toBe("");
        }
        expect(started.output()).not.toMatch(/\d+ processus/);
        expect(started.output()).toContain("Mode essai");
        expect(fs.readFileSync(path.join(dataDir, "auth-secret"), "utf8").trim().length).toBeGreaterThanOrEqual(32);
        const response = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: `http://127.0.0.1:${port}` },
          body: JSON.stringify({ email: "admin@campus.test", password: "Demo-Admin-ICEF-2025" }),
        });
        expect(response.status).toBe(200);
      } finally {
        started.child.kill("SIGTERM");
        await exitWithin(started, 15_000 * PATIENCE);
      }
    },
    60_000 * PATIENCE,
  );

  it("is a deployment when the operator says NODE_ENV=production: no secret, no start", async () => {
    const started = startServer({ PORT: String(await freePort()), DATA_DIR: tempDir(), BETTER_AUTH_SECRET: "" });
    expect(await exitWithin(started, 20_000 * PATIENCE)).toBe(1);
    expect(started.output()).toContain("BETTER_AUTH_SECRET est obligatoire en production");
  });
});

describe("npm run dev", () => {
  it(
    "serves pages through Vite with the script's own Node options",
    async () => {
      // The script's flags (--conditions=development makes Node load the same React Router build
      // as Vite): without them every page answered 500.
      const args = scriptArgs("dev");
      const port = await freePort();
      const { DATABASE_URL: _ignored, NODE_ENV: _test, ...inherited } = process.env;
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...inherited, DATA_DIR: tempDir(), PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "error" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.add(child);
      let output = "";
      child.stdout!.on("data", (chunk) => (output += chunk));
      child.stderr!.on("data", (chunk) => (output += chunk));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        await waitUntilListening({ child, output: () => output, exited }, port, 60_000 * PATIENCE);
        const page = await fetch(`http://127.0.0.1:${port}/formations`);
        expect(page.status, output).toBe(200);
        expect(await page.text()).toContain("Intelligence Artificielle");
      } finally {
        child.kill("SIGTERM");
        await exited;
        children.delete(child);
      }
    },
    90_000 * PATIENCE,
  );
});
