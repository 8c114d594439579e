import { formatNumber } from "./format";
/**
 * What each kind of upload accepts, shared by the server (which checks the file's real content)
 * and the browser (the file picker's `accept` and the message shown before sending anything).
 * Browser-safe: no server imports.
 */
export const uploadPurposes = ["thumbnail", "lesson_video", "lesson_attachment"] as const;
export type UploadPurpose = (typeof uploadPurposes)[number];

export function isUploadPurpose(value: unknown): value is UploadPurpose {
  return typeof value === "string" && (uploadPurposes as readonly string[]).includes(value);
}

/** Content types as detected from the bytes, and the extension the stored file gets. */
export const acceptedTypes: Record<UploadPurpose, Readonly<Record<string, string>>> = {
  thumbnail: { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" },
  lesson_video: { "video/mp4": "mp4", "video/x-m4v": "mp4", "video/webm": "webm" },
  lesson_attachment: {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/zip": "zip",
    "image/jpeg": "jpg",
    "image/png": "png",
    "image/webp": "webp",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
    "audio/x-m4a": "m4a",
    "text/plain": "txt",
    "text/csv": "csv",
  },
};

/** The file picker's `accept` attribute. */
export const acceptAttribute: Record<UploadPurpose, string> = {
  thumbnail: "image/jpeg,image/png,image/webp",
  lesson_video: "video/mp4,video/webm,.mp4,.m4v,.webm",
  lesson_attachment: ".pdf,.docx,.xlsx,.pptx,.odt,.ods,.odp,.zip,.jpg,.jpeg,.png,.webp,.mp3,.m4a,.txt,.csv",
};

/** What the French messages call each kind of file. */
export const acceptedLabel: Record<UploadPurpose, string> = {
  thumbnail: "une image JPEG, PNG ou WebP",
  lesson_video: "une vidéo MP4 ou WebM",
  lesson_attachment: "un PDF, un document Office ou OpenDocument, une archive ZIP, une image, un son MP3/M4A ou un texte",
};

/** "2 Go", "50 Mo", "512 Ko": sizes as French speakers write them. */
export function formatFileSize(bytes: number): string {
  const units = ["octets", "Ko", "Mo", "Go"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${formatNumber(rounded, { decimals: 1 })} ${units[unit]}`;
}

/** The message for a file over the limit (the same on both sides). */
export function tooLargeMessage(purpose: UploadPurpose, maxBytes: number): string {
  const what = purpose === "thumbnail" ? "L'image" : purpose === "lesson_video" ? "La vidéo" : "Le fichier";
  return `${what} dépasse la taille maximale de ${formatFileSize(maxBytes)}.`;
}

/** Where a stored file is served; thumbnails also at a width (320, 640 or 1280 pixels). */
export function fileUrl(fileId: string, width?: number): string {
  return `/fichiers/${encodeURIComponent(fileId)}${width ? `?largeur=${width}` : ""}`;
}

export const thumbnailWidths = [320, 640, 1280] as const;

/** A lesson video's low-data versions and poster, as the file route names them in French. */
const videoVersions = { basse: "low", haute: "high", affiche: "poster" } as const;
export type VideoVersion = (typeof videoVersions)[keyof typeof videoVersions];

export function videoVersionOf(param: string): VideoVersion | undefined {
  return Object.hasOwn(videoVersions, param) ? videoVersions[param as keyof typeof videoVersions] : undefined;
}

/** Where a lesson video's version (or its poster) is served. */
export function videoVersionUrl(fileId: string, version: VideoVersion): string {
  const param = Object.entries(videoVersions).find(([, name]) => name === version)![0];
  return `/fichiers/${encodeURIComponent(fileId)}?version=${param}`;
}

/** The TUS endpoint of resumable uploads. */
export const UPLOAD_ENDPOINT = "/api/televersements";

/** A course's cover image as an <img> shows it: the smallest width as `src`, every width in `srcSet`. */
export type ThumbnailImage = { src: string; srcSet: string };

/**
 * From a course row's thumbnail file id and its variants (width → storage key), on the server:
 * pages receive the two attributes, not the logic.
 */
export function thumbnailImage(fileId: string | null, variants: Record<string, string> | null): ThumbnailImage | null {
  if (!fileId || !variants) return null;
  const widths = Object.keys(variants)
    .map(Number)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (!widths.length) return null;
  return { src: fileUrl(fileId, widths[0]), srcSet: widths.map((width) => `${fileUrl(fileId, width)} ${width}w`).join(", ") };
}
