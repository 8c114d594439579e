import { Readable } from "node:stream";
import parseRange from "range-parser";
import type { FileStorage } from "../storage";
import { AppError, isAppError } from "../errors";
import type { StoredFile } from "./ingest";

/** Unknown, or not for this visitor: both answer 404, so a file id tells nothing. */
const fileNotFound = () => AppError.notFound("Fichier introuvable.");

export interface ReadableFile {
  file: StoredFile;
  /** Public files may sit in shared caches (a CDN); lesson files stay in the learner's browser only. */
  visibility: "public" | "private";
}

/** Types a browser shows itself; anything else is offered as a download. */
const INLINE_TYPES = /^(image\/(jpeg|png|webp)|video\/(mp4|webm)|audio\/(mpeg|mp4)|application\/pdf|text\/(plain|csv))$/;

/** RFC 6266: an ASCII fallback and the UTF-8 name. */
function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const ascii = fileName
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** What a stored variant is, by its key's extension (thumbnail widths, video versions, posters). */
const VARIANT_TYPES: Record<string, string> = { webp: "image/webp", mp4: "video/mp4", jpg: "image/jpeg" };

/** "cours.webm" → "cours-low.mp4": a version's own name when it is saved. */
function variantFileName(original: string, variant: string, key: string): string {
  const extension = key.slice(key.lastIndexOf(".") + 1);
  const base = original.includes(".") ? original.slice(0, original.lastIndexOf(".")) : original;
  return `${base}-${variant}.${extension}`;
}

/**
 * The HTTP answer for a readable file (or one of its variants: a thumbnail's width, a video's
 * low-data version or poster): its bytes streamed from
 * storage, with Range (206, so videos seek and resume), conditional requests (an id never changes
 * content, so its ETag is its storage key) and cache headers by visibility.
 */
export async function fileResponse(
  storage: FileStorage,
  request: Request,
  readable: ReadableFile,
  options: { variant?: string } = {},
): Promise<Response> {
  const { file, visibility } = readable;
  const variant = options.variant ? file.variants[options.variant] : undefined;
  if (options.variant && !variant) throw fileNotFound();
  const key = variant ?? file.storageKey;
  const contentType = variant ? (VARIANT_TYPES[variant.slice(variant.lastIndexOf(".") + 1)] ?? file.contentType) : file.contentType;
  const fileName =
    variant && file.purpose !== "thumbnail" ? variantFileName(file.originalName, options.variant!, variant) : file.originalName;
  const info = await storage.stat(key);
  if (!info) throw fileNotFound();

  const etag = `"${key.replace(/[^A-Za-z0-9_.-]/g, "-")}"`;
  const text = contentType.startsWith("text/");
  const headers = new Headers({
    "Content-Type": text ? `${contentType}; charset=utf-8` : contentType,
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": info.modifiedAt.toUTCString(),
    "Cache-Control": visibility === "public" ? "public, max-age=31536000, immutable" : "private, max-age=86400",
    // Only checked types are stored (never HTML or SVG), and the site's CSP applies to them too.
    "Content-Disposition": contentDisposition(INLINE_TYPES.test(contentType) ? "inline" : "attachment", fileName),
  });

  if (
    request.headers
      .get("if-none-match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });

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
    if (isAppError(error, "not_found")) throw fileNotFound();
    throw error;
  }
}
