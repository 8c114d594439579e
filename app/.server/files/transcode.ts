import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { files, lessons, videoTranscodes, type VideoRendition } from "../db/schema";
import { enqueueJob, type QueueDefinition } from "../jobs";
import type { FileStorage } from "../storage";

/**
 * Low-data versions of lesson videos (issue 13): each uploaded video is transcoded in the
 * background to MP4 (H.264/AAC) — "low", at most 300 kbps in all at about 360p, and "high", 720p
 * (never enlarged) — plus a JPEG poster. A job of the jobs service (durable, once across
 * processes); each finished rendition is recorded before the next starts, so a job cut short by a
 * restart resumes where it stopped. The original stays what the player plays until a version exists.
 */
export const TRANSCODE_QUEUE = "files.transcode-video";

export type RenditionName = "low" | "high";

interface RenditionSpec {
  name: RenditionName;
  /** Target height; the source is never enlarged. */
  height: number;
  video: string[];
  audio: string[];
  /** Share of the job's progress bar. */
  weight: number;
}

/**
 * "low": capped CRF, so a still slide costs far less than the cap and motion never exceeds it:
 * 220 kbps of video (VBV) + 48 kbps of mono AAC stay under 300 kbps with the MP4 overhead.
 */
const RENDITIONS: RenditionSpec[] = [
  {
    name: "low",
    height: 360,
    video: ["-crf", "30", "-maxrate", "220k", "-bufsize", "440k", "-profile:v", "main"],
    audio: ["-ac", "1", "-ar", "44100", "-b:a", "48k"],
    weight: 40,
  },
  {
    name: "high",
    height: 720,
    video: ["-crf", "24", "-maxrate", "1800k", "-bufsize", "3600k", "-profile:v", "high"],
    audio: ["-ac", "2", "-b:a", "96k"],
    weight: 55,
  },
];
const POSTER_WEIGHT = 5;

/** A source no taller than this gets only the low version (a "720p" of it would be the same). */
const HIGH_VERSION_MIN_SOURCE_HEIGHT = 400;

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

let defaultTools: Promise<MediaTools> | undefined;

/**
 * ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH (the machine's own), else the binaries shipped
 * inside the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe (no download
 * at install time). Loaded on first use: an unsupported platform fails the job, not the server.
 */
export function mediaTools(): Promise<MediaTools> {
  defaultTools ??= (async () => ({
    ffmpeg: process.env.FFMPEG_PATH || (await import("@ffmpeg-installer/ffmpeg")).default.path,
    ffprobe: process.env.FFPROBE_PATH || (await import("@ffprobe-installer/ffprobe")).default.path,
  }))();
  return defaultTools;
}

function run(binary: string, args: string[], options: { signal?: AbortSignal; onLine?: (line: string) => void } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], signal: options.signal });
    let stdout = "";
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (!options.onLine) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) options.onLine(line);
    });
    // Only the end of ffmpeg's chatter says why it failed.
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${path.basename(binary)} a échoué (code ${code}) : ${stderr.trim().split("\n").slice(-3).join(" ")}`));
    });
  });
}

export interface ProbedMedia {
  durationSeconds: number;
  width: number;
  height: number;
  hasAudio: boolean;
  /** Bits per second of the whole file (all streams and container). */
  bitRate: number;
  size: number;
  videoCodec: string | null;
  audioCodec: string | null;
}

/** What ffprobe says of a media file. */
export async function probeMedia(filePath: string, tools?: MediaTools): Promise<ProbedMedia> {
  const { ffprobe } = tools ?? (await mediaTools());
  const output = await run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", filePath]);
  const parsed = JSON.parse(output) as {
    format?: { duration?: string; bit_rate?: string; size?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
  };
  const video = parsed.streams?.find((stream) => stream.codec_type === "video");
  const audio = parsed.streams?.find((stream) => stream.codec_type === "audio");
  if (!video?.width || !video.height) throw new Error("Cette vidéo n'a pas d'image lisible.");
  return {
    durationSeconds: Number(parsed.format?.duration ?? 0),
    width: video.width,
    height: video.height,
    hasAudio: Boolean(audio),
    bitRate: Number(parsed.format?.bit_rate ?? 0),
    size: Number(parsed.format?.size ?? 0),
    videoCodec: video.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
  };
}

/** Even dimensions (H.264 needs them), at most `height` tall, never enlarged. */
const scaleTo = (height: number) => `scale=-2:trunc(min(${height}\\,ih)/2)*2`;

/**
 * Asks for the low-data versions of a lesson video: a row to follow its progress and a job, both
 * once per file whatever calls it twice. Pass the transaction that stores the file.
 */
export async function requestTranscode(db: Database, fileId: string, now = new Date()) {
  await db.insert(videoTranscodes).values({ fileId, updatedAt: now }).onConflictDoNothing();
  await enqueueJob(db, TRANSCODE_QUEUE, { fileId }, { key: `transcode:${fileId}`, now, maxAttempts: 3 });
}

/**
 * Videos used by a lesson that have no versions asked for yet (uploaded before transcoding
 * existed, or imported): asked for now. Run by an hourly schedule.
 */
export async function requestMissingTranscodes(db: Database, now = new Date(), batch = 50): Promise<number> {
  const missing = await db
    .select({ id: files.id })
    .from(files)
    .innerJoin(lessons, eq(lessons.videoFileId, files.id))
    .leftJoin(videoTranscodes, eq(videoTranscodes.fileId, files.id))
    .where(and(eq(files.purpose, "lesson_video"), isNull(videoTranscodes.fileId)))
    .limit(batch);
  for (const { id } of missing) await requestTranscode(db, id, now);
  return missing.length;
}

export interface TranscodeDeps {
  db: Database;
  storage: FileStorage;
  tools?: MediaTools;
}

export interface TranscodeRun {
  signal?: AbortSignal;
  now?: () => Date;
  /** This is the job's last attempt: a failure is final (the teacher is told). */
  lastAttempt?: boolean;
  /** Called as each step starts ("low", "high", "poster"); tests watch what a resumed job redoes. */
  onStep?: (step: RenditionName | "poster") => void;
}

/**
 * Transcodes one stored video into its missing versions and poster, recording each as it is
 * stored. Idempotent: what is already recorded (and still in storage) is kept.
 */
export async function transcodeVideo(deps: TranscodeDeps, fileId: string, options: TranscodeRun = {}): Promise<void> {
  const { db, storage } = deps;
  const now = options.now ?? (() => new Date());
  const [file] = await db.select().from(files).where(eq(files.id, fileId));
  // Deleted meanwhile (a replaced video): nothing to do.
  if (!file || file.purpose !== "lesson_video") return;
  await db.insert(videoTranscodes).values({ fileId, updatedAt: now() }).onConflictDoNothing();
  const [state] = await db
    .update(videoTranscodes)
    .set({ status: "running", error: null, updatedAt: now() })
    .where(eq(videoTranscodes.fileId, fileId))
    .returning();
  const tools = deps.tools ?? (await mediaTools());
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "campus-transcode-"));
  const written: string[] = [];
  try {
    const source = path.join(folder, "source");
    const { stream } = await storage.get(file.storageKey);
    await pipeline(stream, createWriteStream(source), { signal: options.signal });
    const media = await probeMedia(source, tools);
    const durationSeconds = Math.max(0, Math.round(media.durationSeconds));
    await db.update(videoTranscodes).set({ durationSeconds, updatedAt: now() }).where(eq(videoTranscodes.fileId, fileId));

    const plan = RENDITIONS.filter((spec) => spec.name === "low" || media.height > HIGH_VERSION_MIN_SOURCE_HEIGHT);
    const totalWeight = plan.reduce((sum, spec) => sum + spec.weight, 0) + POSTER_WEIGHT;
    let doneWeight = 0;
    let shown = state?.progress ?? 0;
    let shownAt = 0;
    const report = async (fraction: number, force = false) => {
      const progress = Math.min(99, Math.floor(((doneWeight + fraction) / totalWeight) * 100));
      if (progress <= shown || (!force && Date.now() - shownAt < 1000)) return;
      shown = progress;
      shownAt = Date.now();
      await db.update(videoTranscodes).set({ progress, updatedAt: now() }).where(eq(videoTranscodes.fileId, fileId));
    };
    const recorded = state?.renditions ?? {};

    for (const spec of plan) {
      const existing = recorded[spec.name];
      if (existing && (await storage.stat(existing.key))) {
        doneWeight += spec.weight;
        continue;
      }
      options.onStep?.(spec.name);
      const output = path.join(folder, `${spec.name}.mp4`);
      const args = [
        "-hide_banner",
        "-nostdin",
        "-y",
        "-i",
        source,
        "-map",
        "0:v:0",
        ...(media.hasAudio ? ["-map", "0:a:0", "-c:a", "aac", ...spec.audio] : ["-an"]),
        "-vf",
        scaleTo(spec.height),
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        ...spec.video,
        "-pix_fmt",
        "yuv420p",
        "-threads",
        "2",
        "-movflags",
        "+faststart",
        "-progress",
        "pipe:1",
        "-nostats",
        output,
      ];
      let lastReport = Promise.resolve();
      await run(tools.ffmpeg, args, {
        signal: options.signal,
        onLine: (line) => {
          const match = /^out_time_(?:us|ms)=(\d+)/.exec(line);
          if (!match || !media.durationSeconds) return;
          const fraction = Math.min(1, Number(match[1]) / 1_000_000 / media.durationSeconds) * spec.weight;
          lastReport = lastReport.then(() => report(fraction)).catch(() => {});
        },
      });
      await lastReport;
      const result = await probeMedia(output, tools);
      const key = `videos/${fileId}-${spec.name}.mp4`;
      written.push(key);
      const info = await storage.put(key, createReadStream(output), "video/mp4");
      const rendition: VideoRendition = {
        key,
        size: info.size,
        width: result.width,
        height: result.height,
        bitrateKbps: Math.round(result.bitRate / 1000),
      };
      await db.transaction(async (tx) => {
        await tx
          .update(videoTranscodes)
          .set({
            renditions: sql`${videoTranscodes.renditions} || ${JSON.stringify({ [spec.name]: rendition })}::jsonb`,
            updatedAt: now(),
          })
          .where(eq(videoTranscodes.fileId, fileId));
        await tx
          .update(files)
          .set({ variants: sql`${files.variants} || ${JSON.stringify({ [spec.name]: key })}::jsonb` })
          .where(eq(files.id, fileId));
      });
      doneWeight += spec.weight;
      await report(0, true);
    }

    if (!(state?.posterKey && (await storage.stat(state.posterKey)))) {
      options.onStep?.("poster");
      const poster = path.join(folder, "poster.jpg");
      const at = Math.min(2, media.durationSeconds / 3).toFixed(2);
      await run(
        tools.ffmpeg,
        ["-hide_banner", "-nostdin", "-y", "-ss", at, "-i", source, "-frames:v", "1", "-vf", scaleTo(720), "-q:v", "4", poster],
        {
          signal: options.signal,
        },
      );
      const key = `videos/${fileId}-poster.jpg`;
      written.push(key);
      await storage.put(key, createReadStream(poster), "image/jpeg");
      await db.transaction(async (tx) => {
        await tx.update(videoTranscodes).set({ posterKey: key, updatedAt: now() }).where(eq(videoTranscodes.fileId, fileId));
        await tx
          .update(files)
          .set({ variants: sql`${files.variants} || ${JSON.stringify({ poster: key })}::jsonb` })
          .where(eq(files.id, fileId));
      });
    }
    await db
      .update(videoTranscodes)
      .set({ status: "ready", progress: 100, error: null, updatedAt: now() })
      .where(eq(videoTranscodes.fileId, fileId));
    // The video was deleted while we worked: its versions must not outlive it.
    const [still] = await db.select({ id: files.id }).from(files).where(eq(files.id, fileId));
    if (!still) await Promise.allSettled(written.map((key) => storage.delete(key)));
  } catch (error) {
    if (!options.signal?.aborted) {
      const message = error instanceof Error ? error.message : String(error);
      await db
        .update(videoTranscodes)
        .set({ status: options.lastAttempt ? "failed" : "pending", error: message.slice(0, 1000), updatedAt: now() })
        .where(eq(videoTranscodes.fileId, fileId))
        .catch(() => {});
    }
    throw error;
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

/**
 * The queue's definition for the jobs service: minutes of ffmpeg per video, one at a time per
 * process (two cores), the lease renewed while it runs.
 */
export function transcodeQueue(deps: TranscodeDeps, hooks: Pick<TranscodeRun, "onStep"> = {}): QueueDefinition<{ fileId: string }> {
  return {
    queue: TRANSCODE_QUEUE,
    leaseMs: 2 * 60 * 1000,
    run: (payload, { now, signal, job }) =>
      transcodeVideo(deps, payload.fileId, { ...hooks, now, signal, lastAttempt: job.attempt >= job.maxAttempts }),
  };
}

export type TranscodeState = {
  status: "pending" | "running" | "ready" | "failed";
  progress: number;
  error: string | null;
};

/** Where each video's versions stand, for the teacher's course form. */
export async function getTranscodeStates(db: Database, fileIds: string[]): Promise<Record<string, TranscodeState>> {
  if (!fileIds.length) return {};
  const rows = await db
    .select({
      fileId: videoTranscodes.fileId,
      status: videoTranscodes.status,
      progress: videoTranscodes.progress,
      error: videoTranscodes.error,
    })
    .from(videoTranscodes)
    .where(inArray(videoTranscodes.fileId, fileIds));
  return Object.fromEntries(rows.map(({ fileId, ...state }) => [fileId, state]));
}
