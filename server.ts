/**
 * Entry point, run by Node itself (it strips the types). `node server.ts` serves the production
 * build; `node server.ts --dev` serves the app through Vite with hot reload. NODE_ENV is the operator's statement, not the build's: unset (a
 * trial on a laptop) it means development (generated secrets, demo accounts); a deployment sets
 * NODE_ENV=production (secrets required, React's fast server build). See
 * docs/decisions/0004-npm-start-builds-then-serves.md.
 * Stops cleanly on SIGTERM/SIGINT: no new connections, requests in flight finish, then the
 * database closes and the process exits 0. A bad configuration, a data folder held by another
 * process or a busy port stop the start with a French message and exit code 1.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";

const dev = process.argv.includes("--dev");
if (dev) process.env.NODE_ENV ??= "development";
const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const SHUTDOWN_GRACE_MS = 10_000;

type CampusModule = typeof import("./app/.server/http/app");

/** The app module: from the build, or compiled on the fly by Vite in development. */
async function loadCampusModule(): Promise<{ module: CampusModule; vite?: import("vite").ViteDevServer }> {
  if (!dev) {
    const entry = path.join(buildDir, "server/index.js");
    if (!fs.existsSync(entry)) {
      throw new StartError(`Pas de build dans ${buildDir} : lancez d'abord \`npm run build\` (ou \`npm start\`, qui le fait).`);
    }
    return { module: (await import(pathToFileURL(entry).href)) as CampusModule };
  }
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true } });
  try {
    return { module: (await vite.ssrLoadModule("./app/.server/http/app.ts")) as CampusModule, vite };
  } catch (error) {
    await vite.close();
    throw error;
  }
}

/** An error whose message is all the operator needs (no stack trace). */
class StartError extends Error {}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;

/**
 * Hashed assets never change: compress each once, at the strongest level (brotli 11 is ~13%
 * smaller than the on-the-fly level 4 for the JavaScript), keep it in memory, and serve it with a
 * one-year immutable cache. Other requests fall through to express.static and `compression()`.
 * See docs/decisions/0006-compression.md.
 */
function precompressedAssets(dir: string) {
  const cache = new Map<string, Promise<Buffer>>();
  const compressed = (file: string, encoding: "br" | "gzip") => {
    const key = `${encoding}:${file}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = fs.promises.readFile(file).then((data) =>
        encoding === "br"
          ? brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            })
          : gzip(data, { level: 9 }),
      );
      entry.catch(() => cache.delete(key));
      cache.set(key, entry);
    }
    return entry;
  };

  const middleware: express.RequestHandler = async (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !/^\/[\w.-]+$/.test(req.path) || !COMPRESSIBLE.test(req.path)) {
      return next();
    }
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) ? "br" : /\bgzip\b/.test(accepted) ? "gzip" : undefined;
    const file = path.join(dir, req.path);
    if (!encoding || !fs.existsSync(file)) return next();
    try {
      const body = await compressed(file, encoding);
      res.type(path.extname(file));
      res.set({
        "Content-Encoding": encoding,
        "Content-Length": String(body.length),
        "Cache-Control": "public, max-age=31536000, immutable",
        Vary: "Accept-Encoding",
      });
      res.status(200).end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      next(error);
    }
  };

  /** Compresses every asset in the background, so the first visitors do not wait for it. */
  const warm = async () => {
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (!COMPRESSIBLE.test(name)) continue;
      for (const encoding of ["br", "gzip"] as const) await compressed(path.join(dir, name), encoding).catch(() => {});
    }
  };
  return { middleware, warm };
}

async function main() {
  const { module, vite } = await loadCampusModule();
  let campus: Awaited<ReturnType<CampusModule["createCampusApp"]>> | undefined;
  try {
    // Configuration first (a bad variable stops here), then the port (a busy one stops before the
    // database is opened), then the database: meanwhile the server answers 503.
    const env = module.loadEnv();
    const log = (message: string) => {
      if (env.LOG_LEVEL === "info") console.log(message);
    };
    if (!dev && env.NODE_ENV !== "production") {
      log(
        `NODE_ENV=${env.NODE_ENV} : mode essai (secrets générés dans DATA_DIR, rendu React non optimisé). ` +
          "Pour un déploiement, lancez avec NODE_ENV=production (voir docs/deployment.md).",
      );
    }

    const app = express();
    app.disable("x-powered-by");
    // The app's security headers (CSP...) are set in app/.server/http/app.ts; static files get this one.
    app.use((_req, res, next) => {
      res.setHeader("X-Content-Type-Options", "nosniff");
      next();
    });
    let assets: ReturnType<typeof precompressedAssets> | undefined;
    if (vite) {
      app.use(compression());
      app.use(vite.middlewares);
    } else {
      const assetsDir = path.join(buildDir, "client/assets");
      assets = precompressedAssets(assetsDir);
      app.use("/assets", assets.middleware);
      app.use(compression());
      // Hashed file names change with their content: cache them for a year.
      app.use("/assets", express.static(assetsDir, { immutable: true, maxAge: "1y" }));
      // A missing asset (an old page asking for a previous build's file) is a plain 404, not a page.
      app.use("/assets", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
      // The few other files of build/client (favicon...), known at start: no disk lookup for pages.
      const clientDir = path.join(buildDir, "client");
      const rootFiles = new Set(fs.readdirSync(clientDir).filter((name) => fs.statSync(path.join(clientDir, name)).isFile()).map((name) => `/${name}`));
      const rootStatic = express.static(clientDir, { maxAge: "1h", index: false });
      app.use((req, res, next) => (rootFiles.has(req.path) ? rootStatic(req, res, next) : next()));
    }
    let handler: express.RequestHandler = (_req, res) => {
      res.status(503).set({ "Retry-After": "5", "Cache-Control": "no-store" }).type("text/plain; charset=utf-8");
      res.send("Campus démarre : réessayez dans un instant.");
    };
    app.use((req, res, next) => handler(req, res, next));

    const server = http.createServer(app);
    server.keepAliveTimeout = 65_000;
    let stopping = false;

    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(env.PORT, env.HOST, () => {
        server.off("error", reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") {
        throw new StartError(`Le port ${env.PORT} est déjà utilisé (HOST=${env.HOST}) : arrêtez l'autre serveur ou choisissez un autre PORT.`);
      }
      if (error.code === "EACCES") {
        throw new StartError(`Pas le droit d'écouter sur le port ${env.PORT} : choisissez un PORT au-dessus de 1024.`);
      }
      throw error;
    });

    try {
      campus = await module.createCampusApp({ env });
    } catch (error) {
      server.close();
      server.closeAllConnections();
      throw error;
    }
    handler = campus.handler;
    log(`Campus écoute sur ${env.PUBLIC_URL} (port ${env.PORT}, base ${campus.database.kind}${dev ? ", mode développement" : ""}).`);
    void assets?.warm();
    const ready = campus;

    // While stopping, every response (in flight or arriving on a kept-alive connection) says
    // "Connection: close", so clients do not reuse a connection that is about to end.
    const inFlight = new Set<http.ServerResponse>();
    server.on("request", (_req, res: http.ServerResponse) => {
      if (stopping) res.setHeader("Connection", "close");
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
    });

    const stop = (signal: string) => {
      if (stopping) {
        log(`${signal} reçu une seconde fois : arrêt immédiat.`);
        process.exit(1);
      }
      stopping = true;
      log(`${signal} reçu : fin des ${inFlight.size} requête(s) en cours, puis arrêt.`);
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      const forced = setTimeout(() => {
        log(`Requêtes encore en cours après ${SHUTDOWN_GRACE_MS / 1000} s : connexions fermées.`);
        server.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      forced.unref();
      server.close(async () => {
        let code = 0;
        try {
          await vite?.close();
          await ready.close();
        } catch (error) {
          console.error(error);
          code = 1;
        }
        log("Arrêté.");
        process.exit(code);
      });
      server.closeIdleConnections();
    };
    process.on("SIGTERM", () => stop("SIGTERM"));
    process.on("SIGINT", () => stop("SIGINT"));
  } catch (error) {
    await campus?.close().catch(() => {});
    await vite?.close();
    throw error;
  }
}

main().catch((error: unknown) => {
  const known = error instanceof StartError || ["EnvError", "DataDirLockedError"].includes((error as Error)?.name);
  if (known) console.error((error as Error).message);
  else console.error("Campus n'a pas pu démarrer :", error);
  process.exit(1);
});
