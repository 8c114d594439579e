import { promisify } from "node:util";
import zlib from "node:zlib";
import type express from "express";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Rendered pages are compressed whole, once, and sent in one write with their length
 * (docs/decisions/0019-render-path.md). Pages are rendered into one buffer (app/entry.server.tsx),
 * but the generic `compression()` middleware of server.ts is a stream that React Router's adapter
 * flushes after each chunk: a flushed block, a final block and the chunked-encoding trailer were
 * three writes per page, and the compression ran on the event loop. Here the page is compressed
 * in one call on libuv's thread pool (brotli 4 or gzip 6, as decision 0006 chose for pages) and
 * answered with a Content-Length, which `compression()` then leaves alone (already encoded).
 * Only HTML is held: anything else (files, downloads, event streams) passes through untouched.
 */
export function compressWholePages(): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET") return next();
    const encoding = req.acceptsEncodings("br", "gzip", "identity");
    if (encoding !== "br" && encoding !== "gzip") return next();

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
      const compressed =
        encoding === "br" ? brotli(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzip(page, { level: 6 });
      compressed.then(
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
