/**
 * `npm run bench:size`: what a first visit to `/` and `/formations` downloads — the HTML plus the
 * stylesheets and scripts it references (<link rel="stylesheet|modulepreload">, <script src>) —
 * measured on the wire from the production server, once with `Accept-Encoding: br` and once with
 * gzip. Images and the favicon aside. Target: at most 120 KB (120,000 bytes) compressed.
 * Prints a table and writes it into docs/performance.md. BENCH_SKIP_BUILD=1 reuses BUILD_DIR.
 */
import { ensureBuild, kb, rawGet, startProductionServer, writeDocSection } from "./lib";

const pages = ["/", "/formations"];
const BUDGET = 120_000;

function referencedFiles(html: string) {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    if (!/rel="(stylesheet|modulepreload)"/.test(tag)) continue;
    const href = /href="([^"]+)"/.exec(tag)?.[1];
    if (href?.startsWith("/")) urls.add(href);
  }
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) if (match[1]!.startsWith("/")) urls.add(match[1]!);
  // The module entry is imported by an inline script.
  for (const match of html.matchAll(/import\s*(?:[\w{}\s,*]+from\s*)?["'](\/assets\/[^"']+)["']/g)) urls.add(match[1]!);
  return [...urls];
}

async function main() {
  await ensureBuild();
  const server = await startProductionServer();
  const rows: { page: string; html: number[]; css: number[]; js: number[]; files: number }[] = [];
  try {
    for (const page of pages) {
      const sizes = { html: [0, 0, 0], css: [0, 0, 0], js: [0, 0, 0] };
      // A visitor without cookies: what a first visit gets (possibly from the page cache).
      const plain = await rawGet(`${server.origin}${page}`, { "accept-encoding": "identity" });
      const html = plain.body.toString("utf8");
      const files = referencedFiles(html);
      const encodings = ["identity", "br", "gzip"] as const;
      for (const [index, encoding] of encodings.entries()) {
        const doc = await rawGet(`${server.origin}${page}`, { "accept-encoding": encoding });
        sizes.html[index]! += doc.body.length;
        for (const file of files) {
          const asset = await rawGet(`${server.origin}${file}`, { "accept-encoding": encoding });
          if (asset.status !== 200) throw new Error(`${file}: ${asset.status}`);
          const kind = file.endsWith(".css") ? "css" : "js";
          sizes[kind][index]! += asset.body.length;
        }
      }
      rows.push({ page, ...sizes, files: files.length });
    }
  } finally {
    await server.stop();
  }

  const total = (row: (typeof rows)[number], index: number) => row.html[index]! + row.css[index]! + row.js[index]!;
  const lines = [
    "| page | fichiers | HTML br / gzip | CSS br / gzip | JS br / gzip | total brotli | total gzip | brut | budget 120 KB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (row) =>
        `| ${row.page} | ${row.files + 1} | ${kb(row.html[1]!)} / ${kb(row.html[2]!)} | ${kb(row.css[1]!)} / ${kb(row.css[2]!)} | ${kb(row.js[1]!)} / ${kb(row.js[2]!)} | ${kb(total(row, 1))} | ${kb(total(row, 2))} | ${kb(total(row, 0))} | ${total(row, 2) <= BUDGET ? "tenu (même en gzip)" : total(row, 1) <= BUDGET ? "tenu en brotli seulement" : "**dépassé**"} |`,
    ),
  ];
  const report = [
    `Mesuré le ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC par \`npm run bench:size\`, octets reçus du serveur de production`,
    "(HTML compressé à la volée, brotli 4 / gzip 6 ; fichiers de `/assets` précompressés, brotli 11 / gzip 9). 1 KB = 1 000 octets.",
    "",
    ...lines,
  ].join("\n");
  console.log(`\n${report}\n`);
  writeDocSection("size", report);
  console.log("Résultats écrits dans docs/performance.md.");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
