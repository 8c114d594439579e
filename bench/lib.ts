/** Shared by the bench scripts: build, start the production server, sample memory, write docs. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
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

/** One health check on a connection of its own: with several workers, each answers for itself. */
function healthy(origin: string) {
  return new Promise<boolean>((resolve) => {
    const request = http.get(`${origin}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on("error", () => resolve(false));
  });
}

/** Up when 4 checks in a row pass, each on a new connection (a worker still starting answers 503). */
async function waitForHealth(origin: string, child: ChildProcess, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let inARow = 0;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    inARow = (await healthy(origin)) ? inARow + 1 : 0;
    if (inARow === 4) return;
    if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("server did not become healthy");
}

/**
 * The Node options of `npm run serve` (and so of `npm start`), read from package.json; or
 * BENCH_SERVE_OPTIONS, to measure others (for example "--max-semi-space-size=16").
 */
export function serveNodeOptions(): string[] {
  const trial = process.env.BENCH_SERVE_OPTIONS;
  if (trial !== undefined) return trial.split(/\s+/).filter(Boolean);
  const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
  const match = /^node((?:\s+--\S+)*)\s+build\/server\/start\.js$/.exec(scripts.serve ?? "");
  if (!match) {
    throw new Error(`package.json: "serve" should be "node [--options] build/server/start.js", not ${JSON.stringify(scripts.serve)}`);
  }
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

/**
 * The production server as deployed: the build's entry (server.ts built), NODE_ENV=production, a
 * fresh PGlite DATA_DIR in a temporary folder (removed by stop()), unless DATABASE_URL is set.
 * WORKERS is 1 unless `env` says otherwise (the bench says which shape it measures).
 */
export async function startProductionServer(
  options: { dataDir?: string; keepDataDir?: boolean; nodeOptions?: string[]; env?: Record<string, string>; port?: number } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-"));
  const port = options.port ?? (Number(process.env.BENCH_PORT) || (await freePort()));
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...serveNodeOptions(), ...(options.nodeOptions ?? []), path.join(buildDir, "server/start.js")], {
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
      WORKERS: "1",
      ...options.env,
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

/** The figures a /proc file of a process gives in kB (`<field>: <n> kB`), in bytes; empty elsewhere. */
function procFigures(pid: number, file: string): Map<string, number> {
  const figures = new Map<string, number>();
  try {
    for (const [, field, kb] of fs.readFileSync(`/proc/${pid}/${file}`, "utf8").matchAll(/^(\w+):\s+(\d+) kB$/gm))
      figures.set(field!, Number(kb) * 1024);
  } catch {
    // not Linux, or the process ended
  }
  return figures;
}

/** Resident memory of a process in bytes (Linux /proc), or undefined elsewhere. */
export const rssOf = (pid: number) => procFigures(pid, "status").get("VmRSS");

/**
 * A process's resident memory split in two (Linux /proc, zero elsewhere): its own pages, and the
 * pages it shares with other processes. Each Node process maps the same binary (≈ 60 MB resident),
 * which the RSS of every process counts in full.
 */
export function residentParts(pid: number): { own: number; shared: number } {
  const figures = procFigures(pid, "smaps_rollup");
  const sum = (...fields: string[]) => fields.reduce((total, field) => total + (figures.get(field) ?? 0), 0);
  return { own: sum("Private_Clean", "Private_Dirty"), shared: sum("Shared_Clean", "Shared_Dirty") };
}

/** A process and its descendants (Linux /proc: the primary and its workers). */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    const parent = tree[index]!;
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${parent}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${parent}/task/${task}/children`, "utf8").trim();
        if (children) tree.push(...children.split(/\s+/).map(Number));
      } catch {
        // the task ended
      }
    }
  }
  return tree;
}

/**
 * Samples the resident memory of a process and its descendants every `everyMs` until stopped;
 * returns the highest RSS sum over the tree, the highest RSS of any one process, and the highest
 * sum without duplicates: every process's own pages, plus the shared pages once (those of the
 * process that shares the most; they are the same binary's pages). Unlike PSS, this does not
 * depend on other processes of the machine mapping the same binary (the bench's own Node does).
 */
export function sampleRss(pid: number, everyMs = 200) {
  let sum = 0;
  let perProcess = 0;
  let distinctSum = 0;
  let tree = processTree(pid);
  let ticks = 0;
  const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const sample = () => {
    // Workers are fixed once started (a restart shows as a new pid): look for them now and then.
    if (++ticks % 10 === 0) tree = processTree(pid);
    const each = tree.map((member) => rssOf(member) ?? 0);
    sum = Math.max(sum, total(each));
    perProcess = Math.max(perProcess, ...each);
    // smaps_rollup walks the page tables: read once a second, not at every sample.
    if (ticks % 5 === 1) {
      const parts = tree.map(residentParts);
      distinctSum = Math.max(distinctSum, total(parts.map((part) => part.own)) + Math.max(0, ...parts.map((part) => part.shared)));
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { sum, perProcess, distinctSum };
    },
  };
}

/** Linux's clock ticks per second in /proc (USER_HZ), the same on every platform Linux runs on. */
const TICKS_PER_SECOND = 100;

/** User and system CPU time of a process, all its threads, in ms (Linux /proc; 0 once it ended). */
function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The processes of this machine's PostgreSQL server (the postmaster and its backends). */
function postgresPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return fs.readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Busy and idle time of the whole machine, in ms summed over its cores (Linux /proc/stat). */
function machineMs(): { busy: number; idle: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { busy: ms(user! + nice! + system! + irq! + softirq! + steal!), idle: ms(idle! + iowait!) };
}

/**
 * Where the machine's CPU goes while a load runs, per request: the server (`pid` and its
 * workers, every thread: the garbage collector's and libuv's too), this machine's PostgreSQL
 * server (none when the database is elsewhere), and this bench process (the load client); and
 * the share of the machine left idle. The idle share bounds what more processes can add at the
 * same CPU per request: a shape that leaves a quarter of the machine idle can gain × 1/(1 − 0.25)
 * ≈ 1.33 by using it, no more.
 */
export function sampleCpu(pid: number) {
  const tree = processTree(pid);
  const serverCpu = () => tree.reduce((sum, member) => sum + cpuMsOf(member), 0);
  // A backend opened during the load counts from zero; one that ends during it takes its time
  // with it (pool connections live as long as the server).
  const postgresAtStart = new Map(postgresPids().map((member) => [member, cpuMsOf(member)]));
  const postgresCpu = () => postgresPids().reduce((sum, member) => sum + cpuMsOf(member) - (postgresAtStart.get(member) ?? 0), 0);
  const start = { server: serverCpu(), bench: process.cpuUsage(), machine: machineMs() };
  return {
    stop(requests: number) {
      const machine = machineMs();
      const bench = process.cpuUsage(start.bench);
      const busy = machine.busy - start.machine.busy;
      const idle = machine.idle - start.machine.idle;
      const per = (ms: number) => (requests > 0 ? ms / requests : 0);
      return {
        serverMs: per(serverCpu() - start.server),
        postgresMs: per(Math.max(0, postgresCpu())),
        benchMs: per((bench.user + bench.system) / 1000),
        idleShare: busy + idle > 0 ? idle / (busy + idle) : 0,
      };
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

/** The machine, and its load average when the run started (`load`, read then). */
export function machine(load = os.loadavg()[0]!) {
  const cpus = os.cpus();
  return `${cpus.length} cœurs (${cpus[0]?.model.trim() ?? "?"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} Go de RAM, Node ${process.version}, charge moyenne au départ ${load.toFixed(2)}`;
}

export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} Mo`;

/** The demo accounts of a trial instance (README), one per role. */
export const DEMO = {
  student: { email: "etudiant@campus.test", password: "Demo-Etudiant-2025" },
  teacher: { email: "enseignant@campus.test", password: "Demo-Enseignant-2025" },
  admin: { email: "admin@campus.test", password: "Demo-Admin-ICEF-2025" },
} as const;

/**
 * A fresh database on the PostgreSQL server of BENCH_PG (default postgres://postgres@127.0.0.1:5432,
 * as CI's), dropped by drop(): each bench run starts from the same seed.
 */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = (process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");
  const name = `campus_bench_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: `${server}/postgres` });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  return { url: `${server}/${name}`, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** Signs in through Better Auth and returns the Cookie header of the new session. */
export async function signIn(origin: string, account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify(account),
  });
  if (!response.ok) throw new Error(`sign-in of ${account.email} failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A page the benches load, anonymously or with the session of a demo account's role. */
export interface BenchPage {
  name: string;
  path: string;
  role?: keyof typeof DEMO;
}

/** The public course page measured by the benches (seeded, published). */
export const COURSE_PATH = "/formations/intelligence-artificielle";

/**
 * The signed-in pages of the three roles, and a Cookie header per role (one sign-in each through
 * the API, on a trial instance's demo accounts). The lesson is the one the demo student resumes.
 * Each page is checked to answer 200 to its role, so a bench never measures a redirect.
 */
export async function signedInPages(origin: string): Promise<{ pages: BenchPage[]; cookies: Record<keyof typeof DEMO, string> }> {
  const cookies = {
    student: await signIn(origin, DEMO.student),
    teacher: await signIn(origin, DEMO.teacher),
    admin: await signIn(origin, DEMO.admin),
  };
  const courses = await fetch(`${origin}/dashboard/formations`, { headers: { cookie: cookies.student }, redirect: "manual" });
  const lesson = /href="(\/dashboard\/formations\/[\w-]+\/lecons\/[^"/?#]+)"/.exec(await courses.text())?.[1];
  if (!lesson) throw new Error("/dashboard/formations : aucun lien « Continuer » vers une leçon pour l'étudiant de démonstration");
  const pages: BenchPage[] = [
    { name: "tableau de bord (étudiant)", path: "/dashboard", role: "student" },
    { name: "Mes Formations (étudiant)", path: "/dashboard/formations", role: "student" },
    { name: "leçon (étudiant)", path: lesson, role: "student" },
    { name: "formations (enseignant)", path: "/teacher/courses", role: "teacher" },
    { name: "utilisateurs (admin)", path: "/admin/users", role: "admin" },
  ];
  for (const page of pages) {
    const response = await fetch(`${origin}${page.path}`, { headers: { cookie: cookies[page.role!] }, redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${page.path} (${page.role}) : ${response.status} au lieu de 200`);
  }
  return { pages, cookies };
}

/** The server shapes the benches measure: database engine, and one process or one per core. */
export const SHAPES = ["pglite-1", "pglite-auto", "postgres-1", "postgres-auto"] as const;
export type Shape = (typeof SHAPES)[number];
export const SHAPE_LABEL: Record<Shape, string> = {
  "pglite-1": "PGlite, 1 processus",
  "pglite-auto": "PGlite, tous les cœurs",
  "postgres-1": "PostgreSQL, 1 processus",
  "postgres-auto": "PostgreSQL, tous les cœurs",
};

/** The shapes an environment variable lists (comma-separated), or the defaults. */
export function shapesFrom(variable: string, defaults: readonly Shape[]): Shape[] {
  return (process.env[variable]?.split(",") ?? [...defaults]).map((shape) => {
    if (!SHAPES.includes(shape.trim() as Shape)) throw new Error(`${variable} : ${shape} inconnu (${SHAPES.join(", ")})`);
    return shape.trim() as Shape;
  });
}

export interface PreparedDatabases {
  dataDirs: Partial<Record<"pglite" | "postgres", string>>;
  postgresUrl?: string;
  cleanup(): Promise<void>;
}

/**
 * One fresh database per engine the shapes use, shared by the shapes of that engine, each created
 * by a first start that is not measured (PGlite's initdb, migrations and seed leave a one-off
 * memory peak; a deployment runs after day one). cleanup() removes them.
 */
export async function prepareDatabases(shapes: readonly Shape[]): Promise<PreparedDatabases> {
  const prepared: PreparedDatabases = { dataDirs: {}, cleanup: async () => {} };
  let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>> | undefined;
  prepared.cleanup = async () => {
    for (const dir of Object.values(prepared.dataDirs)) fs.rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  };
  try {
    for (const engine of new Set(shapes.map((shape) => shape.split("-")[0] as "pglite" | "postgres"))) {
      if (engine === "postgres") {
        postgres = await freshPostgresDatabase();
        prepared.postgresUrl = postgres.url;
      }
      const first = await startProductionServer({
        keepDataDir: true,
        env: { CAMPUS_MODE: "trial", ...(engine === "postgres" ? { DATABASE_URL: postgres!.url } : {}) },
      });
      prepared.dataDirs[engine] = first.dataDir;
      await first.stop();
    }
  } catch (error) {
    await prepared.cleanup();
    throw error;
  }
  return prepared;
}

/**
 * Starts the production server in a shape on a prepared database. A trial instance (CAMPUS_MODE),
 * for its demo accounts: it renders exactly as a deployment does.
 */
export function startShape(shape: Shape, databases: PreparedDatabases, port?: number) {
  const [engine, workers] = shape.split("-") as ["pglite" | "postgres", string];
  return startProductionServer({
    port,
    dataDir: databases.dataDirs[engine],
    keepDataDir: true,
    env: { CAMPUS_MODE: "trial", WORKERS: workers, ...(engine === "postgres" ? { DATABASE_URL: databases.postgresUrl! } : {}) },
  });
}
