/**
 * "Gérer Contenus" (/teacher/content), browser-safe: the kinds of content, their French names and
 * the list's filters as URL parameters (?cours=, ?type=).
 */
import type { UploadPurpose } from "./uploads";

export const contentKinds = ["videos", "documents", "images", "quiz"] as const;
export type ContentKind = (typeof contentKinds)[number];

/** The stored files behind each kind (quizzes are not files). */
export const purposeOfKind: Record<Exclude<ContentKind, "quiz">, UploadPurpose> = {
  videos: "lesson_video",
  documents: "lesson_attachment",
  images: "thumbnail",
};

export const contentKindLabels: Record<ContentKind, string> = {
  videos: "Vidéos",
  documents: "Documents",
  images: "Images de couverture",
  quiz: "Quiz et exercices",
};

export const purposeLabels: Record<UploadPurpose, string> = {
  lesson_video: "Vidéo",
  lesson_attachment: "Document",
  thumbnail: "Image de couverture",
};

export type ContentFilters = { course: number | null; kind: ContentKind | null };

/** The filters from the URL; anything unknown is ignored (the whole list). */
export function parseContentFilters(params: URLSearchParams): ContentFilters {
  const course = params.get("cours") ?? "";
  const kind = params.get("type") ?? "";
  return {
    course: /^\d{1,9}$/.test(course) && Number(course) > 0 ? Number(course) : null,
    kind: (contentKinds as readonly string[]).includes(kind) ? (kind as ContentKind) : null,
  };
}

/** Where a file goes when it is attached: one lesson, or a course's cover. Posted as "lecon:12" or "couverture:3". */
export type ContentTarget = { kind: "lesson"; lessonId: number } | { kind: "cover"; courseId: number };

export function contentTargetValue(target: ContentTarget): string {
  return target.kind === "lesson" ? `lecon:${target.lessonId}` : `couverture:${target.courseId}`;
}

export function parseContentTarget(value: unknown): ContentTarget | null {
  const match = typeof value === "string" ? /^(lecon|couverture):(\d{1,9})$/.exec(value) : null;
  if (!match) return null;
  const id = Number(match[2]);
  return match[1] === "lecon" ? { kind: "lesson", lessonId: id } : { kind: "cover", courseId: id };
}

export const FILE_NAME_MAX = 200;
