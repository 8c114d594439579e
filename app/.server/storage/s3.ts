import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AwsV4Signer } from "aws4fetch";
import { assertSafeKey, storageNotFound, type ByteRange, type FileStorage } from "./storage";

export interface S3Options {
  /** e.g. https://s3.fr-par.scw.cloud or http://127.0.0.1:9000 (path-style addressing). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where a stream of unknown length is spooled to learn its length (S3 PUT needs it). */
  tempDir: string;
}

/**
 * An S3-compatible bucket through signed plain HTTP requests (aws4fetch signs; fetch sends).
 * Path-style URLs (endpoint/bucket/key), which every S3-compatible server accepts. Payloads are
 * sent UNSIGNED-PAYLOAD so a 2 GB video is streamed, not hashed in memory first.
 */
export function createS3Storage(options: S3Options): FileStorage {
  const endpoint = options.endpoint.replace(/\/+$/, "");

  async function send(method: string, key: string, init: { headers?: Record<string, string>; body?: Readable | Buffer } = {}) {
    assertSafeKey(key);
    const signer = new AwsV4Signer({
      method,
      url: `${endpoint}/${options.bucket}/${key}`,
      headers: { ...init.headers, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
      service: "s3",
    });
    const signed = await signer.sign();
    const body =
      init.body === undefined ? undefined : Buffer.isBuffer(init.body) ? init.body : (Readable.toWeb(init.body) as ReadableStream);
    return fetch(signed.url, { method, headers: signed.headers, body, duplex: "half" } as RequestInit);
  }

  async function failure(response: Response, what: string): Promise<never> {
    const text = await response.text().catch(() => "");
    throw new Error(`S3 ${what} : HTTP ${response.status} ${text.slice(0, 300)}`);
  }

  async function stat(key: string) {
    const response = await send("HEAD", key);
    if (response.status === 404) return null;
    if (!response.ok) return failure(response, `HEAD ${key}`);
    const modified = response.headers.get("last-modified");
    return { size: Number(response.headers.get("content-length") ?? 0), modifiedAt: modified ? new Date(modified) : new Date() };
  }

  return {
    kind: "s3",
    async put(key, body, contentType) {
      let spooled: string | undefined;
      try {
        let payload: Readable | Buffer = body;
        let length: number;
        if (Buffer.isBuffer(body)) {
          length = body.length;
        } else {
          await fs.mkdir(options.tempDir, { recursive: true });
          spooled = path.join(options.tempDir, `s3-${randomBytes(12).toString("hex")}`);
          await pipeline(body, createWriteStream(spooled, { flags: "wx" }));
          length = (await fs.stat(spooled)).size;
          payload = createReadStream(spooled);
        }
        const response = await send("PUT", key, {
          headers: { "content-type": contentType, "content-length": String(length) },
          body: payload,
        });
        if (!response.ok) return failure(response, `PUT ${key}`);
        await response.body?.cancel();
        return { size: length, modifiedAt: new Date() };
      } finally {
        if (spooled) await fs.rm(spooled, { force: true });
      }
    },
    async get(key, range?: ByteRange) {
      const response = await send("GET", key, range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {});
      if (response.status === 404) {
        // An unread body holds its pooled connection until garbage collection.
        await response.body?.cancel();
        throw storageNotFound(key);
      }
      if (!response.ok || !response.body) return failure(response, `GET ${key}`);
      const contentRange = response.headers.get("content-range");
      const total = contentRange?.match(/\/(\d+)$/)?.[1];
      const size = Number(total ?? response.headers.get("content-length") ?? 0);
      const stream = Readable.fromWeb(response.body as WebReadableStream);
      if (!range) return { stream, size };
      // HTTP lets a server ignore a Range (200, whole body) or serve a wider one: keep exactly
      // the bytes asked for, since the caller has already announced their count.
      const served = response.status === 206 ? contentRange?.match(/^bytes (\d+)-(\d+)\//) : null;
      const servedStart = served ? Number(served[1]) : 0;
      const servedEnd = served ? Number(served[2]) : size - 1;
      const end = Math.min(range.end, size - 1);
      if ((response.status === 206 && !served) || servedStart > range.start || servedEnd < end) {
        stream.destroy();
        throw new Error(`S3 GET ${key} : plage ${contentRange ?? "absente"} au lieu de ${range.start}-${range.end}`);
      }
      if (servedStart === range.start && servedEnd === end) return { stream, size };
      return { stream: slice(stream, range.start - servedStart, end - range.start + 1), size };
    },
    stat,
    async delete(key) {
      const response = await send("DELETE", key);
      if (!response.ok && response.status !== 404) return failure(response, `DELETE ${key}`);
      await response.body?.cancel();
    },
  };
}

/** `length` bytes of `source` after its first `skip` ones; the rest of `source` is not read. */
function slice(source: Readable, skip: number, length: number): Readable {
  return Readable.from(
    (async function* () {
      let toSkip = skip;
      let left = length;
      for await (const chunk of source as AsyncIterable<Buffer>) {
        const start = Math.min(toSkip, chunk.length);
        toSkip -= start;
        const part = chunk.subarray(start, start + left);
        left -= part.length;
        if (part.length > 0) yield part;
        // Leaving the loop destroys `source`, which cancels the download.
        if (left === 0) return;
      }
    })(),
    { objectMode: false },
  );
}
