import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { pageEncoding } from "./whole-page-compression";
import type express from "express";

/**
 * A short-lived cache of what anonymous visitors get (docs/decisions/0007-anonymous-page-cache.md).
 *
 * Rendering a public page costs tens of milliseconds of CPU (React, the queries, compression);
 * the catalogue changes a few times a day. A GET without any cookie is answered from memory when
 * the same URL was rendered less than `ttlSeconds` ago: only what an anonymous visitor would see
 * is stored, so nobody's personal page is ever served to someone else.
 *
 * Stored: 200 responses of GET requests without a Cookie header, that set no cookie and whose
 * Cache-Control has no "no-store" (a page that varies per anonymous visitor must send no-store).
 * The stored body is compressed once (brotli 6, gzip 6). The CSP of a replayed page allows its
 * inline scripts by their SHA-256 hashes instead of the one-time nonce of the first render.
 */
export interface PageCacheOptions {
  ttlSeconds: number;
  maxEntries?: number;
  /** Bodies above this size are not stored. */
  maxBodyBytes?: number;
  /** Paths never cached (the health check, APIs). */
  skip?: (path: string) => boolean;
}

interface Entry {
  expires: number;
  status: number;
  headers: [string, string | string[]][];
  csp: string | undefined;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** An expired page may still be served for this long while one request renders its successor. */
const STALE_GRACE_MS = 60_000;

const SKIPPED_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "content-security-policy",
  "connection",
  "date",
  "keep-alive",
  "transfer-encoding",
  "vary",
  // Each response has its own (set before the cache answers).
  "x-request-id",
]);

/** 'sha256-…' sources for every inline script of an HTML page (JSON data blocks aside). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1]!;
    if (/\bsrc\s*=/i.test(attributes) || /type\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(match[2]!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

export function createPageCache(options: PageCacheOptions) {
  const ttlMs = options.ttlSeconds * 1000;
  const maxEntries = options.maxEntries ?? 500;
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 2 ** 20;
  const entries = new Map<string, Entry>();
  /** URLs being rendered now, and the entry each render will store (undefined if it cannot). */
  const rendering = new Map<string, Promise<Entry | undefined>>();
  let hits = 0;
  let misses = 0;

  function replay(req: express.Request, res: express.Response, entry: Entry) {
    hits++;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (entry.csp) res.setHeader("Content-Security-Policy", entry.csp);
    const encoding = pageEncoding(req.headers["accept-encoding"]);
    const body = entry[encoding];
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Content-Length", String(body.length));
    res.status(entry.status).end(req.method === "HEAD" ? undefined : body);
  }

  function store(key: string, res: express.Response, chunks: Buffer[]) {
    const identity = Buffer.concat(chunks);
    if (identity.length > maxBodyBytes) return;
    const headers = Object.entries(res.getHeaders())
      .filter(([name, value]) => value !== undefined && !SKIPPED_HEADERS.has(name.toLowerCase()))
      .map(([name, value]) => [name, Array.isArray(value) ? value : String(value)] as [string, string | string[]]);
    let csp = res.getHeader("Content-Security-Policy") as string | undefined;
    if (csp && String(res.getHeader("Content-Type") ?? "").startsWith("text/html")) {
      const hashes = inlineScriptHashes(identity.toString("utf8"));
      // No inline script (a page without React): its scripts come from 'self' only.
      csp = csp.replace(/ ?'nonce-[^']*'/g, hashes.length ? ` ${hashes.join(" ")}` : "");
    } else if (csp) {
      csp = csp.replace(/'nonce-[^']*'/g, "").replace(/ +;/g, ";");
    }
    if (!entries.has(key) && entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, {
      expires: Date.now() + ttlMs,
      status: res.statusCode,
      headers,
      csp,
      identity,
      // Compressed once per entry: brotli 6 is ~8% smaller than the on-the-fly level 4 for ~2x
      // its few milliseconds; 9 and above cost 10-40x more for little.
      br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } }),
      gzip: zlib.gzipSync(identity, { level: 6 }),
    });
  }

  const middleware: express.RequestHandler = (req, res, next) => {
    if (
      ttlMs <= 0 ||
      (req.method !== "GET" && req.method !== "HEAD") ||
      req.headers.cookie ||
      req.headers.authorization ||
      options.skip?.(req.path)
    ) {
      return next();
    }
    const key = req.originalUrl;
    const entry = entries.get(key);
    const now = Date.now();
    if (entry && (entry.expires > now || (rendering.has(key) && entry.expires + STALE_GRACE_MS > now))) {
      // Fresh, or being re-rendered by another request right now: serve what we have.
      // Most recently used last: the first key is the one to evict.
      entries.delete(key);
      entries.set(key, entry);
      return replay(req, res, entry);
    }
    const inProgress = rendering.get(key);
    if (!entry && inProgress) {
      // The first render of this URL is under way: wait for it rather than render it 50 times.
      void inProgress.then((stored) => (stored ? replay(req, res, stored) : next()));
      return;
    }
    // An expired entry stays while this request renders its successor (others get it meanwhile).
    misses++;
    if (req.method === "HEAD") return next();
    let settle: (stored: Entry | undefined) => void = () => {};
    rendering.set(
      key,
      new Promise<Entry | undefined>((resolve) => {
        settle = resolve;
      }),
    );
    const done = (stored: Entry | undefined) => {
      if (!rendering.has(key)) return;
      rendering.delete(key);
      settle(stored);
    };
    res.once("close", () => done(entries.get(key)));

    // Render as usual, keeping a copy of what is sent.
    const chunks: Buffer[] = [];
    let size = 0;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === "function" || size > maxBodyBytes) return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      chunks.push(buffer);
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const cacheControl = String(res.getHeader("Cache-Control") ?? "");
      if (res.statusCode === 200 && !res.getHeader("Set-Cookie") && !/no-store/i.test(cacheControl) && size <= maxBodyBytes) {
        try {
          store(key, res, chunks);
        } catch {
          // a page that cannot be stored is simply rendered again next time
        }
        done(entries.get(key));
      }
      return end(chunk, ...rest);
    }) as typeof res.end;
    next();
  };

  return {
    middleware,
    stats: () => ({ entries: entries.size, hits, misses }),
    clear: () => entries.clear(),
  };
}
