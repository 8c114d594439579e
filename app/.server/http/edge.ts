import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type express from "express";
import { isAppError } from "../errors";

/**
 * What every request meets before any route: an id for the logs, and the limits that hold for
 * all of them (docs/decisions/0020-bounded-requests.md). Each refusal is a 4xx with a short
 * French page (or plain text) carrying the request id; nothing here reads a body into memory.
 */

export const REQUEST_ID_HEADER = "X-Request-Id";

/** Methods the site answers; resumable uploads (tus) have their own, under their own path. */
const ALLOWED_METHODS = ["GET", "HEAD", "POST"];

/** How long a connection refused for its body's size stays open, unread, for the client to read the 413. */
const REFUSED_BODY_LINGER_MS = 1000;

/** Bodies larger than this are refused while they stream (413). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** The course form carries every lesson's text in one post. */
export const COURSE_FORM_BODY_LIMIT_BYTES = 16 * 1024 * 1024;
const COURSE_FORM_PATH = /^\/(?:dashboard\/course-creator(?:\/[^/]+)?|admin\/create-course|teacher\/create-course)(?:\.data)?\/?$/;

/** The body limit of a path: generous only for the course form (file uploads go through tus, which has its own). */
export function bodyLimitFor(path: string): number {
  return COURSE_FORM_PATH.test(path) ? COURSE_FORM_BODY_LIMIT_BYTES : DEFAULT_BODY_LIMIT_BYTES;
}

/** A short id for one request: in the response header, the server log and the error page. */
export function newRequestId(): string {
  return randomBytes(5).toString("hex");
}

export function requestIdOf(res: express.Response): string {
  return (res.locals.requestId as string | undefined) ?? "";
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

const titles: Record<number, string> = {
  400: "Requête invalide",
  403: "Action refusée",
  405: "Méthode non autorisée",
  413: "Envoi trop volumineux",
  415: "Format non pris en charge",
  500: "Une erreur est survenue",
  503: "Service momentanément indisponible",
};

/**
 * Answers a request the edge refuses (or an error no route handled): a tiny self-contained French
 * page for browsers, plain text otherwise; the request id on both, never any detail of the error.
 */
export function sendEdgeError(
  req: express.Request,
  res: express.Response,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) {
    res.end();
    return;
  }
  const requestId = requestIdOf(res);
  const title = titles[status] ?? "Erreur";
  res.status(status).set({ "Cache-Control": "no-store", ...headers });
  const wantsHtml = (req.headers.accept ?? "").includes("text/html");
  if (!wantsHtml || req.method === "HEAD") {
    res.type("text/plain; charset=utf-8").send(req.method === "HEAD" ? undefined : `${title} : ${message}\nRéférence : ${requestId}\n`);
    return;
  }
  res
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;color:#0f172a;margin:0}` +
        `main{max-width:36rem;margin:15vh auto;padding:1.5rem;text-align:center}p.code{font-size:3rem;font-weight:700;color:#1d4ed8;margin:0}` +
        `a{color:#1d4ed8}small{color:#475569}</style></head><body><main><p class="code">${status}</p>` +
        `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><small>Référence de la requête : ${escapeHtml(requestId)}</small></p>` +
        `<p><a href="/">Retour à l'accueil</a></p></main></body></html>`,
    );
}

/** Gives each request its id (response header, `res.locals.requestId`). */
export const assignRequestId: express.RequestHandler = (_req, res, next) => {
  const id = newRequestId();
  res.locals.requestId = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
};

/**
 * An address no route could read is refused (400): a NUL byte (raw or %00: PostgreSQL refuses it
 * in text), or a path whose percent-encoding is broken.
 */
export const refuseBadUrls: express.RequestHandler = (req, res, next) => {
  if (/%00|\0/i.test(req.originalUrl)) return sendEdgeError(req, res, 400, "L'adresse demandée contient un caractère interdit.");
  try {
    decodeURIComponent(req.path);
  } catch {
    return sendEdgeError(req, res, 400, "L'adresse demandée est mal formée.");
  }
  next();
};

/** GET, HEAD and POST only (405 otherwise), but under `exemptPrefixes` (tus speaks PATCH, DELETE, OPTIONS). */
export function allowedMethods(exemptPrefixes: string[]): express.RequestHandler {
  return (req, res, next) => {
    if (ALLOWED_METHODS.includes(req.method) || exemptPrefixes.some((prefix) => req.path.startsWith(prefix))) return next();
    sendEdgeError(req, res, 405, "Cette adresse n'accepte pas cette méthode.", { Allow: ALLOWED_METHODS.join(", ") });
  };
}

/**
 * One Origin check for every request that may change something (anything but GET and HEAD),
 * resource routes and Better Auth included: a browser's request from another site is refused
 * (403). Allowed: the public address's origin, and the origin the request itself was sent to.
 * Without Origin, a browser's `Sec-Fetch-Site: cross-site` is refused too; a client that sends
 * neither is no browser, and carries no victim's cookies. `exemptPaths` are the payment
 * providers' callbacks (server to server, or posted back from the provider's site), which prove
 * themselves by a signature or ask the provider.
 */
export function sameOriginWrites(options: { publicUrl: string; exempt: (path: string) => boolean }): express.RequestHandler {
  const publicOrigin = new URL(options.publicUrl).origin;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || options.exempt(req.path)) return next();
    const origin = req.headers.origin;
    const fetchSite = req.headers["sec-fetch-site"];
    let allowed: boolean;
    if (origin !== undefined) {
      const own = `${req.protocol}://${req.get("host") ?? ""}`;
      allowed = origin === publicOrigin || origin === own;
    } else {
      allowed = fetchSite !== "cross-site" && fetchSite !== "same-site";
    }
    if (allowed) return next();
    sendEdgeError(req, res, 403, "Cette action doit être faite depuis le site lui-même.");
  };
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/**
 * One body-size limit for everything behind it, enforced while the body streams: a declared
 * Content-Length over the limit is refused at once; otherwise (chunked bodies included) the bytes
 * are counted as the socket delivers them, and the first byte over the limit answers 413, drops
 * the rest, and fails whoever is reading the body (an action then sees an error, never a
 * truncated form). Memory stays at most one limit per request.
 */
export function limitBodies(options: { limitFor: (path: string) => number; exempt: (path: string) => boolean }): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || options.exempt(req.path)) return next();
    const limit = options.limitFor(req.path);
    const size = limit >= 1024 * 1024 ? `${Math.round(limit / (1024 * 1024))} Mo` : `${Math.round(limit / 1024)} Ko`;
    const message = `Le contenu envoyé dépasse la taille autorisée (${size}).`;
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) return sendEdgeError(req, res, 413, message, { Connection: "close" });
    capStream(req, limit, () => refuseTooLarge(req, res, message, new BodyTooLargeError(limit)));
    dropUnreadBodyOnceAnswered(req, res);
    next();
  };
}

/**
 * React Router reads a request's body through a stream that pauses it once its queue is full (a
 * few dozen kilobytes). A route that answers without reading the body (a redirect to sign in, a
 * refusal before the form is parsed) left the rest of it on the connection, and the next request
 * on that kept-alive connection (the browser following the redirect) waited behind it until the
 * connection timed out, 65 s later, with a reset. Once the answer is sent, the rest is read and
 * dropped, as Node does for a body nobody started reading; a body refused for its size is left to
 * refuseTooLarge.
 */
function dropUnreadBodyOnceAnswered(req: express.Request, res: express.Response) {
  res.once("finish", () => {
    if (req.complete || req.destroyed || res.getHeader("Connection") === "close") return;
    req.removeAllListeners("data");
    req.resume();
  });
}

/**
 * Answers 413 to a body that grew past the limit, and closes the connection without losing the
 * answer. Node closes a "Connection: close" socket as soon as the answer is sent; while the client
 * is still sending its body, that close resets the connection, and the reset can make the client
 * lose the 413 before reading it. So the socket is only half-closed and no longer read, and goes a
 * moment later, failing whoever still reads the body with `error`.
 */
function refuseTooLarge(req: express.Request, res: express.Response, message: string, error: Error) {
  const socket = req.socket;
  socket.destroySoon = () => void socket.end();
  sendEdgeError(req, res, 413, message, { Connection: "close" });
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    socket.pause();
    setTimeout(() => req.destroy(error), REFUSED_BODY_LINGER_MS).unref();
  };
  if (res.writableFinished) close();
  else res.once("finish", close).once("close", close);
}

/** Counts what the HTTP parser pushes into `req`; past `limit`, drops it and calls `onExceeded` once. */
function capStream(req: IncomingMessage, limit: number, onExceeded: () => void) {
  let received = 0;
  let exceeded = false;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null || chunk === undefined) return exceeded ? false : push(chunk, encoding);
    if (exceeded) return true;
    received += (chunk as Buffer).length;
    if (received <= limit) return push(chunk, encoding);
    exceeded = true;
    onExceeded();
    return true;
  };
}

/**
 * The last Express handler: an error nothing else answered (Better Auth, uploads, the router's
 * own last resort) is logged with the request id and answered 500 without any detail; a service
 * that does not answer ("unavailable", e.g. the session lookup) is a 503 with its French message;
 * a body over the limit is the 413 already sent.
 */
export function finalErrorHandler(log: (message: string, error: unknown) => void): express.ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (error instanceof BodyTooLargeError || res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    if (isAppError(error, "unavailable")) {
      log(`[${requestIdOf(res)}] ${req.method} ${req.originalUrl}`, error);
      return sendEdgeError(req, res, 503, error.message, { "Retry-After": "5" });
    }
    const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) log(`[${requestIdOf(res)}] ${req.method} ${req.originalUrl}`, error);
    sendEdgeError(
      req,
      res,
      status,
      status === 500 ? "Nous n'avons pas pu traiter cette demande. Réessayez dans un instant." : "La demande est invalide.",
    );
  };
}
