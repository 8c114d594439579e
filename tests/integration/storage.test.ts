/**
 * The file storage drivers against one contract: the local disk on a temporary folder, and S3
 * through @20minutes/s3rver, an S3-compatible server run in this process that checks SigV4
 * signatures (so our aws4fetch-signed, UNSIGNED-PAYLOAD requests are really verified).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage } from "~/.server/storage/disk";
import { createS3Storage, type S3Options } from "~/.server/storage/s3";
import { assertSafeKey, type FileStorage } from "~/.server/storage/storage";

/** What each driver's suite needs: the storage, and the folder where its temporary files go. */
interface Harness {
  storage: FileStorage;
  tempDir: string;
  close(): Promise<void>;
}

const UNSAFE_KEYS = ["../x", "/abs", "a//b", "", "with space", "a/../b", "./a", ".tmp/x", "a/"];

let keyCounter = 0;
/** A fresh key per test, so the tests of one driver never see each other's objects. */
function newKey(name = "object.bin") {
  keyCounter += 1;
  return `t${keyCounter}-${randomBytes(4).toString("hex")}/${name}`;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Files left in a temporary folder (none when it was never created). */
async function leftovers(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
}

/** Yields `head` then fails, as an upload cut off midway would. */
function failingStream(head: Buffer): Readable {
  return Readable.from(
    (async function* () {
      yield head;
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error("connection lost");
    })(),
  );
}

function storageContract(open: () => Promise<Harness>) {
  let harness: Harness;
  let storage: FileStorage;

  beforeAll(async () => {
    harness = await open();
    storage = harness.storage;
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("stores a Buffer: stat gives its size and date, get gives its bytes", async () => {
    const key = newKey();
    const body = randomBytes(1000);
    const before = Date.now();
    await expect(storage.put(key, body, "application/octet-stream")).resolves.toMatchObject({ size: 1000 });
    const info = await storage.stat(key);
    expect(info?.size).toBe(1000);
    // S3's Last-Modified counts whole seconds.
    expect(info?.modifiedAt).toBeInstanceOf(Date);
    expect(info!.modifiedAt.getTime()).toBeGreaterThanOrEqual(before - 2000);
    expect(info!.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
    const { stream, size } = await storage.get(key);
    expect(size).toBe(1000);
    expect((await readAll(stream)).equals(body)).toBe(true);
  });

  it("stores a Readable stream", async () => {
    const key = newKey("lesson.txt");
    const parts = ["Bonjour ", "et bienvenue ", "à l'ICEF"].map((part) => Buffer.from(part));
    const whole = Buffer.concat(parts);
    await expect(storage.put(key, Readable.from(parts), "text/plain")).resolves.toMatchObject({ size: whole.length });
    expect((await storage.stat(key))?.size).toBe(whole.length);
    const { stream, size } = await storage.get(key);
    expect(size).toBe(whole.length);
    expect((await readAll(stream)).equals(whole)).toBe(true);
  });

  it("gets a byte range, ends included, with the full size", async () => {
    const key = newKey();
    const body = randomBytes(100);
    await storage.put(key, body, "application/octet-stream");
    for (const range of [
      { start: 10, end: 19 },
      { start: 0, end: 0 },
      { start: 99, end: 99 },
      { start: 0, end: 99 },
    ]) {
      const { stream, size } = await storage.get(key, range);
      expect(size).toBe(100);
      expect((await readAll(stream)).equals(body.subarray(range.start, range.end + 1))).toBe(true);
    }
  });

  it("replaces an object put again under the same key", async () => {
    const key = newKey();
    await storage.put(key, Buffer.from("first version, longer"), "text/plain");
    await storage.put(key, Buffer.from("second"), "text/plain");
    expect((await storage.stat(key))?.size).toBe(6);
    expect((await readAll((await storage.get(key)).stream)).toString()).toBe("second");
  });

  it("deletes: stat is then null, get « not found »; deleting again is fine", async () => {
    const key = newKey();
    await storage.put(key, Buffer.from("to delete"), "text/plain");
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
    await expect(storage.get(key)).rejects.toMatchObject({ code: "not_found", reason: "storage_missing" });
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("answers a missing key: stat null, get « not found » (with or without a range), delete fine", async () => {
    const key = newKey("never-stored.bin");
    expect(await storage.stat(key)).toBeNull();
    await expect(storage.get(key)).rejects.toMatchObject({ code: "not_found", reason: "storage_missing" });
    await expect(storage.get(key, { start: 0, end: 9 })).rejects.toMatchObject({ code: "not_found", reason: "storage_missing" });
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it("refuses unsafe keys in every operation", async () => {
    for (const key of UNSAFE_KEYS) {
      await expect(storage.put(key, Buffer.from("x"), "text/plain"), key).rejects.toThrow(/Clé de stockage refusée/);
      await expect(storage.get(key), key).rejects.toThrow(/Clé de stockage refusée/);
      await expect(storage.stat(key), key).rejects.toThrow(/Clé de stockage refusée/);
      await expect(storage.delete(key), key).rejects.toThrow(/Clé de stockage refusée/);
    }
  });

  it("leaves nothing under the key, nor a temporary file, when the stream fails midway", async () => {
    const key = newKey();
    await expect(storage.put(key, failingStream(randomBytes(64 * 1024)), "application/octet-stream")).rejects.toThrow("connection lost");
    expect(await storage.stat(key)).toBeNull();
    await expect(storage.get(key)).rejects.toMatchObject({ code: "not_found", reason: "storage_missing" });
    expect(await leftovers(harness.tempDir)).toEqual([]);
  });

  it("keeps the previous bytes when replacing them fails midway", async () => {
    const key = newKey();
    await storage.put(key, Buffer.from("kept"), "text/plain");
    await expect(storage.put(key, failingStream(randomBytes(1024)), "text/plain")).rejects.toThrow("connection lost");
    expect((await readAll((await storage.get(key)).stream)).toString()).toBe("kept");
    expect(await leftovers(harness.tempDir)).toEqual([]);
  });

  it("round-trips a 5 MB stream, produced and checked piece by piece", async () => {
    const key = newKey("video.mp4");
    const chunkSize = 64 * 1024;
    const chunks = 80; // 5 MiB
    const sent = createHash("sha256");
    // Generated lazily: the test never has the whole payload in memory either.
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < chunks; i += 1) {
          const chunk = randomBytes(chunkSize);
          sent.update(chunk);
          yield chunk;
        }
      })(),
    );
    await expect(storage.put(key, source, "video/mp4")).resolves.toMatchObject({ size: chunks * chunkSize });
    const { stream, size } = await storage.get(key);
    expect(size).toBe(chunks * chunkSize);
    const received = createHash("sha256");
    for await (const chunk of stream) received.update(chunk as Buffer);
    expect(received.digest("hex")).toBe(sent.digest("hex"));
    // A range deep inside the large object.
    const ranged = await storage.get(key, { start: 3 * chunkSize - 10, end: 3 * chunkSize + 9 });
    expect(ranged.size).toBe(chunks * chunkSize);
    expect((await readAll(ranged.stream)).length).toBe(20);
    await storage.delete(key);
    expect(await leftovers(harness.tempDir)).toEqual([]);
  });
}

describe("assertSafeKey", () => {
  it("accepts path-like keys of plain segments", () => {
    for (const key of ["a", "courses/12/video-1.mp4", "files/2025/ab_cd-EF.9.webp"]) expect(() => assertSafeKey(key)).not.toThrow();
  });

  it('refuses "..", absolute paths, empty segments, spaces and dot-led segments', () => {
    for (const key of UNSAFE_KEYS) expect(() => assertSafeKey(key), key).toThrow(/Clé de stockage refusée/);
    expect(() => assertSafeKey("a\\..\\b")).toThrow();
    expect(() => assertSafeKey("x".repeat(513))).toThrow();
  });
});

describe("disk storage", () => {
  storageContract(async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "campus-storage-disk-"));
    return {
      storage: createDiskStorage(root),
      // The driver's own staging folder (disk.ts).
      tempDir: path.join(root, ".tmp"),
      close: () => fs.rm(root, { recursive: true, force: true }),
    };
  });
});

/** The few members of @20minutes/s3rver used here (it ships no types). */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverOptions = {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
};
const S3rver = createRequire(import.meta.url)("@20minutes/s3rver") as new (options: S3rverOptions) => S3rverServer;

// s3rver's built-in account.
const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

describe("S3 storage (s3rver in process)", () => {
  let options: S3Options;

  storageContract(async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "campus-storage-s3-"));
    const server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: path.join(dir, "server"),
      configureBuckets: [{ name: "campus-test" }],
    });
    const { port } = await server.run();
    options = {
      endpoint: `http://127.0.0.1:${port}/`,
      bucket: "campus-test",
      region: "us-east-1",
      ...S3RVER_CREDENTIALS,
      tempDir: path.join(dir, "spool"),
    };
    return {
      storage: createS3Storage(options),
      tempDir: options.tempDir,
      async close() {
        await server.close();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  });

  it("keeps exactly the requested bytes when a server ignores Range (HTTP allows a 200 with the whole body)", async () => {
    const body = randomBytes(300);
    const plain = http.createServer((_request, response) => {
      response.writeHead(200, { "content-length": body.length, "content-type": "application/octet-stream" });
      // In pieces, so the requested window straddles chunks.
      for (let offset = 0; offset < body.length; offset += 64) response.write(body.subarray(offset, offset + 64));
      response.end();
    });
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = plain.address() as AddressInfo;
      const storage = createS3Storage({ ...options, endpoint: `http://127.0.0.1:${port}` });
      for (const range of [
        { start: 60, end: 200 },
        { start: 0, end: 0 },
        { start: 299, end: 299 },
      ]) {
        const { stream, size } = await storage.get("any/key", range);
        expect(size).toBe(300);
        expect((await readAll(stream)).equals(body.subarray(range.start, range.end + 1))).toBe(true);
      }
    } finally {
      plain.closeAllConnections();
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  it("is refused with a wrong secret: the server really checks our signatures", async () => {
    const forged = createS3Storage({ ...options, secretAccessKey: "not-the-secret" });
    await expect(forged.put(newKey(), Buffer.from("x"), "text/plain")).rejects.toThrow(/HTTP 403.*SignatureDoesNotMatch/s);
    await expect(forged.stat(newKey())).rejects.toThrow(/HTTP 403/);
  });
});
