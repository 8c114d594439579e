import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Database } from "~/.server/db/client";
import { ingestUpload, uploadLimits, type UploadLimits } from "~/.server/files/ingest";
import type { FileStorage } from "~/.server/storage";
import type { UploadPurpose } from "~/lib/uploads";
import type { TestUser } from "./users";

export const testUploadLimits: UploadLimits = uploadLimits({ UPLOAD_MAX_IMAGE_MB: 1, UPLOAD_MAX_ATTACHMENT_MB: 1, UPLOAD_MAX_VIDEO_MB: 8 });

/** Bytes a purpose accepts: the fixture's WebM video, a one-page PDF, a small PNG. */
export async function sampleBytes(purpose: UploadPurpose): Promise<Buffer> {
  if (purpose === "lesson_video") return fs.readFileSync(path.join(import.meta.dirname, "../fixtures/lesson.webm"));
  if (purpose === "thumbnail") {
    return sharp({ create: { width: 400, height: 225, channels: 3, background: { r: 20, g: 90, b: 160 } } })
      .png()
      .toBuffer();
  }
  return Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
}

export type StoredFileOverrides = { purpose?: UploadPurpose; name?: string; bytes?: Buffer; limits?: UploadLimits };

/**
 * A file uploaded by `uploader` as the upload endpoint stores it (ingestUpload: real type checked,
 * bytes in `storage`, a video's transcoding asked for), not attached to any course yet.
 */
export async function createStoredFile(db: Database, storage: FileStorage, uploader: TestUser, overrides: StoredFileOverrides = {}) {
  const purpose = overrides.purpose ?? "lesson_attachment";
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "campus-upload-"));
  const filePath = path.join(folder, "upload");
  fs.writeFileSync(filePath, overrides.bytes ?? (await sampleBytes(purpose)));
  try {
    return await ingestUpload(
      { db, storage, limits: overrides.limits ?? testUploadLimits },
      {
        id: randomUUID().replaceAll("-", ""),
        purpose,
        filePath,
        originalName:
          overrides.name ?? (purpose === "lesson_video" ? "cours.webm" : purpose === "thumbnail" ? "couverture.png" : "support.pdf"),
        declaredType: null,
        uploadedBy: uploader.id,
      },
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
