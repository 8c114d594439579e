/**
 * Entry point. The build writes it, types stripped, as build/server/start.js, which `npm run serve`
 * runs on the production build (docs/decisions/0039-built-server-entry.md); `node server.ts --dev`
 * serves the app through Vite with hot reload. The build served always runs React's production
 * variant (NODE_ENV=production in this process); whether the instance is a trial (generated
 * secrets, demo accounts) or a deployment is CAMPUS_MODE, which defaults to production when the
 * operator declared NODE_ENV=production, and to trial otherwise. See
 * docs/decisions/0004-npm-start-builds-then-serves.md.
 * With WORKERS above 1 ("auto": one per core, the default on PostgreSQL), a primary process
 * prepares the database and runs that many workers sharing the port; with PGlite (one process by
 * default, docs/decisions/0042-one-process-on-pglite.md), the primary keeps the database and serves
 * it to the workers on a Unix socket (docs/decisions/0022-every-core.md). On Linux, the process first
 * replaces itself with MALLOC_ARENA_MAX=2 (docs/decisions/0032-two-malloc-arenas.md).
 * Stops cleanly on SIGTERM/SIGINT: no new connections, requests in flight finish, then the
 * database closes and the process exits 0. A bad configuration, a data folder held by another
 * process or a busy port stop the start with a French message and exit code 1.
 */
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Duplex } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";

// glibc gives threads that allocate at once (libuv's compressing pages, V8's collecting garbage)
// arenas of their own that keep their peak: 20 to 60 MB per process under load. glibc reads the
// limit only when a process starts, so the process replaces itself once with it set (same pid and
// arguments; workers inherit it). An operator's value is kept; an IPC channel would not survive.
if (process.platform === "linux" && !process.env.MALLOC_ARENA_MAX && !process.send && process.execve) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: "2",
  });
}

const dev = process.argv.includes("--dev");
if (dev) {
  process.env.NODE_ENV ??= "development";
} else {
  // Set before the build is imported: React and React Router pick their variant when loaded.
  if (!process.env.CAMPUS_MODE) process.env.CAMPUS_MODE = process.env.NODE_ENV === "production" ? "production" : "trial";
  process.env.NODE_ENV = "production";
}
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
 * What `compression()` streams (a page's data on a client navigation, JSON, event streams):
 * brotli 4 as its default, with a 256 KB window instead of brotli's 4 MB, held per response.
 */
const streamed = () => compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } } });

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

/**
 * One HTTP server process: the whole app (one process), or one worker among several, whose
 * database the primary prepared (`worker`).
 */
async function serve(
  module: CampusModule,
  vite: import("vite").ViteDevServer | undefined,
  worker?: { databaseUrl: string; kind: "pglite" | "postgres" },
) {
  let campus: Awaited<ReturnType<CampusModule["createCampusApp"]>> | undefined;
  try {
    // Configuration first (a bad variable stops here), then the port (a busy one stops before the
    // database is opened; see listen below), then the database.
    const env = module.loadEnv();
    // A worker stays quiet: the primary speaks for all of them.
    const log = (message: string) => {
      if (env.LOG_LEVEL === "info" && !worker) console.log(message);
    };
    if (!worker) announceMode(env);

    const app = express();
    app.disable("x-powered-by");
    // The app's security headers (CSP...) are set in app/.server/http/app.ts; static files get this one.
    app.use((_req, res, next) => {
      res.setHeader("X-Content-Type-Options", "nosniff");
      next();
    });
    let assets: ReturnType<typeof precompressedAssets> | undefined;
    if (vite) {
      app.use(streamed());
      app.use(vite.middlewares);
    } else {
      const assetsDir = path.join(buildDir, "client/assets");
      assets = precompressedAssets(assetsDir);
      app.use("/assets", assets.middleware);
      app.use(streamed());
      // Hashed file names change with their content: cache them for a year.
      app.use("/assets", express.static(assetsDir, { immutable: true, maxAge: "1y" }));
      // A missing asset (an old page asking for a previous build's file) is a plain 404, not a page.
      app.use("/assets", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
      // The few other files of build/client (favicon...), known at start: no disk lookup for pages.
      const clientDir = path.join(buildDir, "client");
      const rootFiles = new Set(
        fs
          .readdirSync(clientDir)
          .filter((name) => fs.statSync(path.join(clientDir, name)).isFile())
          .map((name) => `/${name}`),
      );
      const rootStatic = express.static(clientDir, {
        maxAge: "1h",
        index: false,
        // The service worker is checked for a new version at every visit (issue 13).
        setHeaders: (res, file) => void (path.basename(file) === "sw.js" && res.setHeader("Cache-Control", "no-cache")),
      });
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
    // WebSocket connections (realtime): refused until the app is ready, and while stopping.
    let upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void = (_req, socket) => {
      socket.on("error", () => {});
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    };
    server.on("upgrade", (req, socket, head) => upgrade(req, socket, head));

    const listen = () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(env.PORT, env.HOST, () => {
          server.off("error", reject);
          resolve();
        });
      }).catch(portRefusal(env));
    // A lone process listens first and answers 503 while its database opens. A worker listens only
    // once ready: its primary checked the port, and a connection given to a worker still starting
    // (at start, or replacing a dead one) would get that 503 while the others serve.
    if (!worker) await listen();
    try {
      campus = await module.createCampusApp({ env, worker });
    } catch (error) {
      server.close();
      server.closeAllConnections();
      throw error;
    }
    handler = campus.handler;
    upgrade = campus.upgrade;
    if (worker) await listen();
    log(`Campus écoute sur ${env.PUBLIC_URL} (port ${env.PORT}, base ${campus.database.kind}${dev ? ", mode développement" : ""}).`);
    process.send?.({ type: "ready" });
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
      // Open WebSockets would keep the server from closing: they are told to reconnect elsewhere.
      const realtimeClosed = ready.realtime.close();
      server.close(async () => {
        let code = 0;
        try {
          await realtimeClosed;
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
    if (worker) {
      // Ctrl-C reaches every process of the terminal: a worker waits for its primary's SIGTERM.
      process.on("SIGINT", () => {});
      // A primary that died leaves no one to stop this worker: stop now.
      process.on("disconnect", () => stop("disconnect"));
    } else {
      process.on("SIGINT", () => stop("SIGINT"));
    }
  } catch (error) {
    await campus?.close().catch(() => {});
    await vite?.close();
    throw error;
  }
}

function announceMode(env: ReturnType<CampusModule["loadEnv"]>) {
  if (env.CAMPUS_MODE === "trial" && env.LOG_LEVEL === "info") {
    console.log(
      "Mode essai : secrets générés dans DATA_DIR, comptes de démonstration, passerelle de paiement de test. " +
        "Pour un déploiement, lancez avec CAMPUS_MODE=production (voir docs/deployment.md).",
    );
  }
}

/**
 * How many server processes: WORKERS ("auto": one per core); unset, one per core on PostgreSQL
 * and one on PGlite, where more processes doubled the memory for the same signed-in throughput
 * (docs/decisions/0042-one-process-on-pglite.md).
 */
function workerCount(env: ReturnType<CampusModule["loadEnv"]>) {
  const workers = env.WORKERS ?? (env.DATABASE_URL ? "auto" : 1);
  return workers === "auto" ? os.availableParallelism() : workers;
}

/** Fails early, with the usual message, when the port is taken (the workers would each fail). */
async function checkPortFree(env: ReturnType<CampusModule["loadEnv"]>) {
  const probe = http.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(env.PORT, env.HOST, () => probe.close(() => resolve()));
  }).catch(portRefusal(env));
}

/** A port that cannot be taken, said in the usual words. */
function portRefusal(env: ReturnType<CampusModule["loadEnv"]>) {
  return (error: NodeJS.ErrnoException): never => {
    if (error.code === "EADDRINUSE") {
      throw new StartError(
        `Le port ${env.PORT} est déjà utilisé (HOST=${env.HOST}) : arrêtez l'autre serveur ou choisissez un autre PORT.`,
      );
    }
    if (error.code === "EACCES") {
      throw new StartError(`Pas le droit d'écouter sur le port ${env.PORT} : choisissez un PORT au-dessus de 1024.`);
    }
    throw error;
  };
}

/** A worker that dies this many times within a minute is not started again: the server stops. */
const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * Several processes (docs/decisions/0022-every-core.md): this primary prepares the database
 * (migrations, seed; with PGlite it keeps it, holding DATA_DIR's lock, and serves it to the
 * workers on a Unix socket), then starts `count` workers that share the HTTP port, restarts one
 * that dies, and on SIGTERM/SIGINT stops them all (each finishes its requests) before closing the
 * database.
 */
async function primary(module: CampusModule, count: number) {
  const env = module.loadEnv();
  const log = (message: string) => {
    if (env.LOG_LEVEL === "info") console.log(message);
  };
  announceMode(env);
  await checkPortFree(env);
  const database = await module.prepareDatabase(env);
  let pgliteServer: Awaited<ReturnType<CampusModule["servePglite"]>> | undefined;
  let socketDir: string | undefined;
  let shared: { databaseUrl: string; kind: "pglite" | "postgres" };
  try {
    if (database.pglite) {
      socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "campus-db-"));
      pgliteServer = await module.servePglite(database.pglite, { socketDir });
      shared = { databaseUrl: pgliteServer.url, kind: "pglite" };
      // This process's event loop runs PGlite: let the workers accept their own connections.
      cluster.schedulingPolicy = cluster.SCHED_NONE;
    } else {
      await database.close();
      shared = { databaseUrl: env.DATABASE_URL!, kind: "postgres" };
    }
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }

  let stopping = false;
  let announced = false;
  const ready = new Set<number>();
  const restarts: number[] = [];
  const fork = () => {
    const created = cluster.fork({ CAMPUS_WORKER_DATABASE_URL: shared.databaseUrl, CAMPUS_WORKER_DATABASE_KIND: shared.kind });
    created.on("message", (message: { type?: string }) => {
      if (message?.type !== "ready") return;
      ready.add(created.id);
      if (!announced && ready.size === count) {
        announced = true;
        log(`Campus écoute sur ${env.PUBLIC_URL} (port ${env.PORT}, base ${shared.kind}, ${count} processus).`);
      }
    });
  };

  const finish = async (code: number) => {
    try {
      await pgliteServer?.close();
      await database.close();
    } catch (error) {
      console.error(error);
      code = 1;
    }
    if (socketDir) fs.rmSync(socketDir, { recursive: true, force: true });
    log("Arrêté.");
    process.exit(code);
  };
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    if (!alive.length) return void finish(code);
    for (const w of alive) w!.process.kill("SIGTERM");
    cluster.on("exit", () => {
      if (Object.values(cluster.workers ?? {}).every((w) => !w || w.isDead())) void finish(code);
    });
  };

  cluster.on("exit", (dead, exitCode, signal) => {
    if (stopping) return;
    const wasReady = ready.delete(dead.id);
    if (!wasReady && !announced) {
      // A worker that cannot start (its message is already printed) will not start again.
      stopAll(1);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      console.error(`Les processus du serveur s'arrêtent sans cesse (${restarts.length} fois en une minute) : arrêt.`);
      stopAll(1);
      return;
    }
    console.error(`Un processus du serveur s'est arrêté (${signal ?? `code ${exitCode}`}) : il est relancé.`);
    fork();
  });

  let signals = 0;
  const onSignal = (signal: string) => {
    if (++signals > 1) {
      log(`${signal} reçu une seconde fois : arrêt immédiat.`);
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
      process.exit(1);
    }
    log(`${signal} reçu : les processus finissent leurs requêtes, puis arrêt.`);
    stopAll(0);
  };
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  process.on("SIGINT", () => onSignal("SIGINT"));

  for (let i = 0; i < count; i++) fork();
}

async function main() {
  const workerDatabaseUrl = process.env.CAMPUS_WORKER_DATABASE_URL;
  if (cluster.isWorker && workerDatabaseUrl) {
    const { module } = await loadCampusModule();
    const kind = process.env.CAMPUS_WORKER_DATABASE_KIND === "pglite" ? "pglite" : "postgres";
    return serve(module, undefined, { databaseUrl: workerDatabaseUrl, kind });
  }
  const { module, vite } = await loadCampusModule();
  const count = dev ? 1 : workerCount(module.loadEnv());
  if (count <= 1) return serve(module, vite);
  return primary(module, count);
}

main().catch((error: unknown) => {
  const known = error instanceof StartError || ["EnvError", "DataDirLockedError"].includes((error as Error)?.name);
  if (known) console.error((error as Error).message);
  else console.error("Campus n'a pas pu démarrer :", error);
  process.exit(1);
});
