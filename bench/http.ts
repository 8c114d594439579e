/**
 * `npm run bench`: HTTP throughput of the production server on `/` and `/formations`, against the
 * same HTML served as static files, with the server's peak resident memory. Prints a table and
 * writes it into docs/performance.md. BENCH_DURATION (seconds, default 20), BENCH_CONNECTIONS
 * (default 50), BENCH_ENCODING (Accept-Encoding sent, default a browser's "gzip, deflate, br"),
 * BENCH_SKIP_BUILD=1 to reuse the build in BUILD_DIR (default build/).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureBuild, freePort, machine, mb, root, rssOf, sampleRss, startProductionServer, writeDocSection } from "./lib";

const duration = Number(process.env.BENCH_DURATION ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const encoding = process.env.BENCH_ENCODING ?? "gzip, deflate, br";
const pages = ["/", "/formations"];
const TARGET = { rps: 1500, p99: 100, rss: 300 * 2 ** 20 };

interface Row {
  target: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  maxRss?: number;
}

async function load(url: string, seconds: number, conns = connections) {
  const result = await autocannon({ url, connections: conns, duration: seconds, headers: { "accept-encoding": encoding } });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

async function main() {
  await ensureBuild();
  const startedAt = new Date();
  // A first start creates the database (PGlite's initdb leaves a one-off memory peak); the
  // measured server is the second start on that folder, as a deployment runs after day one.
  const first = await startProductionServer({ keepDataDir: true });
  const firstStartRss = rssOf(first.child.pid!) ?? 0;
  await first.stop();
  const server = await startProductionServer({ dataDir: first.dataDir });
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-bench-static-"));
  let staticServer: ReturnType<typeof spawn> | undefined;
  const rows: Row[] = [];
  try {
    // The same HTML the app sends, captured once for the static comparison.
    for (const page of pages) {
      const html = await (await fetch(`${server.origin}${page}`)).text();
      fs.writeFileSync(path.join(staticDir, page === "/" ? "index.html" : `${page.slice(1)}.html`), html);
    }

    console.log(`Échauffement (3 s par page), puis ${duration} s par page, ${connections} connexions, Accept-Encoding: ${encoding}`);
    for (const page of pages) await load(`${server.origin}${page}`, 3, 10);

    for (const page of pages) {
      const sampler = sampleRss(server.child.pid!);
      const figures = await load(`${server.origin}${page}`, duration);
      rows.push({ target: `app ${page}`, ...figures, maxRss: sampler.stop() });
      console.log(`  app ${page}: ${figures.rps.toFixed(0)} req/s`);
    }

    const staticPort = await freePort();
    staticServer = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench/static-server.ts"), staticDir, String(staticPort)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise((resolve) => staticServer!.stdout!.once("data", resolve));
    // Without the page cache: a visitor with a cookie (signed in...) gets a full render.
    {
      const sampler = sampleRss(server.child.pid!);
      const result = await autocannon({
        url: `${server.origin}/formations`,
        connections,
        duration,
        headers: { "accept-encoding": encoding, cookie: "bench=1" },
      });
      rows.push({
        target: "app /formations (sans cache)",
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        requests: result.requests.total,
        maxRss: sampler.stop(),
      });
      console.log(`  app /formations (sans cache): ${result.requests.average.toFixed(0)} req/s`);
    }

    for (const page of pages) {
      const figures = await load(`http://127.0.0.1:${staticPort}${page}`, duration);
      rows.push({ target: `statique ${page}`, ...figures });
      console.log(`  statique ${page}: ${figures.rps.toFixed(0)} req/s`);
    }
  } finally {
    staticServer?.kill("SIGKILL");
    await server.stop();
    fs.rmSync(staticDir, { recursive: true, force: true });
  }

  const staticRps = (page: string) => rows.find((row) => row.target === `statique ${page}`)?.rps ?? NaN;
  const lines = [
    "| cible | req/s | p50 (ms) | p99 (ms) | erreurs | non-2xx | requêtes | RSS max | part du statique |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((row) => {
      const page = row.target.split(" ")[1]!; // "app /formations (sans cache)" → "/formations"
      const ratio = row.target.startsWith("app") ? `${((row.rps / staticRps(page)) * 100).toFixed(0)} %` : "—";
      return `| ${row.target} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} | ${row.requests} | ${row.maxRss ? mb(row.maxRss) : "—"} | ${ratio} |`;
    }),
  ];
  const formations = rows.find((row) => row.target === "app /formations")!;
  const maxRss = Math.max(...rows.map((row) => row.maxRss ?? 0));
  const verdict = [
    `- /formations ≥ ${TARGET.rps} req/s : ${formations.rps >= TARGET.rps ? "atteint" : "**manqué**"} (${formations.rps.toFixed(0)})`,
    `- p99 < ${TARGET.p99} ms : ${formations.p99 < TARGET.p99 ? "atteint" : "**manqué**"} (${formations.p99} ms)`,
    `- aucune erreur : ${formations.errors + formations.non2xx === 0 ? "atteint" : "**manqué**"}`,
    `- RSS < ${mb(TARGET.rss)} pendant la charge : ${maxRss < TARGET.rss ? "atteint" : "**manqué**"} (${mb(maxRss)} ; au tout premier démarrage, base créée : ${mb(firstStartRss)})`,
  ];
  const report = [
    `Mesuré le ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench\` : ${machine()}.`,
    `autocannon, ${connections} connexions, ${duration} s par cible, \`Accept-Encoding: ${encoding}\`, serveur de production`,
    "(NODE_ENV=production, PGlite dans un dossier temporaire), le générateur de charge sur la même machine.",
    "",
    ...lines,
    "",
    ...verdict,
  ].join("\n");
  console.log(`\n${report}\n`);
  writeDocSection("http", report);
  fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench/results", `http-${startedAt.toISOString()}.json`), JSON.stringify({ connections, duration, encoding, rows }, null, 2));
  console.log("Résultats écrits dans docs/performance.md.");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
