import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build, defineConfig, transformWithOxc, type Plugin } from "vite";

/**
 * Client chunks: React, React DOM and React Router load on every page that hydrates, so they travel
 * as one file instead of four; the signed-in area's shell (components/shell and everything it
 * imports: bell, toasts, tooltips, realtime, offline sync, the small ui and lib modules) as one file
 * instead of fifteen, which the sign-in page brings ahead of the first signed-in page. Fewer
 * requests, and brotli compresses one larger file better than many tiny ones. See
 * docs/decisions/0010-client-chunks.md and 0037-signed-in-shell-chunk.md.
 */
const clientChunks = {
  groups: [
    { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 2 },
    { name: "shell", test: /app[\\/]components[\\/]shell[\\/]/, priority: 1 },
  ],
};

/**
 * The production server bundles its dependencies: Node's ESM loader spent ~180 MB of heap loading
 * the thousand small modules of drizzle-orm, Better Auth and the UI kits one by one, and V8 kept
 * that heap. Left outside: the native and WebAssembly packages, which load their own files, and
 * the CommonJS servers, which gain nothing. Development keeps Vite's usual externals. See
 * docs/decisions/0012-server-bundle-and-memory.md.
 */
const bundledServerDependencies = {
  noExternal: true as const,
  // pdfkit reads its font files through its own package imports (#standard-fonts/…).
  // The ffmpeg and ffprobe packages find their binaries beside their own files.
  external: [
    "@ffmpeg-installer/ffmpeg",
    "@ffprobe-installer/ffprobe",
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "sharp",
    "pg",
    "express",
    "nodemailer",
    "pdfkit",
  ],
};

/** Files of public/ the service worker keeps for offline use, revisioned by their content. */
const OFFLINE_PUBLIC_FILES = ["hors-ligne.html", "manifest.webmanifest", "favicon.svg", "icon-192.png"];

/**
 * The service worker (app/sw/service-worker.ts, Workbox's runtime modules) is built once the client
 * bundle is written, with the list of what it precaches: the app shell (stylesheets, the entry,
 * framework and root scripts, the enhancement scripts, hashed) and the offline page with its
 * icon. vite-plugin-pwa does not support React Router's framework mode with server rendering yet;
 * this is its injectManifest step in a few lines. Output: build/client/sw.js. See docs/decisions/0026-offline-and-low-data.md.
 */
function serviceWorker(): Plugin {
  return {
    name: "campus-service-worker",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      // The enhancement scripts of the pages without React (app/enhance/*, `?worker&url`) are
      // emitted as assets, not chunks: all of them, so that a page never seen still needs no script.
      const shell = Object.keys(bundle).filter(
        (file) =>
          file.endsWith(".css") ||
          /^assets\/(entry\.client|framework|root)-[\w-]+\.js$/.test(file) ||
          (bundle[file]!.type === "asset" && file.endsWith(".js")),
      );
      const publicDir = path.resolve(import.meta.dirname, "public");
      const precache = [
        ...shell.map((file) => ({ url: `/${file}`, revision: null })),
        ...OFFLINE_PUBLIC_FILES.map((file) => ({
          url: `/${file}`,
          revision: createHash("sha256")
            .update(fs.readFileSync(path.join(publicDir, file)))
            .digest("hex")
            .slice(0, 16),
        })),
      ];
      await build({
        configFile: false,
        logLevel: "warn",
        publicDir: false,
        define: { __CAMPUS_PRECACHE__: JSON.stringify(precache), "process.env.NODE_ENV": JSON.stringify("production") },
        build: {
          outDir: options.dir,
          emptyOutDir: false,
          copyPublicDir: false,
          lib: {
            entry: path.resolve(import.meta.dirname, "app/sw/service-worker.ts"),
            formats: ["iife"],
            name: "campusServiceWorker",
            fileName: () => "sw.js",
          },
        },
      });
    },
  };
}

/**
 * The production entry: server.ts with its types stripped, written beside the server bundle as
 * build/server/start.js, which `npm run serve` runs. Node can run server.ts itself, but stripping
 * types loads its TypeScript compiler (WebAssembly): ≈ 16 MB more in every process, the primary and
 * each worker. See docs/decisions/0039-built-server-entry.md.
 */
function serverEntry(): Plugin {
  return {
    name: "campus-server-entry",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    async writeBundle(options) {
      const source = path.resolve(import.meta.dirname, "server.ts");
      const { code } = await transformWithOxc(fs.readFileSync(source, "utf8"), source, { lang: "ts" });
      fs.writeFileSync(path.join(options.dir!, "start.js"), `// Built from server.ts (vite.config.ts): edit that file.\n${code}`);
    },
  };
}

export default defineConfig(({ command }) => ({
  environments: {
    // The server bundle's entry is our Express app, which imports React Router's server build.
    ssr: {
      // ASCII output (é as \u00e9), without the JSDoc comments (their « … »): V8 keeps a module's source
      // for its lifetime, one byte a character when all are ASCII, two otherwise (decision 0039).
      build: { rolldownOptions: { input: "./app/.server/http/app.ts", output: { charset: "ascii", comments: { jsdoc: false } } } },
      resolve: command === "build" ? bundledServerDependencies : {},
    },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [tailwindcss(), reactRouter(), serviceWorker(), serverEntry()],
}));
