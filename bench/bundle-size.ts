/**
 * `npm run bench:size`: what a first visit to `/`, `/formations` and a course page costs a phone.
 * - Bytes: the HTML plus the stylesheets and scripts it references (<link rel="stylesheet|
 *   modulepreload">, <script src>), measured on the wire from the production server, once with
 *   `Accept-Encoding: br` and once with gzip; images and the favicon aside. Budget: 50 KB
 *   (50,000 bytes) in brotli (issue 10).
 * - Lighthouse, mobile (its default: a mid-range phone, simulated slow 4G and 4× CPU slowdown),
 *   performance only, in the Chromium the browser tests use (CHROMIUM_PATH, default
 *   /usr/bin/chromium), LIGHTHOUSE_RUNS times per page (default 3), the median run kept.
 *   Targets: score ≥ 95, total blocking time ≤ 150 ms.
 * For information (no target): the same bytes for the sign-in page and the signed-in pages of the
 * three roles (with their demo account's session), with what a learner who comes from the sign-in
 * page still downloads (the files `/auth` already brought are in the browser's cache), and
 * Lighthouse on `/auth`, the student dashboard and a lesson.
 * Prints a table and writes it into docs/performance.md. BENCH_SKIP_BUILD=1 reuses BUILD_DIR;
 * BENCH_NO_DOC=1 prints only.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { COURSE_PATH, ensureBuild, kb, rawGet, signedInPages, startProductionServer, writeDocSection } from "./lib";

/** A page measured: `cookie` for a signed-in one; `target` for the public pages, which issue 10 holds to budgets. */
interface SizedPage {
  label: string;
  path: string;
  cookie?: string;
  target: boolean;
  lighthouse: boolean;
}

const SIGN_IN_PATH = "/auth";
const BUDGET = 50_000;
const TARGET = { score: 95, tbt: 150 };
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function referencedFiles(html: string) {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    if (!/rel="(stylesheet|modulepreload)"/.test(tag)) continue;
    const href = /href="([^"]+)"/.exec(tag)?.[1];
    if (href?.startsWith("/")) urls.add(href);
  }
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (match[1]!.startsWith("/")) urls.add(match[1]!);
  // The module entry of React pages is imported by an inline script.
  for (const match of html.matchAll(/import\s*(?:[\w{}\s,*]+from\s*)?["'](\/assets\/[^"']+)["']/g)) urls.add(match[1]!);
  return [...urls];
}

/**
 * What a first visit to `page` receives, per encoding (identity, br, gzip); `brotliOf` keeps each
 * file's brotli size, to count what a later page adds. Anonymous pages may come from the page cache.
 */
async function firstLoad(origin: string, page: SizedPage) {
  const sizes = { html: [0, 0, 0], css: [0, 0, 0], js: [0, 0, 0] };
  const cookie: Record<string, string> = page.cookie ? { cookie: page.cookie } : {};
  const plain = await rawGet(`${origin}${page.path}`, { ...cookie, "accept-encoding": "identity" });
  if (plain.status !== 200) throw new Error(`${page.path}: ${plain.status}`);
  const files = referencedFiles(plain.body.toString("utf8"));
  const brotliOf = new Map<string, number>();
  for (const [index, encoding] of (["identity", "br", "gzip"] as const).entries()) {
    sizes.html[index]! += (await rawGet(`${origin}${page.path}`, { ...cookie, "accept-encoding": encoding })).body.length;
    for (const file of files) {
      const asset = await rawGet(`${origin}${file}`, { "accept-encoding": encoding });
      if (asset.status !== 200) throw new Error(`${file}: ${asset.status}`);
      sizes[file.endsWith(".css") ? "css" : "js"][index]! += asset.body.length;
      if (encoding === "br") brotliOf.set(file, asset.body.length);
    }
  }
  return { ...sizes, files: files.length, brotliOf };
}

/** Headless Chromium with its DevTools port open, for Lighthouse to drive. */
async function startChromium() {
  if (!fs.existsSync(chromiumPath)) throw new Error(`Chromium introuvable (${chromiumPath}) : apt-get install chromium, ou CHROMIUM_PATH`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "campus-lighthouse-"));
  const child = spawn(
    chromiumPath,
    [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  process.once("exit", () => child.kill("SIGKILL"));
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`Chromium n'a pas ouvert son port DevTools :\n${output}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`Chromium s'est arrêté (${code}) :\n${output}`)));
  });
  return {
    port,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

interface Audit {
  score: number;
  tbt: number;
  fcp: number;
  lcp: number;
  cls: number;
  si: number;
}

async function audit(url: string, port: number, cookie?: string): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    logLevel: "error",
    output: "json",
    onlyCategories: ["performance"],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  const lhr = result?.lhr;
  if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse ${url} : ${lhr?.runtimeError?.message ?? "pas de résultat"}`);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    tbt: value("total-blocking-time"),
    fcp: value("first-contentful-paint"),
    lcp: value("largest-contentful-paint"),
    cls: value("cumulative-layout-shift"),
    si: value("speed-index"),
  };
}

async function main() {
  await ensureBuild();
  const startedAt = new Date();
  // A trial instance, for its demo accounts; it renders as a deployment does.
  const server = await startProductionServer({ env: { CAMPUS_MODE: "trial" } });
  const rows: ({ page: SizedPage } & Awaited<ReturnType<typeof firstLoad>>)[] = [];
  const audits: { page: SizedPage; median: Audit; scores: number[] }[] = [];
  try {
    const signedIn = await signedInPages(server.origin);
    const pages: SizedPage[] = [
      ...["/", "/formations", COURSE_PATH].map((path) => ({ label: path, path, target: true, lighthouse: true })),
      { label: `${SIGN_IN_PATH} (connexion)`, path: SIGN_IN_PATH, target: false, lighthouse: true },
      ...signedIn.pages.map((page) => ({
        label: page.name,
        path: page.path,
        cookie: signedIn.cookies[page.role!],
        target: false,
        lighthouse: page.path === "/dashboard" || page.path.includes("/lecons/"),
      })),
    ];
    for (const page of pages) rows.push({ page, ...(await firstLoad(server.origin, page)) });
    if (runs > 0) {
      const chromium = await startChromium();
      try {
        for (const page of pages.filter((entry) => entry.lighthouse)) {
          const results: Audit[] = [];
          for (let run = 0; run < runs; run++) results.push(await audit(`${server.origin}${page.path}`, chromium.port, page.cookie));
          const sorted = [...results].sort((a, b) => a.score - b.score || b.tbt - a.tbt);
          audits.push({ page, median: sorted[Math.floor((sorted.length - 1) / 2)]!, scores: results.map((entry) => entry.score) });
          console.log(`  Lighthouse ${page.label} : ${results.map((entry) => entry.score).join(", ")}`);
        }
      } finally {
        await chromium.stop();
      }
    }
  } finally {
    await server.stop();
  }

  const total = (row: (typeof rows)[number], index: number) => row.html[index]! + row.css[index]! + row.js[index]!;
  // Coming from the sign-in page, the browser already holds the files it loaded.
  const signInFiles = rows.find((row) => row.page.path === SIGN_IN_PATH)!.brotliOf;
  const afterSignIn = (row: (typeof rows)[number]) =>
    row.html[1]! + [...row.brotliOf].reduce((sum, [file, bytes]) => sum + (signInFiles.has(file) ? 0 : bytes), 0);
  const ms = (value: number) => `${Math.round(value)} ms`;
  const budgetVerdict = (row: (typeof rows)[number]) => {
    if (row.page.target) return total(row, 1) <= BUDGET ? "tenu" : "**dépassé**";
    return row.page.path === SIGN_IN_PATH ? "pour information" : `pour information ; après ${SIGN_IN_PATH} : ${kb(afterSignIn(row))}`;
  };
  const report = [
    `Mesuré le ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench:size\`, octets reçus du serveur de production`,
    "par un premier visiteur (HTML compressé à la volée, brotli 4 / gzip 6 ; fichiers de `/assets` précompressés, brotli 11 / gzip 9).",
    "1 KB = 1 000 octets.",
    "",
    `| page | fichiers | HTML br / gzip | CSS br / gzip | JS br / gzip | total brotli | total gzip | brut | budget ${kb(BUDGET)} (brotli) |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.page.label} | ${row.files + 1} | ${kb(row.html[1]!)} / ${kb(row.html[2]!)} | ${kb(row.css[1]!)} / ${kb(row.css[2]!)} | ${kb(row.js[1]!)} / ${kb(row.js[2]!)} | ${kb(total(row, 1))} | ${kb(total(row, 2))} | ${kb(total(row, 0))} | ${budgetVerdict(row)} |`,
    ),
    "",
    `La connexion et les pages connectées gardent React ([décision 0024](decisions/0024-public-pages-without-react.md)) : pas de budget,`,
    `chiffres pour information. « Après ${SIGN_IN_PATH} » : ce qu'un apprenant qui vient de se connecter télécharge encore (la page et les`,
    `fichiers que ${SIGN_IN_PATH} n'a pas déjà apportés).`,
    ...(audits.length
      ? [
          "",
          `Lighthouse ${lighthouseVersion()}, mobile (téléphone moyen, 4G lente et processeur ralenti 4× simulés), performance seule, Chromium`,
          `de la machine (\`${chromiumPath}\`, sans interface), ${runs} passage(s) par page, la médiane gardée.`,
          "",
          "| page | score (médiane) | scores | blocage total (TBT) | FCP | LCP | Speed Index | CLS | objectif (≥ 95, TBT ≤ 150 ms) |",
          "|---|---:|---|---:|---:|---:|---:|---:|---|",
          ...audits.map(
            ({ page, median, scores }) =>
              `| ${page.label} | ${median.score} | ${scores.join(", ")} | ${ms(median.tbt)} | ${ms(median.fcp)} | ${ms(median.lcp)} | ${ms(median.si)} | ${median.cls.toFixed(3)} | ${!page.target ? "pour information" : median.score >= TARGET.score && median.tbt <= TARGET.tbt ? "atteint" : "**manqué**"} |`,
          ),
        ]
      : []),
  ].join("\n");
  console.log(`\n${report}\n`);
  if (process.env.BENCH_NO_DOC === "1") return;
  writeDocSection("size", report);
  console.log("Résultats écrits dans docs/performance.md.");
}

function lighthouseVersion() {
  const file = path.join(import.meta.dirname, "../node_modules/lighthouse/package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
