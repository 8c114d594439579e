import type { VideoChoice } from "~/lib/video-quality";
import { OFFLINE_CACHE_PREFIX } from "./names";

/**
 * Lessons stored on the phone for offline use (issue 13), in Cache Storage, where the service
 * worker (app/sw/service-worker.ts) answers from when the network is not there. One cache per
 * learner ("campus-hors-ligne-<user id>"): signing out clears it with every other cache
 * (Clear-Site-Data), and a learner who signs in on the same phone removes anyone else's first.
 * Browser only.
 */
/** Where each download's record (what it stored, how big) is kept, in the same cache. */
const RECORD_PATH = "/hors-ligne/telechargements/";
/** The screen listing the downloads: stored too, so that it opens offline. */
export const DOWNLOADS_PATH = "/dashboard/telechargements";

export function offlineCacheName(userId: string): string {
  return `${OFFLINE_CACHE_PREFIX}${userId}`;
}

/** What the server's download plan says of a lesson (app/.server/learning/offline.ts). */
export type PlanLesson = {
  id: number;
  title: string;
  path: string;
  textBytes: number;
  video: { id: string; options: { choice: VideoChoice; label: string; size: number; url: string }[] } | null;
  documents: { id: string; name: string; size: number; url: string }[];
  /** The quizzes that follow the lesson: their pages are stored with it. */
  quizzes: { id: number; title: string; path: string }[];
};
/** An untimed quiz that follows no lesson (end of course), stored with a whole course. */
export type PlanQuiz = { id: number; title: string; path: string; textBytes: number };
export type OfflinePlan = {
  course: { slug: string; title: string };
  lessons: PlanLesson[];
  /** Only in a whole course's plan: its untimed quizzes that follow no lesson. */
  quizzes: PlanQuiz[];
};

/**
 * A stored lesson, as the "Téléchargements" screen lists it; or, with `lessonId` null, a course's
 * quizzes that follow no lesson (one record per course, `quizzes` naming them).
 */
export type DownloadRecord = {
  lessonId: number | null;
  quizzes?: { id: number; title: string; path: string }[];
  title: string;
  path: string;
  course: { slug: string; title: string };
  quality: VideoChoice | null;
  urls: string[];
  bytes: number;
  savedAt: string;
};

/**
 * A lesson's or quiz's page weighs about this much beyond its text, its HTML (about 23 Ko since the
 * icons come from a sprite and the route manifest is an asset of its own) and the data of an
 * in-app navigation (about 1 Ko) together; its text is in both.
 */
export const PAGE_BYTES_ESTIMATE = 24 * 1024;

/** Offline storage needs Cache Storage and a service worker to answer from it (built for production). */
export function offlineSupported(): boolean {
  return typeof window !== "undefined" && "caches" in window && "serviceWorker" in navigator && import.meta.env.PROD;
}

/** The video version stored for `choice`: that one if the lesson has it, else the original. */
export function videoOptionFor(lesson: PlanLesson, choice: VideoChoice) {
  const options = lesson.video?.options ?? [];
  return options.find((option) => option.choice === choice) ?? options.find((option) => option.choice === "original") ?? null;
}

/** The exact bytes of a lesson's files in `choice` (its video version and its documents). */
export function fileBytes(lesson: PlanLesson, choice: VideoChoice): number {
  return (videoOptionFor(lesson, choice)?.size ?? 0) + lesson.documents.reduce((sum, file) => sum + file.size, 0);
}

/** What a download is announced at before it starts: the files exactly, the pages (lessons', quizzes') estimated. */
export function plannedBytes(plan: OfflinePlan, choice: VideoChoice): { files: number; pages: number } {
  const { lessons, quizzes } = plan;
  return {
    files: lessons.reduce((sum, lesson) => sum + fileBytes(lesson, choice), 0),
    pages:
      lessons.reduce((sum, lesson) => sum + (1 + lesson.quizzes.length) * PAGE_BYTES_ESTIMATE + 2 * lesson.textBytes, 0) +
      quizzes.reduce((sum, quiz) => sum + PAGE_BYTES_ESTIMATE + 2 * quiz.textBytes, 0),
  };
}

/** Where a record is kept: by lesson, or the course's own for its quizzes that follow no lesson. */
function recordKey(record: Pick<DownloadRecord, "lessonId" | "course">): string {
  return `${RECORD_PATH}${record.lessonId ?? `formation-${record.course.slug}`}`;
}

/** React Router's address for a page's data (an in-app navigation): /a/b → /a/b.data. */
export function dataPath(path: string): string {
  return `${path}.data`;
}

/** Fetches `url` and stores it under `key` as it arrives, counting the bytes; throws if the answer is not 200. */
async function store(cache: Cache, url: string, key: string, onBytes: (count: number) => void, signal?: AbortSignal): Promise<number> {
  const response = await fetch(url, { credentials: "same-origin", signal, cache: "no-store" });
  if (response.status !== 200 || !response.body) throw new Error(`${url}: ${response.status}`);
  let total = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
  // The body is stored decoded: the headers must not say otherwise.
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  await cache.put(key, new Response(counted, { status: 200, statusText: "OK", headers }));
  return total;
}

/** The assets a stored page needs (its scripts and stylesheets), fetched so the service worker keeps them. */
async function warmAssets(html: string) {
  const urls = new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? []);
  await Promise.all([...urls].map((url) => fetch(url).catch(() => null)));
}

/** A page and its in-app navigation data, stored under their addresses without query. */
async function storePage(cache: Cache, path: string, query: string, onBytes: (count: number) => void, signal?: AbortSignal) {
  const bytes = await store(cache, `${path}${query}`, path, onBytes, signal);
  const stored = await cache.match(path);
  if (stored) await warmAssets(await stored.text());
  return bytes + (await store(cache, `${dataPath(path)}${query}`, dataPath(path), onBytes, signal));
}

/**
 * Downloads `lessons` for offline use with their video in `choice`: each lesson's page, its
 * quizzes' pages, video and documents, then its record; then the plan's quizzes that follow no
 * lesson (a whole course's), in the course's record; the "Téléchargements" screen too, so that it opens offline.
 * `onProgress` hears the bytes received so far.
 */
export async function downloadLessons(
  userId: string,
  plan: OfflinePlan,
  lessons: PlanLesson[],
  choice: VideoChoice,
  onProgress: (received: number) => void,
  signal?: AbortSignal,
): Promise<DownloadRecord[]> {
  const cache = await caches.open(offlineCacheName(userId));
  let received = 0;
  const count = (bytes: number) => {
    received += bytes;
    onProgress(received);
  };
  const records: DownloadRecord[] = [];
  for (const lesson of lessons) {
    const video = videoOptionFor(lesson, choice);
    const quality = video ? `?qualite=${{ low: "basse", high: "haute", original: "originale" }[video.choice]}` : "";
    let bytes = await storePage(cache, lesson.path, quality, count, signal);
    for (const quiz of lesson.quizzes) bytes += await storePage(cache, quiz.path, "", count, signal);
    const files = [...(video ? [video.url] : []), ...lesson.documents.map((file) => file.url)];
    for (const url of files) bytes += await store(cache, url, url, count, signal);
    const record: DownloadRecord = {
      lessonId: lesson.id,
      title: lesson.title,
      path: lesson.path,
      course: plan.course,
      quality: video?.choice ?? null,
      urls: [lesson.path, dataPath(lesson.path), ...lesson.quizzes.flatMap((quiz) => [quiz.path, dataPath(quiz.path)]), ...files],
      bytes,
      savedAt: new Date().toISOString(),
    };
    await cache.put(recordKey(record), Response.json(record));
    records.push(record);
  }
  if (plan.quizzes.length > 0) {
    let bytes = 0;
    for (const quiz of plan.quizzes) bytes += await storePage(cache, quiz.path, "", count, signal);
    const record: DownloadRecord = {
      lessonId: null,
      quizzes: plan.quizzes.map(({ id, title, path }) => ({ id, title, path })),
      title: plan.quizzes.length > 1 ? "Quiz de fin de formation" : plan.quizzes[0]!.title,
      path: plan.quizzes[0]!.path,
      course: plan.course,
      quality: null,
      urls: plan.quizzes.flatMap((quiz) => [quiz.path, dataPath(quiz.path)]),
      bytes,
      savedAt: new Date().toISOString(),
    };
    await cache.put(recordKey(record), Response.json(record));
    records.push(record);
  }
  await storePage(cache, DOWNLOADS_PATH, "", () => {}, signal).catch(() => 0);
  return records;
}

/** The learner's stored lessons, course by course in the order they were stored. */
export async function listDownloads(userId: string): Promise<DownloadRecord[]> {
  if (!("caches" in globalThis) || !(await caches.has(offlineCacheName(userId)))) return [];
  const cache = await caches.open(offlineCacheName(userId));
  const keys = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith(RECORD_PATH));
  const records = await Promise.all(keys.map(async (key) => (await (await cache.match(key))?.json()) as DownloadRecord));
  return records.filter(Boolean).sort((a, b) => a.savedAt.localeCompare(b.savedAt));
}

/**
 * Removes a stored lesson (its page, video, documents and record) or a course's quizzes that
 * follow no lesson. Those go with the course's last lesson: nothing of a course is left behind
 * once none of its lessons is stored.
 */
export async function deleteDownload(userId: string, target: Pick<DownloadRecord, "lessonId" | "course">): Promise<void> {
  const cache = await caches.open(offlineCacheName(userId));
  const remove = async (key: string) => {
    const record = (await (await cache.match(key))?.json()) as DownloadRecord | undefined;
    for (const url of record?.urls ?? []) await cache.delete(url);
    await cache.delete(key);
  };
  await remove(recordKey(target));
  if (target.lessonId === null) return;
  const left = (await listDownloads(userId)).filter((record) => record.course.slug === target.course.slug);
  if (left.every((record) => record.lessonId === null)) for (const record of left) await remove(recordKey(record));
}

/** Another learner's lessons left on this phone (their session ended without signing out): removed. */
export async function forgetOtherLearners(userId: string): Promise<void> {
  if (!("caches" in globalThis)) return;
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => name.startsWith(OFFLINE_CACHE_PREFIX) && name !== offlineCacheName(userId)).map((name) => caches.delete(name)),
  );
}

/** Space used and available to this site (navigator.storage.estimate), when the browser says. */
export async function storageEstimate(): Promise<{ usage: number; quota: number } | null> {
  if (!navigator.storage?.estimate) return null;
  const { usage, quota } = await navigator.storage.estimate();
  return usage === undefined || quota === undefined ? null : { usage, quota };
}

/** Asks the browser not to evict the stored lessons when space runs short; true when granted. */
export async function askPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  return (await navigator.storage.persisted?.()) || navigator.storage.persist().catch(() => false);
}
