import type { Readable } from "node:stream";
import { AppError } from "../errors";

/** Bytes `start` to `end` included, as HTTP Range counts them. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObjectInfo {
  size: number;
  modifiedAt: Date;
}

/**
 * Where file bytes live: the local disk under DATA_DIR/files, or an S3-compatible bucket. Keys are
 * chosen by the server (app/.server/files), never by a client, and checked anyway by `assertSafeKey`.
 */
export interface FileStorage {
  readonly kind: "disk" | "s3";
  /** Stores `body` under `key` (replacing it); a stream is never held in memory whole. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<StoredObjectInfo>;
  /** The object's bytes (all, or `range`) and its full size; an AppError "not_found" when absent. */
  get(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number }>;
  /** Size and date, or null when absent. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; absent already is fine. */
  delete(key: string): Promise<void>;
}

/** An absent object: "not found", like anything else absent (the key stays in the server's log only). */
export function storageNotFound(key: string): AppError {
  return new AppError("not_found", "Fichier introuvable.", { reason: "storage_missing", cause: new Error(`no object ${key}`) });
}

/** Path-like keys of plain segments (letters, digits, "_", "-", "."), never "." or "..". */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

export function assertSafeKey(key: string): void {
  const segments = key.split("/");
  const safe = key.length <= 512 && segments.every((segment) => SEGMENT.test(segment) && segment !== "." && segment !== "..");
  if (!safe) throw new Error(`Clé de stockage refusée : ${JSON.stringify(key)}`);
}
