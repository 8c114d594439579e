import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeKey, storageNotFound, type ByteRange, type FileStorage } from "./storage";

/**
 * Files under `root`. A write goes to a temporary file in `root/.tmp` first and is renamed into
 * place once complete, so a reader never sees half a file and a failed upload leaves nothing.
 */
export function createDiskStorage(root: string): FileStorage {
  const base = path.resolve(root);
  const tempDir = path.join(base, ".tmp");

  function pathOf(key: string) {
    assertSafeKey(key);
    const full = path.resolve(base, key);
    // Belt and braces: the key check already refuses "..", absolute paths and separators.
    if (!full.startsWith(base + path.sep)) throw new Error(`Clé de stockage refusée : ${JSON.stringify(key)}`);
    return full;
  }

  async function stat(key: string) {
    try {
      const info = await fs.stat(pathOf(key));
      return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  return {
    kind: "disk",
    async put(key, body) {
      const target = pathOf(key);
      await fs.mkdir(tempDir, { recursive: true });
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = path.join(tempDir, randomBytes(12).toString("hex"));
      try {
        await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(temp, { flags: "wx" }));
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
      const info = await stat(key);
      if (!info) throw storageNotFound(key);
      return info;
    },
    async get(key, range?: ByteRange) {
      // Size and bytes from one open file: a put or delete racing between a stat and an open
      // would otherwise pair one file's size with another's bytes, or fail mid-stream.
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(key), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw storageNotFound(key);
        throw error;
      }
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw storageNotFound(key);
        const stream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
        return { stream, size: info.size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    stat,
    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
    },
  };
}
