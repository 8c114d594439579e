/**
 * `npm run bench:admin`: the admin screens at the size of a busy year (issue 15). A fresh database
 * is filled by `npm run seed:demo` (BENCH_LEARNERS learners, default 62 500: about 100 000
 * enrolments, with their payments, progress, quiz attempts and completions), then the production
 * server (one process, a trial instance for the demo admin) answers each admin screen signed in
 * as the demo admin: /admin and each of its tabs, /admin/analytics (30 jours, 1 an),
 * /admin/financial for each period and its other tabs, the generation of each report (1 an) and
 * its CSV and PDF, the exports, /admin/inscriptions and /admin/users. For each: p50/p99 at each
 * of BENCH_CONNECTIONS (default "1,4") for BENCH_DURATION seconds (default 4).
 *
 * On PostgreSQL, pg_stat_activity of the bench database is sampled every few milliseconds while
 * the pages load: the queries seen running most often are the slowest ones (no extension needed).
 *
 * BENCH_ENGINES ("postgres" by default; "pglite", or both), BENCH_PG (PostgreSQL server),
 * BENCH_DATABASE_URL (an already seeded PostgreSQL database: no creation, no seed, not dropped),
 * BENCH_KEEP_DB=1 (keep the database created, print its address), BENCH_BEFORE (the JSON of an
 * earlier run in bench/results/, shown beside as "avant"), BENCH_TARGETS (a filter on page names),
 * BENCH_SKIP_BUILD=1, BENCH_NO_DOC=1 (print only).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import {
  DEMO,
  ensureBuild,
  freePort,
  freshPostgresDatabase,
  machine,
  root,
  signIn,
  startProductionServer,
  type RunningServer,
  writeDocSection,
} from "./lib";

const learners = Number(process.env.BENCH_LEARNERS ?? 62_500);
const duration = Number(process.env.BENCH_DURATION ?? 4);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? "1,4").split(",").map(Number);
const engines = (process.env.BENCH_ENGINES ?? "postgres").split(",").map((engine) => engine.trim()) as Array<"postgres" | "pglite">;
const targetFilter = process.env.BENCH_TARGETS?.split(",").map((name) => name.trim().toLowerCase());
/** Issue 15's target: every admin page under about a second at 100 000 enrolments. */
/** The screens (not the files: see isFile). */
const TARGET_MS = 1000;

interface Target {
  name: string;
  path: string;
  /** A form posted (report generation): answered by a 303 to the file. */
  form?: Record<string, string>;
  /** Measure the stored report's CSV and PDF files too. */
  files?: boolean;
}
interface Row {
  engine: string;
  name: string;
  path: string;
  connections: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}
interface SlowQuery {
  query: string;
  /** Milliseconds it was seen running, summed over samples. */
  seenMs: number;
  /** The longest one call was seen running. */
  longestMs: number;
  pages: string[];
}

const wanted = (name: string) => !targetFilter || targetFilter.some((filter) => name.toLowerCase().includes(filter));

function targets(courseId: number | null): Target[] {
  const report = (kind: string) => ({
    name: `rapport ${kind} (génération, 1 an)`,
    path: "/admin/rapports",
    form: { kind, format: "csv", periode: "1an" },
  });
  return [
    ...["utilisateurs", "cours", "analytics", "rapports"].map((tab) => ({ name: `/admin ${tab}`, path: `/admin?onglet=${tab}` })),
    { name: "/admin analytics 1 an", path: "/admin?onglet=analytics&periode=1an" },
    { name: "/admin/analytics 30 jours", path: "/admin/analytics?periode=30j" },
    { name: "/admin/analytics 1 an", path: "/admin/analytics?periode=1an" },
    ...["7j", "30j", "90j", "1an"].map((period) => ({ name: `/admin/financial ${period}`, path: `/admin/financial?periode=${period}` })),
    ...["commissions", "analytics", "rapports"].map((tab) => ({
      name: `/admin/financial ${tab} 1 an`,
      path: `/admin/financial?periode=1an&onglet=${tab}`,
    })),
    ...["utilisateurs", "cours", "financier", "analytique", "certifications", "sessions", "mensuel", "commissions", "fiscal"].map(report),
    {
      name: "rapport financier (génération, 30 jours)",
      path: "/admin/rapports",
      form: { kind: "financier", format: "csv", periode: "30j" },
      files: true,
    },
    { name: "/admin/analytics/export 1 an", path: "/admin/analytics/export?periode=1an" },
    { name: "/admin/financial/export 1 an (JSON)", path: "/admin/financial/export?periode=1an" },
    { name: "/admin/financial/export 1 an (CSV)", path: "/admin/financial/export?periode=1an&format=csv" },
    { name: "/admin/inscriptions", path: "/admin/inscriptions" },
    ...(courseId ? [{ name: "/admin/inscriptions, la formation la plus suivie", path: `/admin/inscriptions?cours=${courseId}` }] : []),
    { name: "/admin/users", path: "/admin/users" },
    { name: "/admin/users?q=traore", path: "/admin/users?q=traore" },
    { name: "/admin/users/export.csv", path: "/admin/users/export.csv" },
  ];
}

/** Runs `npm run seed:demo -- --learners N` against the database of `env`; returns its seconds. */
function seed(env: Record<string, string>): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/seed-demo.ts", "--learners", String(learners)],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: "development", CAMPUS_MODE: "trial", LOG_LEVEL: "error", ...env },
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve((Date.now() - started) / 1000) : reject(new Error(`seed:demo exited ${code}`))));
  });
}

/**
 * Samples the running queries of one PostgreSQL database every few milliseconds: for each query
 * text, how long it was seen running (samples × interval) and its longest call seen.
 */
async function querySampler(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map<string, SlowQuery>();
  let page = "";
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  const sample = async () => {
    let last = Date.now();
    while (running) {
      const { rows } = await client.query<{ query: string; ms: number }>(
        `select query, extract(epoch from clock_timestamp() - query_start) * 1000 as ms from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      const now = Date.now();
      const interval = now - last;
      last = now;
      for (const row of rows) {
        const query = row.query.replace(/\s+/g, " ").trim();
        const entry = seen.get(query) ?? { query, seenMs: 0, longestMs: 0, pages: [] };
        entry.seenMs += interval;
        entry.longestMs = Math.max(entry.longestMs, Number(row.ms));
        if (!entry.pages.includes(page)) entry.pages.push(page);
        seen.set(query, entry);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    start(name: string) {
      page = name;
      running = true;
      loop = sample();
    },
    async stop() {
      running = false;
      await loop;
    },
    top: (count: number) => [...seen.values()].sort((a, b) => b.seenMs - a.seenMs).slice(0, count),
    close: () => client.end(),
  };
}

/** One request, which must answer as expected: its Location (a report's file) and how long it took. */
async function check(origin: string, cookie: string, target: Target) {
  const started = performance.now();
  const response = await fetch(`${origin}${target.path}`, {
    method: target.form ? "POST" : "GET",
    headers: target.form ? { cookie, origin, "content-type": "application/x-www-form-urlencoded" } : { cookie },
    body: target.form ? new URLSearchParams(target.form).toString() : undefined,
    redirect: "manual",
  });
  await response.arrayBuffer();
  const expected = target.form ? 303 : 200;
  if (response.status !== expected) throw new Error(`${target.path} : ${response.status} au lieu de ${expected}`);
  return { location: response.headers.get("location"), ms: performance.now() - started };
}

/**
 * Loads a page for `duration` seconds, or, when one answer took `single` ms and so few would end
 * in that time at this many connections, for three requests per connection (a slow page is
 * measured, not left at 0 requests).
 */
async function measure(origin: string, cookie: string, target: Target, connections: number, single: number) {
  // Concurrent requests share the two cores: each takes about `single` × connections.
  const slow = single * connections * 3 > duration * 1000;
  const result = await autocannon({
    url: `${origin}${target.path}`,
    connections,
    ...(slow ? { amount: connections * 3 } : { duration }),
    timeout: 60,
    method: target.form ? "POST" : "GET",
    headers: target.form
      ? { cookie, origin, "content-type": "application/x-www-form-urlencoded", "accept-encoding": "gzip, deflate, br" }
      : { cookie, "accept-encoding": "gzip, deflate, br" },
    body: target.form ? new URLSearchParams(target.form).toString() : undefined,
  });
  // A report's generation answers 303 (to its file): not an error; every GET must be a 200.
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + (target.form ? 0 : result.non2xx),
  };
}

async function counts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`select
      (select count(*) from users) as users, (select count(*) from enrolments) as enrolments,
      (select count(*) from payments) as payments, (select count(*) from lesson_progress) as progress,
      (select count(*) from quiz_attempts) as attempts,
      (select course_id from enrolments group by 1 order by count(*) desc limit 1) as top_course`);
    return rows[0]!;
  } finally {
    await client.end();
  }
}

async function main() {
  await ensureBuild();
  const startedAt = new Date();
  const load1 = os.loadavg()[0]!;
  const rows: Row[] = [];
  const notes: string[] = [];
  let slow: SlowQuery[] = [];
  const port = Number(process.env.BENCH_PORT) || (await freePort());

  for (const engine of engines) {
    let database: { url: string; drop(): Promise<void> } | undefined;
    let dataDir: string | undefined;
    let server: RunningServer | undefined;
    try {
      let env: Record<string, string>;
      if (engine === "postgres" && process.env.BENCH_DATABASE_URL) {
        env = { DATABASE_URL: process.env.BENCH_DATABASE_URL };
        notes.push(`PostgreSQL : base déjà remplie (${process.env.BENCH_DATABASE_URL.replace(/^.*\//, "")}), reprise telle quelle.`);
      } else {
        if (engine === "postgres") database = await freshPostgresDatabase();
        // The first start creates the database (migrations, reference data, demo accounts), as a trial's does.
        const first = await startProductionServer({
          keepDataDir: true,
          env: { CAMPUS_MODE: "trial", ...(database ? { DATABASE_URL: database.url } : {}) },
        });
        dataDir = first.dataDir;
        await first.stop();
        env = database ? { DATABASE_URL: database.url } : { DATA_DIR: dataDir };
        console.log(`\n${engine} : seed:demo --learners ${learners}...`);
        const seconds = await seed(env);
        notes.push(
          `${engine === "postgres" ? "PostgreSQL" : "PGlite"} : \`npm run seed:demo -- --learners ${learners}\` en ${seconds.toFixed(0)} s.`,
        );
        if (database && process.env.BENCH_KEEP_DB === "1") {
          console.log(`Base gardée : ${database.url}`);
          database = undefined;
        }
      }
      server = await startProductionServer({
        port,
        dataDir,
        keepDataDir: true,
        env: { CAMPUS_MODE: "trial", ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}) },
      });
      const sampler = env.DATABASE_URL ? await querySampler(env.DATABASE_URL) : undefined;
      let topCourse: number | null = null;
      if (env.DATABASE_URL) {
        const figures = await counts(env.DATABASE_URL);
        topCourse = Number(figures.top_course) || null;
        notes.push(
          `${engine === "postgres" ? "PostgreSQL" : "PGlite"} : ${figures.users} comptes, ${figures.enrolments} inscriptions, ${figures.payments} paiements, ` +
            `${figures.progress} leçons suivies, ${figures.attempts} tentatives de quiz.`,
        );
      }
      const cookie = await signIn(server.origin, DEMO.admin);
      console.log(`\n${engine} : ${duration} s par page et par nombre de connexions (${connectionCounts.join(", ")})`);
      for (const target of targets(topCourse).filter((candidate) => wanted(candidate.name))) {
        // A report (its generation, its files) is one admin's act: one connection; one request when it takes long.
        const run = async (page: Target, once: boolean) => {
          sampler?.start(page.name);
          const { location, ms } = await check(server!.origin, cookie, page);
          await sampler?.stop();
          for (const connections of once ? [1] : connectionCounts) {
            sampler?.start(page.name);
            const figures =
              once && ms > 10_000
                ? { p50: Math.round(ms), p99: Math.round(ms), requests: 1, errors: 0 }
                : await measure(server!.origin, cookie, page, connections, ms);
            await sampler?.stop();
            rows.push({ engine, name: page.name, path: page.path, connections, ...figures });
            console.log(
              `  ${page.name}, ${connections} conn. : p50 ${figures.p50} ms, p99 ${figures.p99} ms (${figures.requests} requêtes)`,
            );
          }
          return location;
        };
        const location = await run(target, Boolean(target.form));
        if (target.files && location) {
          // The stored report's files, drawn from the copy kept at generation.
          for (const format of ["csv", "pdf"]) {
            await run(
              { name: `rapport financier 30 jours, fichier ${format.toUpperCase()}`, path: location.replace(/\/csv$/, `/${format}`) },
              true,
            );
          }
        }
      }
      if (sampler) {
        slow = sampler.top(12);
        await sampler.close();
      }
    } finally {
      await server?.stop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  }

  const before = process.env.BENCH_BEFORE
    ? (JSON.parse(fs.readFileSync(path.resolve(root, process.env.BENCH_BEFORE), "utf8")) as { rows: Row[]; startedAt: string })
    : undefined;
  const report = [
    `Mesuré le ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench:admin\` : ${machine(load1)}.`,
    "Une base neuve remplie par `npm run seed:demo` (une année passée), puis le serveur de production (un processus,",
    "instance d'essai) ; chaque écran d'administration chargé avec la session de l'administrateur de démonstration,",
    `${duration} s par page et par nombre de connexions, ou trois requêtes par connexion si une seule prend plus du tiers de ce temps`,
    "(autocannon dans le processus du banc, même machine).",
    "La génération d'un rapport est le POST de « Générer » (réponse 303 vers son fichier).",
    "",
    ...notes.map((note) => `- ${note}`),
    "",
    ...table(rows, before),
    "",
    `Objectif de l'issue 15 : chaque écran d'administration sous ~${TARGET_MS / 1000} s (p50 à une connexion) : ${verdict(rows.filter((row) => !isFile(row)))}`,
    "",
    `Pour information, les fichiers (rapports générés, exports), qui portent chaque ligne de la période (une année : ≈ 100 000 paiements, ≈ 62 500 comptes) et croissent avec elles : ${filesSummary(rows.filter(isFile))}.`,
    ...(slow.length
      ? [
          "",
          "Les requêtes SQL vues le plus longtemps en cours (pg_stat_activity échantillonné toutes les ~5 ms pendant les pages) :",
          "",
          "| requête | vue en cours (ms, cumul) | plus long appel vu (ms) | pages |",
          "|---|---:|---:|---|",
          ...slow.map(
            (query) =>
              `| \`${query.query.slice(0, 160).replace(/\|/g, "\\|")}${query.query.length > 160 ? "…" : ""}\` | ${query.seenMs.toFixed(0)} | ${query.longestMs.toFixed(0)} | ${query.pages.slice(0, 3).join(" ; ")}${query.pages.length > 3 ? "…" : ""} |`,
          ),
        ]
      : []),
  ].join("\n");
  console.log(`\n${report}\n`);
  fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
  const file = path.join(root, "bench/results", `admin-${startedAt.toISOString()}.json`);
  fs.writeFileSync(file, JSON.stringify({ startedAt, learners, duration, connectionCounts, rows, slow }, null, 2));
  console.log(`Figures : ${path.relative(root, file)}`);
  if (process.env.BENCH_NO_DOC === "1") return;
  writeDocSection("admin", report);
  console.log("Résultats écrits dans docs/performance.md.");
}

/** p50 / p99, or how long nothing came back (a run that ended before any answer: an earlier version of this bench). */
const latency = (row: Row, figure: number) => (row.requests === 0 ? `> ${duration * 1000}` : String(figure));

function table(rows: Row[], before?: { rows: Row[]; startedAt: string }) {
  const lines = [
    `| page | moteur | connexions | p50 (ms) | p99 (ms) | requêtes | erreurs |${before ? ` avant : p50 / p99 (ms) |` : ""}`,
    `|---|---|---:|---:|---:|---:|---:|${before ? "---:|" : ""}`,
  ];
  for (const row of rows) {
    const earlier = before?.rows.find(
      (candidate) => candidate.engine === row.engine && candidate.name === row.name && candidate.connections === row.connections,
    );
    lines.push(
      `| ${row.name} | ${row.engine === "postgres" ? "PostgreSQL" : "PGlite"} | ${row.connections} | ${latency(row, row.p50)} | ${latency(row, row.p99)} | ${row.requests} | ${row.errors} |${before ? ` ${earlier ? `${latency(earlier, earlier.p50)} / ${latency(earlier, earlier.p99)}` : "—"} |` : ""}`,
    );
  }
  if (before) lines.push("", `« avant » : la mesure du ${before.startedAt.slice(0, 16).replace("T", " ")} UTC (même banc, code d'avant).`);
  return lines;
}

/** A report generated or an export: a file of every row of the period, not a screen. */
const isFile = (row: Row) => row.name.startsWith("rapport ") || row.name.includes("export");

function filesSummary(rows: Row[]) {
  const single = rows.filter((row) => row.connections === Math.min(...connectionCounts)).sort((a, b) => b.p50 - a.p50);
  return single.length ? single.map((row) => `${row.name} ${row.requests ? `${row.p50} ms` : "sans réponse"}`).join(", ") : "aucun mesuré";
}

function verdict(rows: Row[]) {
  const single = rows.filter((row) => row.connections === Math.min(...connectionCounts));
  const over = single.filter((row) => row.requests === 0 || row.p50 > TARGET_MS || row.errors > 0);
  if (!over.length)
    return `atteint (la plus lente : ${[...single].sort((a, b) => b.p50 - a.p50)[0]?.name ?? "—"}, ${Math.max(...single.map((row) => row.p50))} ms)`;
  return `**manqué** (${over.map((row) => `${row.name} ${row.p50} ms${row.errors ? `, ${row.errors} erreurs` : ""}`).join(", ")})`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
