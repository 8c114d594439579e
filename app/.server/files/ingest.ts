import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { fileTypeFromFile } from "file-type";
import { acceptedLabel, acceptedTypes, thumbnailWidths, tooLargeMessage, type UploadPurpose } from "~/lib/uploads";
import type { Database } from "../db/client";
import { files } from "../db/schema";
import { AppError } from "../errors";
import type { FileStorage } from "../storage";
import { requestTranscode } from "./transcode";

export type StoredFile = typeof files.$inferSelect;

export type UploadLimits = Record<UploadPurpose, number>;

/** The configured limits (megabytes in the environment) in bytes. */
export function uploadLimits(env: {
  UPLOAD_MAX_IMAGE_MB: number;
  UPLOAD_MAX_ATTACHMENT_MB: number;
  UPLOAD_MAX_VIDEO_MB: number;
}): UploadLimits {
  const mb = 1024 * 1024;
  return {
    thumbnail: env.UPLOAD_MAX_IMAGE_MB * mb,
    lesson_attachment: env.UPLOAD_MAX_ATTACHMENT_MB * mb,
    lesson_video: env.UPLOAD_MAX_VIDEO_MB * mb,
  };
}

/** Aliases browsers know better under another name. */
const canonicalType: Record<string, string> = { "video/x-m4v": "video/mp4", "audio/x-m4a": "audio/mp4" };

/** Text files have no signature: accept them when they are valid UTF-8 without control bytes. */
async function looksLikeText(filePath: string): Promise<boolean> {
  const handle = await fs.open(filePath, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // A multi-byte character cut at the end of the sample is not an error.
    const sample = buffer.subarray(0, bytesRead);
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    } catch {
      return false;
    }
    return !sample.some((byte) => byte === 0 || (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d));
  } finally {
    await handle.close();
  }
}

/**
 * The file's real type, from its bytes, if this purpose accepts it; an AppError "unsupported"
 * (415) otherwise. What the browser declared only decides between text types, which have no signature.
 */
export async function detectAcceptedType(filePath: string, purpose: UploadPurpose, declaredType: string | null): Promise<string> {
  const accepted = acceptedTypes[purpose];
  const detected = (await fileTypeFromFile(filePath))?.mime;
  if (detected && detected in accepted) return canonicalType[detected] ?? detected;
  if (!detected && purpose === "lesson_attachment" && (await looksLikeText(filePath))) {
    return declaredType === "text/csv" ? "text/csv" : "text/plain";
  }
  throw AppError.unsupported(`Ce fichier n'est pas ${acceptedLabel[purpose]} : son contenu ne correspond pas à ce qui est attendu.`);
}

/** "Cours 1 – intro.PDF" stays readable but harmless in a header and a file system. */
export function cleanFileName(name: string | null | undefined): string {
  const cleaned = (name ?? "")
    .normalize("NFC")
    // Control characters and path separators have no place in a file name.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]/g, "")
    .trim()
    .slice(-200);
  return cleaned || "fichier";
}

const MAX_IMAGE_PIXELS = 50_000_000;

const DAMAGED_IMAGE =
  "Cette image est endommagée ou n'est pas une vraie image (fichier tronqué, ou autre chose derrière l'en-tête d'image) : enregistrez-la de nouveau en JPEG, PNG ou WebP, puis réessayez.";

/**
 * The width of an image decoded to its last pixel, or an AppError "unsupported" (415): a
 * truncated file or a polyglot (an image header followed by HTML or script) passes the type
 * check on its first bytes, but does not decode. Sharp fails on libvips' warnings too.
 */
async function decodableImageWidth(filePath: string): Promise<number> {
  // Loaded on the first image (decision 0012): libvips weighs some 20 MB a process would carry idle.
  const { default: sharp } = await import("sharp");
  try {
    const image = sharp(filePath, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "warning" });
    const { width } = await image.metadata();
    // stats() reads every pixel: a broken stream fails here rather than on the first resize.
    await image.stats();
    if (width) return width;
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw AppError.invalid({}, "Cette image est trop grande (50 mégapixels au plus).");
    }
  }
  throw AppError.unsupported(DAMAGED_IMAGE);
}

/**
 * A thumbnail as WebP at 320, 640 and 1280 pixels wide (never enlarged: a small image gives fewer
 * widths), metadata stripped, orientation applied. Returns width → storage key.
 */
async function storeThumbnailVariants(
  storage: FileStorage,
  id: string,
  filePath: string,
  written: string[],
): Promise<Record<string, string>> {
  const width = await decodableImageWidth(filePath);
  const { default: sharp } = await import("sharp");
  const widths = thumbnailWidths.filter((target, index) => index === 0 || target <= width * 1.25);
  const variants: Record<string, string> = {};
  for (const target of widths) {
    const buffer = await sharp(filePath, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ width: target, height: target * 2, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer();
    const key = `thumbnails/${id}-${target}.webp`;
    written.push(key);
    await storage.put(key, buffer, "image/webp");
    variants[String(target)] = key;
  }
  return variants;
}

export interface IngestInput {
  /** The upload's id, which becomes the file's id (a client that lost the final answer still knows it). */
  id: string;
  purpose: UploadPurpose;
  /** Where the complete upload sits on local disk. */
  filePath: string;
  originalName: string | null;
  declaredType: string | null;
  uploadedBy: string;
}

/**
 * Turns a complete upload into a stored file: checks its size and real type, stores its bytes
 * (thumbnails resized to WebP), then records the row, unattached until a course form claims it.
 * Stored bytes are removed again if anything fails, so a refused upload leaves nothing behind.
 */
export async function ingestUpload(
  deps: { db: Database; storage: FileStorage; limits: UploadLimits },
  input: IngestInput,
): Promise<StoredFile> {
  const { db, storage, limits } = deps;
  const { size } = await fs.stat(input.filePath);
  if (size > limits[input.purpose]) throw AppError.tooLarge(tooLargeMessage(input.purpose, limits[input.purpose]));
  if (size === 0) throw AppError.invalid({}, "Ce fichier est vide.");
  const contentType = await detectAcceptedType(input.filePath, input.purpose, input.declaredType);
  const originalName = cleanFileName(input.originalName);

  const written: string[] = [];
  try {
    let storageKey: string;
    let variants: Record<string, string> = {};
    let storedSize = size;
    let storedType = contentType;
    if (input.purpose === "thumbnail") {
      variants = await storeThumbnailVariants(storage, input.id, input.filePath, written);
      // The largest width stands for the image itself.
      storageKey = variants[String(Math.max(...Object.keys(variants).map(Number)))]!;
      storedSize = (await storage.stat(storageKey))?.size ?? 0;
      storedType = "image/webp";
    } else {
      // An image attachment is served as it is: it must be a whole image too.
      if (contentType.startsWith("image/")) await decodableImageWidth(input.filePath);
      const extension = acceptedTypes[input.purpose][contentType] ?? "bin";
      storageKey = `${input.purpose === "lesson_video" ? "videos" : "attachments"}/${input.id}.${extension}`;
      written.push(storageKey);
      await storage.put(storageKey, createReadStream(input.filePath), contentType);
    }
    // A video and the job that makes its low-data versions exist together, or not at all.
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(files)
        .values({
          id: input.id,
          purpose: input.purpose,
          storageKey,
          originalName,
          contentType: storedType,
          size: storedSize,
          variants,
          uploadedBy: input.uploadedBy,
        })
        .returning();
      if (input.purpose === "lesson_video") await requestTranscode(tx, input.id);
      return inserted!;
    });
    return row;
  } catch (error) {
    await Promise.allSettled(written.map((key) => storage.delete(key)));
    throw error;
  }
}
