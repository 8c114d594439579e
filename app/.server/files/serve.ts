import { Readable } from "node:stream";
import parseRange from "range-parser";
import type { FileStorage } from "../storage";
import { StorageNotFoundError } from "../storage";
import type { StoredFile } from "./ingest";

/** Unknown, or not for this visitor: both answer 404, so a file id tells nothing. */
export class FileNotFoundError extends Error {
  readonly status = 404;
  constructor() {
    super("Fichier introuvable.");
    this.name = "FileNotFoundError";
  }
}

export interface ReadableFile {
  file: StoredFile;
  /** Public files may sit in shared caches (a CDN); lesson files stay in the learner's browser only. */
  visibility: "public" | "private";
}

/** Types a browser shows itself; anything else is offered as a download. */
const INLINE_TYPES = /^(image\/(jpeg|png|webp)|video\/(mp4|webm)|audio\/(mpeg|mp4)|application\/pdf|text\/(plain|csv))$/;

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const ascii = fileName.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The HTTP answer for a readable file (or one of a thumbnail's widths): its bytes streamed from
 * storage, with Range (206, so videos seek and resume), conditional requests (an id never changes
 * content, so its ETag is its storage key) and cache headers by visibility.
 */
export async function fileResponse(storage: FileStorage, request: Request, readable: ReadableFile, options: { width?: number } = {}): Promise<Response> {
  const { file, visibility } = readable;
  const variant = options.width ? file.variants[String(options.width)] : undefined;
  if (options.width && !variant) throw new FileNotFoundError();
  const key = variant ?? file.storageKey;
  const info = await storage.stat(key);
  if (!info) throw new FileNotFoundError();

  const etag = `"${key.replace(/[^A-Za-z0-9_.-]/g, "-")}"`;
  const text = file.contentType.startsWith("text/");
  const headers = new Headers({
    "Content-Type": text ? `${file.contentType}; charset=utf-8` : file.contentType,
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": info.modifiedAt.toUTCString(),
    "Cache-Control": visibility === "public" ? "public, max-age=31536000, immutable" : "private, max-age=86400",
    // Only checked types are stored (never HTML or SVG), and the site's CSP applies to them too.
    "Content-Disposition": contentDisposition(INLINE_TYPES.test(file.contentType) ? "inline" : "attachment", file.originalName),
  });

  if (request.headers.get("if-none-match")?.split(/\s*,\s*/).includes(etag)) return new Response(null, { status: 304, headers });

  let range: { start: number; end: number } | undefined;
  const rangeHeader = request.headers.get("range");
  const ifRange = request.headers.get("if-range");
  if (rangeHeader && (!ifRange || ifRange === etag)) {
    const parsed = parseRange(info.size, rangeHeader, { combine: true });
    if (parsed === -1) {
      headers.set("Content-Range", `bytes */${info.size}`);
      return new Response(null, { status: 416, headers });
    }
    // Several ranges at once (rare, multipart answers): the whole file instead.
    if (parsed !== -2 && parsed.type === "bytes" && parsed.length === 1) range = parsed[0];
  }

  if (request.method === "HEAD") {
    headers.set("Content-Length", String(info.size));
    return new Response(null, { status: 200, headers });
  }
  try {
    const { stream } = await storage.get(key, range);
    const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
    if (!range) {
      headers.set("Content-Length", String(info.size));
      return new Response(body, { status: 200, headers });
    }
    headers.set("Content-Length", String(range.end - range.start + 1));
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    return new Response(body, { status: 206, headers });
  } catch (error) {
    if (error instanceof StorageNotFoundError) throw new FileNotFoundError();
    throw error;
  }
}
