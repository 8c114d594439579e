/**
 * `npm run bench`: HTTP throughput, latency, errors and peak memory of the production server, in
 * one run, against nginx serving the same bytes precompressed (issue 10's targets):
 * - nginx (all cores) on `/` and `/formations`, byte for byte what the app sent;
 * - the app on four shapes: PGlite and PostgreSQL (a fresh database on BENCH_PG), one process
 *   (WORKERS=1) and every core (WORKERS=auto, decision 0022);
 * - on each: the anonymous cached pages (`/`, `/formations`), an uncached public page
 *   (`/formations` with a cookie), and the signed-in pages (student dashboard, Mes Formations, a
 *   lesson, teacher course list, admin users), each with the session of its role's demo account.
 * Prints the figures and writes them with each target's verdict into docs/performance.md.
 *
 * BENCH_DURATION (seconds per target, default 15), BENCH_WARMUP (default 2), BENCH_CONNECTIONS
 * (default 50), BENCH_ENCODING (Accept-Encoding, default a browser's "gzip, deflate, br"),
 * BENCH_SHAPES (default "pglite-1,pglite-auto,postgres-1,postgres-auto"), BENCH_TARGETS (a
 * comma-separated filter on target names, for a quick try), BENCH_PG (PostgreSQL server),
 * BENCH_PORT and BENCH_NGINX_PORT (default: free ports), BENCH_SKIP_BUILD=1 (reuse the build),
 * BENCH_NO_DOC=1 (print only), BENCH_SERVE_OPTIONS (Node options other than `npm run serve`'s, to compare).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import {
  type BenchPage,
  ensureBuild,
  freePort,
  machine,
  mb,
  prepareDatabases,
  rawGet,
  root,
  sampleCpu,
  sampleRss,
  SHAPE_LABEL,
  SHAPES,
  type Shape,
  shapesFrom,
  signedInPages,
  startShape,
  writeDocSection,
} from "./lib";
import { startNginx, type CapturedPage } from "./nginx";

const duration = Number(process.env.BENCH_DURATION ?? 15);
const warmup = Number(process.env.BENCH_WARMUP ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const encoding = process.env.BENCH_ENCODING ?? "gzip, deflate, br";
const shapes = shapesFrom("BENCH_SHAPES", SHAPES);
const targetFilter = process.env.BENCH_TARGETS?.split(",").map((name) => name.trim().toLowerCase());
const CACHED = ["/", "/formations"];

/** Issue 10's targets. */
const TARGET = {
  rpsPerProcess: { postgres: 200, pglite: 150 },
  p99: 100,
  coresRatio: 1.7,
  nginxShare: 0.25,
  rss: { pglite: 350 * 2 ** 20, postgresPerProcess: 250 * 2 ** 20 },
};

type Group = "cache" | "sans cache" | "connecté";
interface Target extends BenchPage {
  group: Group;
  cookie?: string;
}
interface Row {
  shape: Shape | "nginx";
  group: Group | "nginx";
  name: string;
  path: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  rssSum?: number;
  rssMax?: number;
  distinctSum?: number;
  /** CPU per request (ms) of the server, of this machine's PostgreSQL, of the load client; the machine's idle share. */
  cpu?: { serverMs: number; postgresMs: number; benchMs: number; idleShare: number };
}

const LABEL: Record<Shape | "nginx", string> = { nginx: "nginx (tous les cœurs)", ...SHAPE_LABEL };

async function load(url: string, seconds: number, headers: Record<string, string>, conns = connections) {
  const result = await autocannon({ url, connections: conns, duration: seconds, headers: { "accept-encoding": encoding, ...headers } });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // autocannon counts timeouts among its errors.
    errors: result.errors,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/** Warms a target up, then loads it while sampling the memory of `pid`'s process tree. */
async function measure(origin: string, pid: number, target: { path: string; cookie?: string }) {
  const headers: Record<string, string> = target.cookie ? { cookie: target.cookie } : {};
  if (warmup > 0) await load(`${origin}${target.path}`, warmup, headers, 10);
  const sampler = sampleRss(pid);
  const cpu = sampleCpu(pid);
  const figures = await load(`${origin}${target.path}`, duration, headers);
  const rss = sampler.stop();
  return { ...figures, rssSum: rss.sum, rssMax: rss.perProcess, distinctSum: rss.distinctSum, cpu: cpu.stop(figures.requests) };
}

const wanted = (name: string) => !targetFilter || targetFilter.some((filter) => name.toLowerCase().includes(filter));

async function main() {
  await ensureBuild();
  const startedAt = new Date();
  const load1 = os.loadavg()[0]!;
  const rows: Row[] = [];
  const databases = await prepareDatabases(shapes);
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  try {
    let captured: CapturedPage[] | undefined;
    for (const shape of shapes) {
      const server = await startShape(shape, databases, port);
      try {
        console.log(`\n${LABEL[shape]} : ${duration} s par cible, ${connections} connexions`);
        if (!captured) {
          // The bytes nginx serves: what the app sends an anonymous visitor, in each encoding.
          captured = [];
          for (const page of CACHED) {
            const [identity, br, gzip] = await Promise.all(
              ["identity", "br", "gzip"].map(
                async (coding) => (await rawGet(`${server.origin}${page}`, { "accept-encoding": coding })).body,
              ),
            );
            captured.push({ path: page, identity: identity!, br: br!, gzip: gzip! });
          }
        }
        const { pages, cookies } = await signedInPages(server.origin);
        const targets: Target[] = [
          ...CACHED.map((page) => ({ group: "cache" as const, name: page, path: page })),
          // Any cookie skips the anonymous page cache (decision 0007): a full render.
          { group: "sans cache", name: "/formations avec un cookie", path: "/formations", cookie: "bench=1" },
          ...pages.map((page) => ({ group: "connecté" as const, ...page, cookie: cookies[page.role!] })),
        ];
        for (const target of targets.filter((candidate) => wanted(candidate.name))) {
          const figures = await measure(server.origin, server.child.pid!, target);
          rows.push({ shape, group: target.group, name: target.name, path: target.path, ...figures });
          console.log(`  ${target.name} : ${figures.rps.toFixed(0)} req/s, p99 ${figures.p99} ms, RSS ${mb(figures.rssSum)}`);
        }
      } finally {
        await server.stop();
      }
    }

    if (captured && CACHED.some(wanted)) {
      const nginxPort = Number(process.env.BENCH_NGINX_PORT) || (await freePort());
      const nginx = await startNginx(captured, nginxPort);
      try {
        // nginx must send exactly what the app sent for the same Accept-Encoding.
        for (const page of captured) {
          const served = await rawGet(`${nginx.origin}${page.path}`, { "accept-encoding": encoding });
          const coding = served.headers["content-encoding"] ?? "identity";
          const expected = coding === "br" ? page.br : coding === "gzip" ? page.gzip : page.identity;
          if (!served.body.equals(expected) || (/\bbr\b/.test(encoding) && coding !== "br")) {
            throw new Error(`nginx ${page.path} : pas les octets de l'application (${coding}, ${served.body.length} octets)`);
          }
        }
        console.log(`\nnginx : les mêmes octets, précompressés`);
        for (const page of CACHED.filter(wanted)) {
          const figures = await measure(nginx.origin, nginx.child.pid!, { path: page });
          rows.push({ shape: "nginx", group: "nginx", name: page, path: page, ...figures });
          console.log(`  ${page} : ${figures.rps.toFixed(0)} req/s`);
        }
      } finally {
        await nginx.stop();
      }
    }
  } finally {
    await databases.cleanup();
  }

  const report = [
    `Mesuré le ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench\` : ${machine(load1)}.`,
    `autocannon dans le processus du banc (sur la même machine), ${connections} connexions, ${duration} s par cible après ${warmup} s`,
    `d'échauffement, \`Accept-Encoding: ${encoding}\`. Serveur de production en instance d'essai (\`CAMPUS_MODE=trial\`,`,
    "pour ses comptes de démonstration : même rendu qu'un déploiement), une base neuve par moteur (PGlite dans un dossier",
    "temporaire, PostgreSQL 15 local), chaque forme démarrée à part ; pages connectées avec la session de leur rôle,",
    "ouverte par l'API de connexion. RSS max : somme sur le processus principal et ses processus de travail,",
    "puis le plus gros d'entre eux ; sans doublons : les pages propres de chaque processus, plus une fois les pages",
    "qu'ils partagent (le binaire de Node). CPU par requête : le temps CPU (utilisateur et système) pendant la charge,",
    "divisé par le nombre de requêtes, de tous les fils du serveur (ramasse-miettes et libuv compris), des processus",
    "du serveur PostgreSQL local et du client de charge ; machine inoccupée : la part du temps des deux cœurs restée libre.",
    "",
    ...table(rows),
    "",
    "Objectifs de l'issue 10 :",
    "",
    ...verdicts(rows),
  ].join("\n");
  console.log(`\n${report}\n`);
  fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
  fs.writeFileSync(
    path.join(root, "bench/results", `http-${startedAt.toISOString()}.json`),
    JSON.stringify({ connections, duration, warmup, encoding, shapes, rows }, null, 2),
  );
  if (process.env.BENCH_NO_DOC === "1") return;
  writeDocSection("http", report);
  console.log("Résultats écrits dans docs/performance.md.");
}

function table(rows: Row[]) {
  // In the order measured: cached pages (nginx beside them), the uncached page, signed-in pages.
  const names = [...new Set(rows.map((row) => row.name))];
  const lines = [
    "| page | forme | req/s | p50 (ms) | p99 (ms) | erreurs | non-2xx | requêtes | RSS max (somme) | RSS max (un processus) | sans doublons (somme) | CPU par requête : serveur, PostgreSQL, client (ms) | machine inoccupée |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const name of names) {
    const group = rows.find((row) => row.name === name)!.group;
    const label = group === "cache" || group === "nginx" ? `${name} (anonyme, en cache)` : name;
    for (const row of rows.filter((candidate) => candidate.name === name).sort((a, b) => shapeRank(a.shape) - shapeRank(b.shape))) {
      const page = row.shape === "nginx" ? `${name} (nginx, fichier)` : label;
      lines.push(
        `| ${page} | ${LABEL[row.shape]} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.non2xx} | ${row.requests} | ${row.rssSum ? mb(row.rssSum) : "—"} | ${row.rssMax ? mb(row.rssMax) : "—"} | ${row.distinctSum ? mb(row.distinctSum) : "—"} | ${row.cpu ? `${row.cpu.serverMs.toFixed(2)}, ${row.cpu.postgresMs.toFixed(2)}, ${row.cpu.benchMs.toFixed(2)}` : "—"} | ${row.cpu ? `${(row.cpu.idleShare * 100).toFixed(0)} %` : "—"} |`,
      );
    }
  }
  return lines;
}

const shapeRank = (shape: Row["shape"]) => (shape === "nginx" ? -1 : SHAPES.indexOf(shape));
const verdict = (ok: boolean) => (ok ? "atteint" : "**manqué**");
const list = (items: string[]) => items.join(", ") || "—";

function verdicts(rows: Row[]): string[] {
  const lines: string[] = [];
  const rendered = rows.filter((row) => row.group === "sans cache" || row.group === "connecté");
  const of = (shape: Shape) => rendered.filter((row) => row.shape === shape);

  for (const engine of ["postgres", "pglite"] as const) {
    const measured = of(`${engine}-1`);
    if (!measured.length) continue;
    const floor = TARGET.rpsPerProcess[engine];
    const below = measured.filter((row) => row.rps < floor);
    lines.push(
      `- Pages connectées et page publique sans cache, ${engine === "postgres" ? "PostgreSQL" : "PGlite"}, un processus, ≥ ${floor} req/s : ${verdict(!below.length)} (de ${Math.min(...measured.map((row) => row.rps)).toFixed(0)} à ${Math.max(...measured.map((row) => row.rps)).toFixed(0)} req/s${below.length ? ` ; en dessous : ${list(below.map((row) => `${row.name} ${row.rps.toFixed(0)}`))}` : ""})`,
    );
  }
  if (rendered.length) {
    const slow = rendered.filter((row) => row.p99 > TARGET.p99);
    const worst = [...rendered].sort((a, b) => b.p99 - a.p99)[0]!;
    // Little's law: connections that chain their requests wait, on average, connections / throughput.
    const meanWaits = rendered.map((row) => (connections * 1000) / row.rps);
    const little = `loi de Little : ${connections} connexions qui enchaînent leurs requêtes attendent en moyenne ${connections} / débit, ici de ${Math.min(...meanWaits).toFixed(0)} à ${Math.max(...meanWaits).toFixed(0)} ms ; une moyenne de ${TARGET.p99} ms demande ${((connections * 1000) / TARGET.p99).toFixed(0)} req/s`;
    lines.push(
      `- Les mêmes, p99 ≤ ${TARGET.p99} ms à ${connections} connexions, toutes formes : ${verdict(!slow.length)} (${slow.length} cible(s) au-dessus sur ${rendered.length} ; la plus lente : ${worst.name}, ${LABEL[worst.shape]}, ${worst.p99} ms ; ${little})`,
    );
  }
  const failing = rows.filter((row) => row.errors + row.non2xx > 0);
  lines.push(
    `- Aucune erreur (ni réponse hors 2xx) : ${verdict(!failing.length)}${failing.length ? ` (${list(failing.map((row) => `${row.name}, ${LABEL[row.shape]} : ${row.errors} erreurs, ${row.non2xx} non-2xx`))})` : ""}`,
  );
  for (const engine of ["postgres", "pglite"] as const) {
    const pairs = of(`${engine}-auto`)
      .map((all) => ({ all, one: of(`${engine}-1`).find((row) => row.name === all.name) }))
      .filter((pair) => pair.one);
    if (!pairs.length) continue;
    // What one process left idle is the room the others have, at the same CPU per request (sampleCpu).
    const ratios = pairs.map(({ all, one }) => ({ name: all.name, ratio: all.rps / one!.rps, idle: one!.cpu?.idleShare }));
    const room = (idle: number) =>
      ` (un processus laissait ${(idle * 100).toFixed(0)} % des cœurs libres : ×${(1 / (1 - idle)).toFixed(2)} à CPU égal par requête)`;
    const text = list(ratios.map((entry) => `${entry.name} ×${entry.ratio.toFixed(2)}${entry.idle === undefined ? "" : room(entry.idle)}`));
    lines.push(
      engine === "postgres"
        ? `- Tous les cœurs sur PostgreSQL ≥ ${TARGET.coresRatio}× un processus : ${verdict(ratios.every((entry) => entry.ratio >= TARGET.coresRatio))} (${text})`
        : `- Pour information, tous les cœurs sur PGlite contre un processus : ${text}`,
    );
  }
  const nginx = rows.filter((row) => row.shape === "nginx");
  if (nginx.length) {
    const shares = rows
      .filter((row) => row.group === "cache")
      .map((row) => ({ row, share: row.rps / (nginx.find((reference) => reference.path === row.path)?.rps ?? NaN) }))
      .filter((entry) => Number.isFinite(entry.share));
    const allCores = shares.filter((entry) => entry.row.shape.endsWith("-auto"));
    const held = allCores.length
      ? verdict(allCores.every((entry) => entry.share >= TARGET.nginxShare))
      : "non mesuré (aucune forme sur tous les cœurs)";
    lines.push(
      `- Pages anonymes en cache ≥ ¼ du débit de nginx sur les mêmes octets (tous les cœurs contre nginx sur tous les cœurs) : ${held} (${list(shares.map((entry) => `${entry.row.name}, ${LABEL[entry.row.shape as Shape]} : ${(entry.share * 100).toFixed(0)} %`))})`,
    );
  }
  // The target holds for PGlite's default start, one process (decision 0042); WORKERS=auto's for information.
  for (const shape of ["pglite-1", "pglite-auto"] as const) {
    const measured = rows.filter((row) => row.shape === shape);
    if (!measured.length) continue;
    const peak = Math.max(...measured.map((row) => row.rssSum ?? 0));
    const distinct = Math.max(...measured.map((row) => row.distinctSum ?? 0));
    const figures = `RSS ${mb(peak)} ; sans doublons, pages partagées comptées une fois : ${mb(distinct)}`;
    lines.push(
      shape === "pglite-1"
        ? `- Mémoire sous charge, ${LABEL[shape]} (le démarrage par défaut sur PGlite) ≤ ${mb(TARGET.rss.pglite)} : ${verdict(peak <= TARGET.rss.pglite)} (${figures})`
        : `- Pour information, mémoire sous charge, ${LABEL[shape]} (\`WORKERS=auto\`, somme des processus) : ${figures}`,
    );
  }
  for (const shape of ["postgres-1", "postgres-auto"] as const) {
    const measured = rows.filter((row) => row.shape === shape);
    if (!measured.length) continue;
    const peak = Math.max(...measured.map((row) => row.rssMax ?? 0));
    const sum = Math.max(...measured.map((row) => row.rssSum ?? 0));
    const distinct = Math.max(...measured.map((row) => row.distinctSum ?? 0));
    lines.push(
      `- Mémoire sous charge, ${LABEL[shape]}, ≤ ${mb(TARGET.rss.postgresPerProcess)} par processus : ${verdict(peak <= TARGET.rss.postgresPerProcess)} (${mb(peak)} au plus pour un processus, ${mb(sum)} en tout, ${mb(distinct)} sans doublons)`,
    );
  }
  return lines;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
