import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import helmet from "helmet";
import { RouterContextProvider } from "react-router";
import { createCampusAuth, mountAuth, sessionOf } from "../auth/express";
import { authContext, clientIpContext, cspNonceContext, dbContext, envContext, sessionContext } from "../context";
import { canAuthorCourses } from "../courses/access";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { seedDatabase } from "../db/seed";
import { loadEnv, type Env } from "../env";
import { uploadLimits } from "../files/ingest";
import { deleteUnattachedFiles, UNATTACHED_FILE_RETENTION_MS } from "../files/maintenance";
import { createUploadServer } from "../files/uploads";
import { expireAbandonedPayments } from "../payments";
import { createPayments, paymentsContext } from "../payments/setup";
import { createStorage, dataFolder } from "../storage";
import { storageContext } from "../storage/context";
import { createPageCache } from "./page-cache";
import { startPeriodicTask } from "./periodic-task";
import { startRateLimitPruning } from "./rate-limit-pruning";

export interface CampusApp {
  handler: express.Express;
  env: Env;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface CampusAppOptions {
  /** Defaults to `loadEnv()` (process.env). */
  env?: Env;
  /** An already opened database (tests); by default the app opens, migrates and seeds its own. */
  database?: DatabaseHandle;
}

/** server.ts checks the configuration before it listens, then opens the app. */
export { loadEnv };

const HEALTH_TIMEOUT_MS = 3_000;

/** The CSP nonce of this response (set by the first middleware). */
function nonceOf(res: ServerResponse) {
  return (res as express.Response).locals.cspNonce as string;
}

/**
 * Everything behind the HTTP entry: database opened, migrated and seeded, security headers, the
 * health check and the React Router handler. `server.ts` adds compression, static files and
 * the process lifecycle around it (docs/decisions/0003-express-app-in-server-bundle.md).
 */
export async function createCampusApp(options: CampusAppOptions = {}): Promise<CampusApp> {
  const env = options.env ?? loadEnv();
  let database = options.database;
  if (!database) {
    database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      await seedDatabase(database.db);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  const db = database;
  const https = env.PUBLIC_URL.startsWith("https://");

  const app = express();
  app.disable("x-powered-by");

  // First: anonymous visitors' pages, kept a few seconds (docs/decisions/0007-anonymous-page-cache.md).
  // A hit replays the stored headers (security headers included) and skips everything below.
  const pageCache = createPageCache({ ttlSeconds: env.PAGE_CACHE_SECONDS, skip: (path) => path === "/healthz" || path.startsWith("/api/") });
  app.use(pageCache.middleware);
  app.set("trust proxy", env.TRUST_PROXY);

  // One nonce per response: React Router's inline scripts carry it (app/entry.server.tsx), so
  // script-src needs no 'unsafe-inline' (docs/decisions/0005-csp-nonce-and-caching.md).
  app.use((_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          "default-src": ["'self'"],
          "script-src": ["'self'", (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonceOf(res)}'`],
          "script-src-attr": ["'none'"],
          // React's style={{...}} attributes are inline styles; styles cannot run code.
          "style-src": ["'self'", "'unsafe-inline'"],
          "img-src": ["'self'", "data:"],
          "font-src": ["'self'"],
          "connect-src": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": ["'none'"],
          "base-uri": ["'self'"],
          "object-src": ["'none'"],
          "upgrade-insecure-requests": https ? [] : null,
        },
      },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      xFrameOptions: { action: "deny" },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    next();
  });

  app.get("/healthz", async (_req, res) => {
    res.set("Cache-Control", "no-store");
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error("timeout")), HEALTH_TIMEOUT_MS);
        }),
      ]);
      res.json({ status: "ok", database: db.kind });
    } catch {
      res.status(503).json({ status: "error", database: db.kind });
    } finally {
      clearTimeout(timer);
    }
  });

  // Accounts: Better Auth on /api/auth/* (before any body parser) and the request's session.
  const campusAuth = createCampusAuth({ db: db.db, env });
  mountAuth(app, campusAuth);

  // Files: resumable uploads (teachers and admins) on /api/televersements; reading goes through
  // the /fichiers/:id route, which checks who may see each file.
  const storage = createStorage(env);
  const uploads = createUploadServer({
    db: db.db,
    storage,
    limits: uploadLimits(env),
    directory: path.join(dataFolder(env.DATA_DIR), "uploads"),
    mayUpload: canAuthorCourses,
  });
  uploads.mount(app);

  // Payments: CinetPay when configured, the test gateway outside production, cash always.
  const payments = createPayments({ db: db.db, env, secret: campusAuth.settings.secret, mailEnv: campusAuth.mailEnv });

  app.use(
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
      mode: env.NODE_ENV === "production" ? "production" : "development",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(dbContext, db.db);
        context.set(envContext, env);
        context.set(clientIpContext, req.ip ?? "unknown");
        context.set(cspNonceContext, nonceOf(res));
        context.set(authContext, campusAuth.auth);
        context.set(sessionContext, sessionOf(res));
        context.set(storageContext, storage);
        context.set(paymentsContext, payments);
        return context;
      },
    }),
  );

  // rate_limits is pruned at start-up and every hour (unref'd timer, stopped by close()).
  const rateLimitPruning = startRateLimitPruning(db.db, {
    onError: (error) => {
      if (env.LOG_LEVEL !== "silent") console.error("Nettoyage des compteurs de limitation impossible :", error);
    },
  });
  // Hourly housekeeping: abandoned uploads (unfinished, or never claimed by a course form) and
  // payments left pending for 48 hours.
  const housekeeping = startPeriodicTask(
    async () => {
      await uploads.deleteExpired();
      await deleteUnattachedFiles(db.db, storage, new Date(Date.now() - UNATTACHED_FILE_RETENTION_MS));
      await expireAbandonedPayments(db.db);
    },
    {
      intervalMs: 60 * 60 * 1000,
      onError: (error) => {
        if (env.LOG_LEVEL !== "silent") console.error("Tâche de maintenance interrompue :", error);
      },
    },
  );
  // A database given by the caller stays the caller's to close.
  return {
    handler: app,
    env,
    database: db,
    close: async () => {
      await Promise.all([rateLimitPruning.stop(), housekeeping.stop()]);
      if (!options.database) await db.close();
    },
  };
}
