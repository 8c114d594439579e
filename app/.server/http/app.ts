import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import helmet from "helmet";
import { createCampusAuth, mountAuth, sessionOf } from "../auth/express";
import { announceNewLessons, LESSONS_ANNOUNCEMENT_QUEUE, type LessonsAnnouncementJob } from "../courses";
import { canAuthor } from "../courses/policy";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { seedDatabase } from "../db/seed";
import { loadEnv, type Env } from "../env";
import { uploadLimits } from "../files/ingest";
import { deleteUnattachedFiles, UNATTACHED_FILE_RETENTION_MS } from "../files/maintenance";
import { requestMissingTranscodes, transcodeQueue } from "../files/transcode";
import { createUploadServer } from "../files/uploads";
import { checkProcessingPayouts, createFinance } from "../finance";
import { expireAbandonedPayments } from "../payments";
import { createPayments } from "../payments/setup";
import { createStorage, dataFolder } from "../storage";
import { createSessionCache, followSessionChanges } from "../auth/session-cache";
import { attachReferenceCache } from "../cache";
import { forumTopicRules } from "../forum";
import { MESSAGE_NOTICE_QUEUE, messagingTopicRules, sendMessageNotice, type MessageNoticeJob } from "../messaging";
import { contactMailQueue } from "../contact";
import { createJobService, type JobService } from "../jobs";
import { newsletterQueue } from "../newsletter";
import { sendSessionReminder, SESSION_REMINDER_QUEUE, type SessionReminderJob } from "../live-sessions";
import { issueCertificateIfComplete, type Certificates } from "../certificates";
import { COMPLETION_CHECK_QUEUE, type CompletionCheck } from "../learning";
import { CLOSE_ATTEMPT_QUEUE, closeAttemptAtDeadline } from "../quizzes";
import {
  attachUnreadCounts,
  NOTIFICATION_EMAIL_QUEUE,
  pruneNotifications,
  sendNotificationEmail,
  type NotificationEmailJob,
} from "../notifications";
import { createRealtimeServer, sweepPresence, type RealtimeServer } from "../realtime";
import { pruneRateLimits, RATE_LIMIT_RETENTION_MS } from "../rate-limit";
import { startInTurns } from "./admission";
import {
  allowedMethods,
  assignRequestId,
  bodyLimitFor,
  finalErrorHandler,
  limitBodies,
  refuseBadUrls,
  requestIdOf,
  sameOriginWrites,
} from "./edge";
import { createPageCache } from "./page-cache";
import { hardenBuild } from "./route-errors";
import { createRouterContext } from "./router-context";
import { compressWholePages } from "./whole-page-compression";

export interface CampusApp {
  handler: express.Express;
  env: Env;
  database: DatabaseHandle;
  jobs: JobService;
  realtime: RealtimeServer;
  /** For the HTTP server's "upgrade" event: the WebSocket endpoint (app/.server/realtime). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export interface CampusAppOptions {
  /** Defaults to `loadEnv()` (process.env). */
  env?: Env;
  /** An already opened database (tests); by default the app opens, migrates and seeds its own. */
  database?: DatabaseHandle;
  /**
   * A worker among several (server.ts): the primary process opened, migrated and seeded the
   * database, which this process reaches at `databaseUrl` (PostgreSQL, or the primary's PGlite
   * served on a socket).
   */
  worker?: { databaseUrl: string; kind: DatabaseHandle["kind"] };
}

/** server.ts checks the configuration before it listens, then opens the app. */
export { loadEnv };
/** server.ts's primary process shares PGlite with the workers (docs/decisions/0022-every-core.md). */
export { servePglite } from "../db/pglite-server";

/** Opens the database, applies the migrations and the seed: what one process does before the workers start. */
export async function prepareDatabase(env: Env): Promise<DatabaseHandle> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    // A trial gets the demo accounts; tests (NODE_ENV=test) count users, so never there.
    await seedDatabase(database.db, { demoAccounts: env.CAMPUS_MODE === "trial" && env.NODE_ENV !== "test" });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

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
  const db =
    options.database ??
    (options.worker
      ? await openDatabase({ databaseUrl: options.worker.databaseUrl, dataDir: env.DATA_DIR, migrate: false, kind: options.worker.kind })
      : await prepareDatabase(env));
  const https = env.PUBLIC_URL.startsWith("https://");

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  const logError = (message: string, error: unknown) => {
    if (env.LOG_LEVEL !== "silent") console.error(message, error);
  };

  // Every response carries its request id; the server log names it beside any error.
  app.use(assignRequestId);
  // Pages leave compressed whole, in one write; registered before the page cache, which stores
  // what the render wrote (uncompressed) and answers its hits already compressed. On the event
  // loop, unless it also runs the database (PGlite in this process).
  app.use(compressWholePages({ onEventLoop: !db.pglite }));

  // Then: anonymous visitors' pages, kept a few seconds (docs/decisions/0007-anonymous-page-cache.md).
  // A hit replays the stored headers (security headers included) and skips everything below.
  const pageCache = createPageCache({
    ttlSeconds: env.PAGE_CACHE_SECONDS,
    skip: (path) => path === "/healthz" || path.startsWith("/api/"),
  });
  app.use(pageCache.middleware);
  // Reference data kept in memory until its tables change, in this process or another; a change
  // of the catalogue also drops the anonymous pages built from it.
  const reference = await attachReferenceCache(db).catch(async (error: unknown) => {
    if (!options.database) await db.close();
    throw error;
  });
  reference.cache.onInvalidate(() => pageCache.clear());
  // The bell's unread count, kept per user until their notifications change.
  const unread = await attachUnreadCounts(db).catch(async (error: unknown) => {
    await reference.stop();
    if (!options.database) await db.close();
    throw error;
  });

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

  // Limits for every request below (docs/decisions/0020-bounded-requests.md): no NUL byte in the
  // address, GET/HEAD/POST only (tus has its own methods), writes only from this site (payment
  // providers' callbacks prove themselves otherwise), bodies capped while they stream.
  const uploadsPath = (path: string) => path === "/api/televersements" || path.startsWith("/api/televersements/");
  const providerCallback = (path: string) => path.startsWith("/api/paiements/notification/") || path === "/paiement/retour";
  app.use(refuseBadUrls);
  app.use(allowedMethods(["/api/televersements"]));
  app.use(sameOriginWrites({ publicUrl: env.PUBLIC_URL, exempt: providerCallback }));
  app.use(limitBodies({ limitFor: bodyLimitFor, exempt: uploadsPath }));

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

  // Everything below starts in turns, two per turn of the event loop, so that a busy process keeps
  // accepting connections and serves requests in the order they came
  // (docs/decisions/0043-requests-in-turns.md). Cached pages and /healthz answer before the queue.
  app.use(startInTurns({ perTurn: 2 }));

  // Accounts: Better Auth on /api/auth/* (before any body parser) and the request's session.
  // Resolved sessions are kept a few seconds, dropped at once when a session or its user changes.
  const campusAuth = createCampusAuth({ db: db.db, env });
  const sessionCache = createSessionCache({ maxDays: campusAuth.settings.sessionMaxDays });
  const unfollowSessions = await followSessionChanges(db, sessionCache).catch(async (error: unknown) => {
    await Promise.all([reference.stop(), unread.stop()]);
    if (!options.database) await db.close();
    throw error;
  });
  mountAuth(app, campusAuth, { sessionCache });

  // Files: resumable uploads (teachers and admins) on /api/televersements; reading goes through
  // the /fichiers/:id route, which checks who may see each file.
  const storage = createStorage(env);
  const uploads = createUploadServer({
    db: db.db,
    storage,
    limits: uploadLimits(env),
    directory: path.join(dataFolder(env.DATA_DIR), "uploads"),
    mayUpload: canAuthor,
  });
  uploads.mount(app);

  // Payments: CinetPay when configured, the test gateway outside production, cash always.
  const payments = createPayments({ db: db.db, env, secret: campusAuth.settings.secret, mailEnv: campusAuth.mailEnv });
  // Certificates: signed with the institute's key, stored encrypted under the application secret.
  const certificates: Certificates = { publicUrl: env.PUBLIC_URL, secret: campusAuth.settings.secret };
  // Commission payouts: CinetPay's transfer API when configured, its local fake in the sandbox.
  const finance = createFinance(env);
  const services = { db: db.db, env, auth: campusAuth.auth, storage, payments, certificates, finance };

  // Every route's errors answered in one place (./route-errors.ts). Given as a function, the build
  // makes React Router derive its route tree again on every request: outside `npm run dev`
  // (which reloads modules), it is loaded once.
  const loadBuild = async () => hardenBuild(await import("virtual:react-router/server-build"), logError);
  const build = process.env.NODE_ENV === "production" ? await loadBuild() : loadBuild;
  app.use(
    createRequestHandler({
      build,
      // Errors reach no client in any mode: what the error page shows is what ./route-errors.ts gives it.
      mode: "production",
      getLoadContext: (req, res) =>
        createRouterContext(services, {
          clientIp: req.ip ?? "unknown",
          cspNonce: nonceOf(res),
          session: sessionOf(res),
          requestId: requestIdOf(res),
        }),
    }),
  );
  app.use(finalErrorHandler(logError));

  // Realtime: the WebSocket endpoint, fed by every process's events through LISTEN/NOTIFY.
  const realtime = createRealtimeServer({
    database: db,
    auth: campusAuth.auth,
    publicUrl: env.PUBLIC_URL,
    // Who may follow which topic: each capability's rule (user:<id> is its person's own).
    rules: [...forumTopicRules, ...messagingTopicRules],
    onError: (error, what) => {
      if (env.LOG_LEVEL !== "silent") console.error(`Temps réel (${what}) :`, error);
    },
  });

  // Housekeeping, run once per period whichever process gets to it (app/.server/jobs).
  const HOUR = 60 * 60 * 1000;
  const jobs = createJobService({
    database: db,
    schedules: [
      { name: "notifications.prune", everyMs: 24 * HOUR, run: ({ now }) => pruneNotifications(db.db, now()) },
      // Presence left by a process that died.
      { name: "realtime.presence-sweep", everyMs: 60_000, run: ({ now }) => sweepPresence(db.db, now()) },
      {
        name: "rate-limits.prune",
        everyMs: HOUR,
        run: ({ now }) => pruneRateLimits(db.db, new Date(now().getTime() - RATE_LIMIT_RETENTION_MS)),
      },
      // Abandoned uploads: unfinished, or never claimed by a course form.
      {
        name: "files.sweep",
        everyMs: HOUR,
        run: async ({ now }) => {
          await uploads.deleteExpired();
          await deleteUnattachedFiles(db.db, storage, new Date(now().getTime() - UNATTACHED_FILE_RETENTION_MS));
        },
      },
      // Lesson videos without low-data versions (uploaded before transcoding existed, imported).
      { name: "files.transcode-missing", everyMs: HOUR, run: ({ now }) => requestMissingTranscodes(db.db, now()) },
      // Payments left pending for 48 hours.
      { name: "payments.expire", everyMs: HOUR, run: ({ now }) => expireAbandonedPayments(db.db, now()) },
      // Commission payouts a provider has not settled yet.
      { name: "finance.payouts-check", everyMs: 10 * 60_000, run: ({ now }) => checkProcessingPayouts(db.db, finance, now()) },
    ],
    queues: [
      // Low-data versions of an uploaded video (ffmpeg).
      transcodeQueue({ db: db.db, storage }),
      // A timed quiz attempt the learner never sent: closed and graded at its deadline.
      {
        queue: CLOSE_ATTEMPT_QUEUE,
        run: (payload: { attemptId: number }, { now }) => closeAttemptAtDeadline(db.db, payload.attemptId, now()),
      },
      // A lesson done or a quiz passed: the certificate, if the completion rule now holds (once).
      {
        queue: COMPLETION_CHECK_QUEUE,
        run: (payload: CompletionCheck, { now }) => issueCertificateIfComplete(db.db, certificates, payload, now()),
      },
      // New lessons of a published course, told to its learners once, half an hour after the save.
      {
        queue: LESSONS_ANNOUNCEMENT_QUEUE,
        run: (payload: LessonsAnnouncementJob, { now }) => announceNewLessons(db.db, payload, now()),
      },
      // A live session's reminders, 24 h and 1 h before: once, and not if it was cancelled or moved.
      {
        queue: SESSION_REMINDER_QUEUE,
        run: (payload: SessionReminderJob, { now }) => sendSessionReminder(db.db, payload, now()),
      },
      // The contact inbox: the institute told of a new message, an administrator's answer sent.
      contactMailQueue({ db: db.db, mailEnv: campusAuth.mailEnv, publicUrl: env.PUBLIC_URL }),
      // A newsletter, in batches, each subscriber once, with a signed one-click unsubscribe link.
      newsletterQueue({ db: db.db, mailEnv: campusAuth.mailEnv, publicUrl: env.PUBLIC_URL, secret: campusAuth.settings.secret }),
      // A message still unread after the delay its recipient chose: one notice per burst.
      {
        queue: MESSAGE_NOTICE_QUEUE,
        run: (payload: MessageNoticeJob, { now }) => sendMessageNotice(db.db, payload, now()),
      },
      // A notification's e-mail (important kinds, or as the person chose), once.
      {
        queue: NOTIFICATION_EMAIL_QUEUE,
        run: (payload: NotificationEmailJob, { now }) =>
          sendNotificationEmail(db.db, { mailEnv: campusAuth.mailEnv, publicUrl: env.PUBLIC_URL }, payload, now()),
      },
    ],
    onError: (error, what) => {
      if (env.LOG_LEVEL !== "silent") console.error(`Tâche de fond ${what} interrompue :`, error);
    },
  });
  try {
    await jobs.start();
    await realtime.start();
  } catch (error) {
    await jobs.stop();
    await Promise.all([reference.stop(), unread.stop(), unfollowSessions()]);
    if (!options.database) await db.close();
    throw error;
  }
  // A database given by the caller stays the caller's to close.
  return {
    handler: app,
    env,
    database: db,
    jobs,
    realtime,
    upgrade: (request, socket, head) => realtime.handleUpgrade(request, socket, head),
    close: async () => {
      await realtime.close();
      await jobs.stop();
      await Promise.all([reference.stop(), unread.stop(), unfollowSessions()]);
      if (!options.database) await db.close();
    },
  };
}
