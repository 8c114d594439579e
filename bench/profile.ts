/**
 * `npm run bench:profile`: where the CPU goes on uncached pages. Prepares a fresh database
 * (BENCH_PROFILE_DB: pglite, the default, or postgres on BENCH_PG), starts the production server
 * (one process) under `node --cpu-prof` (a trial instance, for its demo accounts), warms each page
 * up, requests it BENCH_PROFILE_REQUESTS times (default 200, 4 at a time) as its role, stops the
 * server, and prints, for the samples taken during those requests only (not the start nor the
 * stop), the self time per package (from the bundle's `// node_modules/…` region comments) and
 * the heaviest functions; BENCH_PROFILE_KEEP=<dir> keeps each .cpuprofile there. BENCH_PROFILE_PAGES lists `[role:]path` entries (role student, teacher
 * or admin; `lesson` stands for the lesson the demo student resumes). BENCH_SKIP_BUILD=1 reuses
 * the build. The summary guided the work written up in docs/performance.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO, ensureBuild, prepareDatabases, signedInPages, startProductionServer } from "./lib";

const requests = Number(process.env.BENCH_PROFILE_REQUESTS ?? 200);
const targets: { path: string; role?: keyof typeof DEMO }[] = (process.env.BENCH_PROFILE_PAGES ?? "/formations,student:/dashboard")
  .split(",")
  .map((entry) => {
    const [role, page] = entry.includes(":") ? entry.split(":") : [undefined, entry];
    return { path: page!, role: role as keyof typeof DEMO | undefined };
  });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** For each bundled file, the region (package or app folder) each line belongs to. */
function regionsOf(url: string, cache: Map<string, (line: number) => string>) {
  let lookup = cache.get(url);
  if (lookup) return lookup;
  const file = url.startsWith("file://") ? new URL(url).pathname : url;
  let marks: { line: number; name: string }[] = [];
  if (file.includes("/build/server/") && fs.existsSync(file)) {
    fs.readFileSync(file, "utf8")
      .split("\n")
      .forEach((text, line) => {
        const match = /^\/\/ (node_modules\/(@[^/]+\/[^/]+|[^/]+)|app\/(?:\.server\/)?[^/]+)/.exec(text);
        if (match) marks.push({ line, name: match[2] ?? match[1]! });
      });
  }
  marks = marks.sort((a, b) => a.line - b.line);
  lookup = (line: number) => {
    let name = path.basename(file) || "(node)";
    for (const mark of marks) {
      if (mark.line > line) break;
      name = mark.name;
    }
    return name;
  };
  cache.set(url, lookup);
  return lookup;
}

function categorise(node: ProfileNode, regions: Map<string, (line: number) => string>) {
  const { url, functionName, lineNumber } = node.callFrame;
  if (!url) return functionName.startsWith("(") ? functionName : "(node interne)";
  if (url.includes("@electric-sql/pglite") || url.startsWith("wasm://")) return "PGlite (wasm, fs)";
  if (url.startsWith("node:")) return url.replace(/^node:(internal\/)?/, "node:").split("/")[0]!;
  if (url.includes("/node_modules/"))
    return url
      .split("/node_modules/")[1]!
      .split("/")
      .slice(0, url.includes("/node_modules/@") ? 2 : 1)
      .join("/");
  return regionsOf(url, regions)(lineNumber);
}

/**
 * Prints the summary of the samples taken within `window` (microseconds before the profile's end:
 * from `window.from` down to `window.to`), that is while the pages were requested.
 */
function summarise(profileFile: string, pages: number, window: { from: number; to: number }) {
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (time < profile.endTime - window.from || time > profile.endTime - window.to) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const regions = new Map<string, (line: number) => string>();
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)" || node.callFrame.functionName === "(program)") continue;
    const category = categorise(node, regions);
    byCategory.set(category, (byCategory.get(category) ?? 0) + us);
    const name = `${node.callFrame.functionName || "(anonyme)"} [${category}]`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const total = [...byCategory.values()].reduce((a, b) => a + b, 0);
  const line = (label: string, us: number) =>
    `  ${(us / 1000 / pages).toFixed(2).padStart(7)} ms/page ${((us / total) * 100).toFixed(1).padStart(5)} %  ${label}`;
  console.log(`CPU (hors attente) : ${(total / 1000 / pages).toFixed(1)} ms par page, ${pages} pages`);
  console.log("Par paquet :");
  for (const [label, us] of [...byCategory].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(line(label, us));
  console.log("Fonctions les plus lourdes :");
  for (const [label, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(line(label, us));
}

async function main() {
  await ensureBuild();
  const engine = process.env.BENCH_PROFILE_DB === "postgres" ? "postgres" : "pglite";
  const databases = await prepareDatabases([`${engine}-1`]);
  try {
    for (const target of targets) {
      const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-profile-"));
      const server = await startProductionServer({
        dataDir: databases.dataDirs[engine],
        keepDataDir: true,
        nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
        env: {
          CAMPUS_MODE: "trial",
          PAGE_CACHE_SECONDS: "0",
          // Set already, so the server does not replace itself at start (decision 0032): the
          // process it replaced would write a profile of its own, with the same name or an earlier one.
          MALLOC_ARENA_MAX: "2",
          ...(engine === "postgres" ? { DATABASE_URL: databases.postgresUrl! } : {}),
        },
      });
      let loadStart = 0;
      let loadEnd = 0;
      try {
        const { pages, cookies } = await signedInPages(server.origin);
        const page = target.path === "lesson" ? pages.find((candidate) => candidate.path.includes("/lecons/"))!.path : target.path;
        const headers = { cookie: target.role ? cookies[target.role] : "", "accept-encoding": "gzip, deflate, br" };
        const first = await fetch(`${server.origin}${page}`, { headers, redirect: "manual" });
        if (first.status !== 200) throw new Error(`${page}: ${first.status}`);
        const run = async (count: number) => {
          let next = 0;
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              while (next++ < count) await (await fetch(`${server.origin}${page}`, { headers })).arrayBuffer();
            }),
          );
        };
        await run(20);
        loadStart = performance.now();
        await run(requests);
        loadEnd = performance.now();
      } finally {
        await server.stop();
      }
      const stopped = performance.now();
      const file = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
      console.log(`\n== ${engine}, ${target.role ? `${target.role} ` : ""}${target.path}`);
      if (file) summarise(path.join(profileDir, file), requests, { from: (stopped - loadStart) * 1000, to: (stopped - loadEnd) * 1000 });
      if (file && process.env.BENCH_PROFILE_KEEP) {
        const kept = path.join(
          process.env.BENCH_PROFILE_KEEP,
          `${engine}-${target.role ?? "anonyme"}-${target.path.replace(/\W+/g, "_")}.cpuprofile`,
        );
        fs.mkdirSync(process.env.BENCH_PROFILE_KEEP, { recursive: true });
        fs.copyFileSync(path.join(profileDir, file), kept);
        console.log(`Profil gardé : ${kept} (à ouvrir dans les outils de développement de Chromium)`);
      }
      fs.rmSync(profileDir, { recursive: true, force: true });
    }
  } finally {
    await databases.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
