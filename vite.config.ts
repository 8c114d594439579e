import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Client chunks: React, React DOM and React Router load on every page, so they travel as one file
 * instead of four; the small modules shared by the public pages (components/public, the few ui
 * helpers and lib files they use) as one file instead of a dozen. Fewer requests, and brotli
 * compresses one larger file better than many tiny ones. See docs/decisions/0010-client-chunks.md.
 */
const clientChunks = {
  groups: [
    { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/, priority: 2 },
    {
      name: "public",
      test: /app[\\/](components[\\/]public[\\/]|components[\\/]ui[\\/](button|control)\.tsx?|lib[\\/](format|seo)\.ts)/,
      priority: 1,
    },
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
  external: ["@electric-sql/pglite", "@node-rs/argon2", "sharp", "pg", "express", "nodemailer", "pdfkit"],
};

export default defineConfig(({ command }) => ({
  environments: {
    // The server bundle's entry is our Express app, which imports React Router's server build.
    ssr: {
      build: { rollupOptions: { input: "./app/.server/http/app.ts" } },
      resolve: command === "build" ? bundledServerDependencies : {},
    },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  plugins: [tailwindcss(), reactRouter()],
}));
