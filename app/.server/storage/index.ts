import os from "node:os";
import path from "node:path";
import type { Env } from "../env";
import { createDiskStorage } from "./disk";
import { createS3Storage } from "./s3";

import type { FileStorage } from "./storage";

export { assertSafeKey, storageNotFound, type ByteRange, type FileStorage, type StoredObjectInfo } from "./storage";

/**
 * DATA_DIR as a folder for files. Tests run with DATA_DIR=memory:// (in-memory database); their
 * files go to a folder of this process under the system's temporary directory.
 */
export function dataFolder(dataDir: string): string {
  if (dataDir.startsWith("memory://")) return path.join(os.tmpdir(), `campus-memory-${process.pid}`);
  return path.resolve(dataDir);
}

/** S3 when S3_BUCKET is set, else the local disk under DATA_DIR/files. */
export function createStorage(
  env: Pick<Env, "DATA_DIR" | "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY">,
): FileStorage {
  if (env.S3_BUCKET) {
    return createS3Storage({
      bucket: env.S3_BUCKET,
      endpoint: env.S3_ENDPOINT ?? `https://s3.${env.S3_REGION}.amazonaws.com`,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID ?? "",
      secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? "",
      tempDir: path.join(dataFolder(env.DATA_DIR), "tmp"),
    });
  }
  return createDiskStorage(path.join(dataFolder(env.DATA_DIR), "files"));
}
