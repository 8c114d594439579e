import { promisify } from "node:util";
import zlib from "node:zlib";
import type express from "express";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The encoding of a page, rendered or replayed from the page cache: brotli whenever the browser
 * takes it (smaller than gzip by ~10 % on our pages), else gzip. Browsers list
 * `gzip, deflate, br, zstd` at equal weight, so the client-order choice of `req.acceptsEncodings`
 * would give them gzip.
 */
export function pageEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
  if (!acceptEncoding) return "identity";
  return /\bbr\b/.test(acceptEncoding) ? "br" : /\bgzip\b/.test(acceptEncoding) ? "gzip" : "identity";
}

/** Pages up to this size may be compressed on the event loop; larger ones go to libuv's pool. */
const EVENT_LOOP_LIMIT = 256 * 1024;

/**
 * Where a page is compressed (docs/decisions/0006-compression.md). On the thread pool, each stream
 * in flight holds its encoder's buffers, which Node reports to V8 as external memory: under load,
 * with PostgreSQL, that brought on a full garbage collection every ten pages and cost 3 to 5 ms of
 * CPU more per catalogue page than compressing on the event loop, at about the cost of writing the
 * page uncompressed. With PGlite in the process, though, the event loop also runs the database and
 * is the one thing in short supply: under the mixed load, compressing there cut the anonymous
 * pages' throughput by more than half and let signed-in requests time out, so there the pool it is.
 */
function compressPage(page: Buffer, encoding: "br" | "gzip", onEventLoop: boolean): Promise<Buffer> {
  const options = encoding === "br" ? { params: brotliPageParams(page.length) } : { level: 6 };
  if (!onEventLoop || page.length > EVENT_LOOP_LIMIT) return encoding === "br" ? brotli(page, options) : gzip(page, options);
  return new Promise((resolve) => resolve(encoding === "br" ? zlib.brotliCompressSync(page, options) : zlib.gzipSync(page, options)));
}

/**
 * Brotli 4 with a window no larger than the page: by default brotli opens a 4 MB window, and hash
 * tables to match, for every response; a window that covers the page compresses it byte for byte
 * as well, in a fraction of the memory.
 */
function brotliPageParams(size: number): Record<number, number> {
  const { BROTLI_PARAM_QUALITY, BROTLI_PARAM_LGWIN, BROTLI_PARAM_SIZE_HINT, BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS } =
    zlib.constants;
  // The window keeps 16 bytes to itself.
  const windowBits = Math.min(BROTLI_MAX_WINDOW_BITS, Math.max(BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 16))));
  return { [BROTLI_PARAM_QUALITY]: 4, [BROTLI_PARAM_LGWIN]: windowBits, [BROTLI_PARAM_SIZE_HINT]: size };
}

/**
 * Rendered pages are compressed whole, once, and sent in one write with their length
 * (docs/decisions/0019-render-path.md). Pages are rendered into one buffer (app/entry.server.tsx),
 * but the generic `compression()` middleware of server.ts is a stream that React Router's adapter
 * flushes after each chunk: a flushed block, a final block and the chunked-encoding trailer were
 * three writes per page, and the compression ran in pieces on the event loop. Here the page is
 * compressed in one call (brotli 4 or gzip 6, as decision 0006 chose for pages) and answered with
 * a Content-Length, which `compression()` then leaves alone (already encoded).
 * Only HTML is held: anything else (files, downloads, event streams) passes through untouched.
 */
export function compressWholePages(options: { onEventLoop: boolean }): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET") return next();
    const encoding = pageEncoding(req.headers["accept-encoding"]);
    if (encoding === "identity") return next();

    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
    let chunks: Buffer[] | undefined;
    const holds = () => {
      if (chunks) return true;
      if (res.headersSent || res.getHeader("Content-Encoding")) return false;
      if (res.statusCode === 204 || res.statusCode === 304) return false;
      if (!/^text\/html\b/i.test(String(res.getHeader("Content-Type") ?? ""))) return false;
      chunks = [];
      return true;
    };
    const bufferOf = (chunk: unknown, encodingName?: unknown): Buffer => {
      if (typeof chunk === "string")
        return Buffer.from(chunk, typeof encodingName === "string" ? (encodingName as BufferEncoding) : "utf8");
      return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    };

    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk == null || !holds()) return write(chunk, ...rest);
      chunks!.push(bufferOf(chunk, rest[0]));
      const callback = rest.find((value) => typeof value === "function") as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof res.write;

    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk === "function") return end(chunk);
      if (!holds()) return end(chunk, ...rest);
      const callback = rest.find((value) => typeof value === "function") as (() => void) | undefined;
      if (chunk != null) chunks!.push(bufferOf(chunk, rest[0]));
      const page = Buffer.concat(chunks!);
      compressPage(page, encoding, options.onEventLoop).then(
        (body) => {
          if (res.destroyed) return;
          res.setHeader("Content-Encoding", encoding);
          res.setHeader("Content-Length", body.length);
          res.vary("Accept-Encoding");
          end(body, callback);
        },
        (error: unknown) => res.destroy(error as Error),
      );
      return res;
    }) as typeof res.end;
    next();
  };
}
