/**
 * `npm run bench:size`: what a first visit to each page costs a phone.
 * - Bytes: the HTML plus the stylesheets and scripts it references (<link rel="stylesheet|
 *   modulepreload">, <script src>), measured on the wire from the production server, once with
 *   `Accept-Encoding: br` and once with gzip; images and the favicon aside. Budgets in brotli:
 *   50 KB for the public pages (issue 10); 40 KB for every page of the learner's space, sign-in
 *   included (messaging, which keeps React, 80 KB), and 15 KB for its next page once the
 *   dashboard is cached (issue 39). Teachers' and admins' pages: for information.
 * - Lighthouse, mobile (its default: a mid-range phone, simulated slow 4G and 4× CPU slowdown),
 *   performance only, in the Chromium the browser tests use (CHROMIUM_PATH, default
 *   /usr/bin/chromium), LIGHTHOUSE_RUNS times per page (default 3), the median run kept.
 *   Targets: score ≥ 95, total blocking time ≤ 150 ms, on the public pages and on `/auth`, the
 *   dashboard, Mes Formations, a lesson, a quiz being taken and certificates, whose first paint
 *   must also come within 300 ms of the public pages' (same run). For information, a 3G profile
 *   on the dashboard, the lesson and the quiz.
 * Prints a table and writes it into docs/performance.md. BENCH_SKIP_BUILD=1 reuses BUILD_DIR;
 * BENCH_NO_DOC=1 prints only.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { COURSE_PATH, ensureBuild, kb, rawGet, signedInPages, startProductionServer, writeDocSection } from "./lib";

/** A page measured: `cookie` for a signed-in one; its kind says which targets hold it (public: issue 10, learner: issue 39). */
interface SizedPage {
  label: string;
  path: string;
  cookie?: string;
  kind: "public" | "learner" | "staff";
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

async function audit(url: string, port: number, cookie?: string, throttling?: typeof SLOW_3G): Promise<Audit> {
  const result = await lighthouse(
    url,
    {
      port,
      logLevel: "error",
      output: "json",
      onlyCategories: ["performance"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    },
    throttling ? { extends: "lighthouse:default", settings: { throttlingMethod: "simulate", throttling } } : undefined,
  );
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

/** The first link in `html` whose address matches `pattern` (its first group). */
function firstLink(html: string, pattern: RegExp, what: string) {
  const found = pattern.exec(html)?.[1];
  if (!found) throw new Error(`aucun lien vers ${what} pour l'étudiant de démonstration`);
  return found.replaceAll("&amp;", "&");
}

/**
 * Every page of the learner's space (issue 39, point 1), found by following the demo student's own
 * links, with a quiz attempt opened for « un quiz en cours ».
 */
async function learnerPages(origin: string, cookie: string): Promise<{ label: string; path: string }[]> {
  const html = async (path: string) => (await fetch(`${origin}${path}`, { headers: { cookie }, redirect: "manual" })).text();
  const courses = await html("/dashboard/formations");
  const lesson = firstLink(courses, /href="(\/dashboard\/formations\/[\w-]+\/lecons\/[^"/?#]+)"/, "une leçon");
  const coursePath = lesson.replace(/\/lecons\/.*$/, "");
  const courseHome = await html(coursePath);
  const quiz = firstLink(courseHome, /href="(\/dashboard\/formations\/[\w-]+\/quiz\/\d+)"/, "un quiz");
  const started = await fetch(`${origin}${quiz}`, { method: "POST", headers: { cookie, Origin: origin }, redirect: "manual" });
  const attempt = started.headers.get("location");
  if (started.status !== 303 || !attempt?.includes("/tentatives/"))
    throw new Error(`${quiz} : pas de tentative ouverte (${started.status})`);
  const payments = await html("/dashboard/paiements");
  const payment = firstLink(payments, /href="(\/dashboard\/paiements\/[\w-]+)"/, "un paiement");
  const forum = await html("/dashboard/forum");
  const thread = firstLink(forum, /href="(\/dashboard\/forum\/\d+)"/, "un sujet du forum");
  return [
    { label: "tableau de bord", path: "/dashboard" },
    { label: "Mes Formations", path: "/dashboard/formations" },
    { label: "accueil d'une formation", path: coursePath },
    { label: "leçon", path: lesson },
    { label: "quiz (sa page)", path: quiz },
    { label: "quiz en cours", path: new URL(attempt, origin).pathname },
    { label: "certificats", path: "/dashboard/certificates" },
    { label: "paiements", path: "/dashboard/paiements" },
    { label: "un paiement et son reçu", path: payment },
    { label: "téléchargements", path: "/dashboard/telechargements" },
    { label: "notifications", path: "/dashboard/notifications" },
    { label: "profil", path: "/dashboard/profile" },
    { label: "sessions en direct", path: "/dashboard/sessions" },
    { label: "recherche", path: "/dashboard/recherche?q=solaire" },
    { label: "forum", path: "/dashboard/forum" },
    { label: "un sujet du forum", path: thread },
    { label: "messagerie (React)", path: "/dashboard/messages" },
  ];
}

const LEARNER = { firstLoad: 40_000, messaging: 80_000, nextPage: 15_000, fcpGap: 300 };
/** Lighthouse's 3G-like profile, for information: 400 kbit/s, 400 ms round trips, CPU slowed 4×. */
const SLOW_3G = { rttMs: 400, throughputKbps: 400, cpuSlowdownMultiplier: 4 };
const LIGHTHOUSE_LEARNER = ["/auth", "tableau de bord", "Mes Formations", "leçon", "quiz en cours", "certificats"];
const SLOW_3G_PAGES = ["tableau de bord", "leçon", "quiz en cours"];

async function main() {
  await ensureBuild();
  const startedAt = new Date();
  // A trial instance, for its demo accounts; it renders as a deployment does.
  const server = await startProductionServer({ env: { CAMPUS_MODE: "trial" } });
  const rows: ({ page: SizedPage } & Awaited<ReturnType<typeof firstLoad>>)[] = [];
  const audits: { page: SizedPage; median: Audit; scores: number[]; slow3g?: boolean }[] = [];
  try {
    const signedIn = await signedInPages(server.origin);
    const learner = await learnerPages(server.origin, signedIn.cookies.student);
    const pages: SizedPage[] = [
      ...["/", "/formations", COURSE_PATH].map((path) => ({ label: path, path, kind: "public" as const, lighthouse: true })),
      { label: SIGN_IN_PATH, path: SIGN_IN_PATH, kind: "learner", lighthouse: true },
      ...learner.map((page) => ({
        ...page,
        cookie: signedIn.cookies.student,
        kind: "learner" as const,
        lighthouse: LIGHTHOUSE_LEARNER.includes(page.label),
      })),
      ...signedIn.pages
        .filter((page) => page.role !== "student")
        .map((page) => ({
          label: page.name,
          path: page.path,
          cookie: signedIn.cookies[page.role!],
          kind: "staff" as const,
          lighthouse: false,
        })),
    ];
    for (const page of pages) rows.push({ page, ...(await firstLoad(server.origin, page)) });
    if (runs > 0) {
      const chromium = await startChromium();
      try {
        const measure = async (page: SizedPage, slow3g = false) => {
          const results: Audit[] = [];
          for (let run = 0; run < runs; run++)
            results.push(await audit(`${server.origin}${page.path}`, chromium.port, page.cookie, slow3g ? SLOW_3G : undefined));
          const sorted = [...results].sort((a, b) => a.score - b.score || b.tbt - a.tbt);
          audits.push({ page, median: sorted[Math.floor((sorted.length - 1) / 2)]!, scores: results.map((entry) => entry.score), slow3g });
          console.log(`  Lighthouse ${page.label}${slow3g ? " (3G)" : ""} : ${results.map((entry) => entry.score).join(", ")}`);
        };
        for (const page of pages.filter((entry) => entry.lighthouse)) await measure(page);
        for (const page of pages.filter((entry) => SLOW_3G_PAGES.includes(entry.label))) await measure(page, true);
      } finally {
        await chromium.stop();
      }
    }
  } finally {
    await server.stop();
  }

  const total = (row: (typeof rows)[number], index: number) => row.html[index]! + row.css[index]! + row.js[index]!;
  // The next page of the learner's space: its HTML and the files the dashboard did not bring.
  const dashboardFiles = rows.find((row) => row.page.path === "/dashboard")!.brotliOf;
  const nextPage = (row: (typeof rows)[number]) =>
    row.html[1]! + [...row.brotliOf].reduce((sum, [file, bytes]) => sum + (dashboardFiles.has(file) ? 0 : bytes), 0);
  const ms = (value: number) => `${Math.round(value)} ms`;
  const held = (ok: boolean) => (ok ? "tenu" : "**dépassé**");
  const budgetVerdict = (row: (typeof rows)[number]) => {
    if (row.page.kind === "public") return held(total(row, 1) <= BUDGET);
    if (row.page.kind === "staff") return "pour information (React)";
    const limit = row.page.path === "/dashboard/messages" ? LEARNER.messaging : LEARNER.firstLoad;
    const first = `${kb(total(row, 1))} ≤ ${kb(limit)} : ${held(total(row, 1) <= limit)}`;
    return row.page.path.startsWith("/dashboard") && row.page.path !== "/dashboard"
      ? `${first} ; page suivante ${kb(nextPage(row))} ≤ ${kb(LEARNER.nextPage)} : ${held(nextPage(row) <= LEARNER.nextPage)}`
      : first;
  };
  const publicFcp = Math.max(...audits.filter((entry) => entry.page.kind === "public" && !entry.slow3g).map((entry) => entry.median.fcp));
  const auditVerdict = ({ page, median, slow3g }: (typeof audits)[number]) => {
    if (slow3g) return "pour information (3G)";
    const lighthouseHeld = median.score >= TARGET.score && median.tbt <= TARGET.tbt;
    if (page.kind === "public") return lighthouseHeld ? "atteint" : "**manqué**";
    const fcpHeld = median.fcp <= publicFcp + LEARNER.fcpGap;
    return `${lighthouseHeld ? "atteint" : "**manqué**"} ; FCP ≤ ${ms(publicFcp + LEARNER.fcpGap)} : ${fcpHeld ? "atteint" : "**manqué**"}`;
  };
  const report = [
    `Mesuré le ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench:size\`, octets reçus du serveur de production`,
    "par un premier visiteur (HTML compressé à la volée, brotli 4 / gzip 6 ; fichiers de `/assets` précompressés, brotli 11 / gzip 9).",
    "1 KB = 1 000 octets. Pages publiques : au plus 50 KB en brotli (issue 10). Espace de l'apprenant (connexion comprise, issue 39) :",
    `au plus ${kb(LEARNER.firstLoad)} au premier chargement (la messagerie, qui garde React : ${kb(LEARNER.messaging)}), et au plus ${kb(LEARNER.nextPage)} pour une page`,
    "suivante de l'espace une fois le tableau de bord en cache (son HTML et les fichiers que le tableau de bord n'a pas apportés).",
    "Espaces enseignant et administrateur (React) : pour information.",
    "",
    "| page | fichiers | HTML br / gzip | CSS br / gzip | JS br / gzip | total brotli | total gzip | brut | objectif (brotli) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.page.label} | ${row.files + 1} | ${kb(row.html[1]!)} / ${kb(row.html[2]!)} | ${kb(row.css[1]!)} / ${kb(row.css[2]!)} | ${kb(row.js[1]!)} / ${kb(row.js[2]!)} | ${kb(total(row, 1))} | ${kb(total(row, 2))} | ${kb(total(row, 0))} | ${budgetVerdict(row)} |`,
    ),
    ...(audits.length
      ? [
          "",
          `Lighthouse ${lighthouseVersion()}, mobile (téléphone moyen, 4G lente et processeur ralenti 4× simulés), performance seule, Chromium`,
          `de la machine (\`${chromiumPath}\`, sans interface), ${runs} passage(s) par page, la médiane gardée. Objectifs : score ≥ 95 et TBT ≤ 150 ms ;`,
          `pour l'espace de l'apprenant, en plus, un FCP à moins de ${LEARNER.fcpGap} ms de celui des pages publiques mesuré dans le même passage.`,
          `Pour information, un profil 3G (${SLOW_3G.throughputKbps} kbit/s, ${SLOW_3G.rttMs} ms d'aller-retour, processeur ralenti ${SLOW_3G.cpuSlowdownMultiplier}×).`,
          "",
          "| page | profil | score (médiane) | scores | blocage total (TBT) | FCP | LCP | Speed Index | CLS | objectif |",
          "|---|---|---:|---|---:|---:|---:|---:|---:|---|",
          ...audits.map(
            (entry) =>
              `| ${entry.page.label} | ${entry.slow3g ? "3G" : "4G lente"} | ${entry.median.score} | ${entry.scores.join(", ")} | ${ms(entry.median.tbt)} | ${ms(entry.median.fcp)} | ${ms(entry.median.lcp)} | ${ms(entry.median.si)} | ${entry.median.cls.toFixed(3)} | ${auditVerdict(entry)} |`,
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
