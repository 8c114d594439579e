/** Shared by the bench scripts: build, start the production server, sample memory, write docs. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/setup/server-build";

export { freePort };

export const root = path.resolve(import.meta.dirname, "..");
export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");

/** Builds unless BENCH_SKIP_BUILD=1 and a build exists: figures must describe the current code. */
export async function ensureBuild() {
  const exists = fs.existsSync(path.join(buildDir, "server/index.js"));
  if (exists && process.env.BENCH_SKIP_BUILD === "1") return;
  console.log(`Build de production dans ${path.relative(root, buildDir)}...`);
  await run(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    NODE_ENV: "production",
    BUILD_DIR: buildDir,
  });
}

function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}`))));
  });
}

export interface RunningServer {
  child: ChildProcess;
  dataDir: string;
  origin: string;
  stop(): Promise<void>;
}

async function waitForHealth(origin: string, child: ChildProcess, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("server did not become healthy");
}

/** The Node options of `npm run serve` (and so of `npm start`), read from package.json. */
export function serveNodeOptions(): string[] {
  const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
  const match = /^node((?:\s+--\S+)*)\s+server\.ts$/.exec(scripts.serve ?? "");
  if (!match) throw new Error(`package.json: "serve" should be "node [--options] server.ts", not ${JSON.stringify(scripts.serve)}`);
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

/**
 * The production server as deployed: `server.ts` on the build, NODE_ENV=production, a fresh
 * PGlite DATA_DIR in a temporary folder (removed by stop()), unless DATABASE_URL is set.
 */
export async function startProductionServer(options: { dataDir?: string; keepDataDir?: boolean } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-"));
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serveNodeOptions(), "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      BUILD_DIR: buildDir,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      LOG_LEVEL: "error",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    if (!options.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("exit", () => child.kill("SIGKILL"));
  try {
    await waitForHealth(origin, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, dataDir, origin, stop };
}

/** Resident memory of a process in bytes (Linux /proc), or undefined elsewhere. */
export function rssOf(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the maximum seen. */
export function sampleRss(pid: number, everyMs = 200) {
  let max = rssOf(pid) ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, rssOf(pid) ?? 0);
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return max;
    },
  };
}

/** A GET that keeps the body as sent (no decompression): what crosses the network. */
export function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Replaces what lies between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`. */
export function writeDocSection(name: string, content: string) {
  const file = path.join(root, "docs/performance.md");
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Performance\n";
  const block = `${start}\n${content.trim()}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*?${end}`);
  fs.writeFileSync(file, pattern.test(text) ? text.replace(pattern, block) : `${text.trimEnd()}\n\n${block}\n`);
}

export function machine() {
  const cpus = os.cpus();
  return `${cpus.length} cœurs (${cpus[0]?.model.trim() ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} Go de RAM, Node ${process.version}, charge moyenne au départ ${os.loadavg()[0]!.toFixed(2)}`;
}

export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} Mo`;
