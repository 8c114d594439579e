/**
 * Low-data video (issue 13): an uploaded lesson video becomes, in a background job, a ≤ 300 kbps
 * 360p MP4, a 720p MP4 and a poster, which ffprobe checks; the job resumes after a restart without
 * redoing what it finished; the file route serves each version to whoever may read the video.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCampusAuth, type CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { files, jobs, videoTranscodes } from "~/.server/db/schema";
import { ingestUpload, uploadLimits } from "~/.server/files/ingest";
import { mediaTools, probeMedia, TRANSCODE_QUEUE, transcodeQueue, type RenditionName } from "~/.server/files/transcode";
import { createJobService, type JobService } from "~/.server/jobs";
import { createDiskStorage } from "~/.server/storage/disk";
import { storageContext } from "~/.server/storage/context";
import { loader as fileLoader } from "~/routes/files/file";
import { resolveSession } from "~/.server/auth/session";
import { createCourse } from "~/.server/courses/authoring";
import { setDataSaver } from "~/.server/profile";
import { loader as versionsLoader } from "~/routes/files/file-versions";
import { loader as lessonLoader } from "~/routes/dashboard/lecon";
import { createSignedInUser, enrol, type TestUser } from "../factories";
import { routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { routeOutcome } from "../setup/routes";
import { createTestDatabase } from "../setup/db";

const limits = uploadLimits({ UPLOAD_MAX_IMAGE_MB: 1, UPLOAD_MAX_ATTACHMENT_MB: 1, UPLOAD_MAX_VIDEO_MB: 8 });
const HOUR = 60 * 60 * 1000;

let handle: DatabaseHandle;
let campus: CampusAuth;
let root: string;
let storage: ReturnType<typeof createDiskStorage>;
let fixture: string;
let teacher: { id: string; cookie: string; user: TestUser };
const services: JobService[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createCampusAuth({ db: handle.db, env: { DATA_DIR: "memory://", PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: "silent" } });
  root = fs.mkdtempSync(path.join(os.tmpdir(), "campus-transcode-test-"));
  storage = createDiskStorage(path.join(root, "files"));
  // A 2-second 720p clip with sound at 2 Mbit/s: what a teacher's phone would send, only shorter.
  fixture = path.join(root, "lecon.mp4");
  const { ffmpeg } = await mediaTools();
  await promisify(execFile)(ffmpeg, [
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=1280x720:rate=25",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:sample_rate=44100",
    "-t",
    "2",
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-b:v",
    "2M",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-pix_fmt",
    "yuv420p",
    fixture,
  ]);
  const { user, cookie } = await createSignedInUser(campus, handle.db, { role: "teacher" });
  teacher = { id: user.id, cookie, user: user as TestUser };
}, 60_000);

afterAll(async () => {
  await Promise.all(services.map((service) => service.stop({ graceMs: 0 })));
  await handle?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

function worker(onStep?: (step: RenditionName | "poster") => void) {
  const service = createJobService({
    database: handle,
    tickMs: HOUR,
    pollMs: HOUR,
    onError: () => {},
    queues: [transcodeQueue({ db: handle.db, storage }, { onStep }) as never],
  });
  services.push(service);
  return service;
}

async function upload(id: string) {
  const copy = path.join(root, `${id}.mp4`);
  fs.copyFileSync(fixture, copy);
  return ingestUpload(
    { db: handle.db, storage, limits },
    { id, purpose: "lesson_video", filePath: copy, originalName: "Leçon 1.mp4", declaredType: "video/mp4", uploadedBy: teacher.id },
  );
}

const stateOf = async (fileId: string) => (await handle.db.select().from(videoTranscodes).where(eq(videoTranscodes.fileId, fileId)))[0]!;
const storedPath = (key: string) => path.join(root, "files", key);

async function fileRoute(id: string, query: string, headers: Record<string, string> = {}) {
  const context = routerContext(handle.db, campus);
  context.set(storageContext, storage);
  const request = new Request(`${TEST_PUBLIC_URL}/fichiers/${id}${query}`, { headers: { cookie: teacher.cookie, ...headers } });
  return (await fileLoader({ request, params: { id }, context, unstable_pattern: "/fichiers/:id" } as never)) as Response;
}

describe("transcoding a lesson video", () => {
  it("asks for the versions once at upload, then makes a ≤ 300 kbps 360p, a 720p and a poster", async () => {
    await upload("video-a");
    const queued = await handle.db.select().from(jobs).where(eq(jobs.queue, TRANSCODE_QUEUE));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.key).toBe("transcode:video-a");
    expect(await stateOf("video-a")).toMatchObject({ status: "pending", progress: 0 });

    const steps: string[] = [];
    await worker((step) => steps.push(step)).runDue();
    expect(steps).toEqual(["low", "high", "poster"]);

    const state = await stateOf("video-a");
    expect(state).toMatchObject({ status: "ready", progress: 100, durationSeconds: 2, error: null });
    const low = await probeMedia(storedPath(state.renditions.low!.key));
    expect(low).toMatchObject({ height: 360, width: 640, videoCodec: "h264", audioCodec: "aac" });
    expect(low.bitRate).toBeLessThanOrEqual(300_000);
    expect(state.renditions.low!.size).toBe(fs.statSync(storedPath(state.renditions.low!.key)).size);
    // 2 seconds at 300 kbps at most: ~75 KB, against ~540 KB for the original.
    expect(state.renditions.low!.size).toBeLessThan((2 * 300_000) / 8 + 16_000);
    const high = await probeMedia(storedPath(state.renditions.high!.key));
    expect(high).toMatchObject({ height: 720, width: 1280, videoCodec: "h264", audioCodec: "aac" });
    expect(fs.statSync(storedPath(state.posterKey!)).size).toBeGreaterThan(1000);

    const [file] = await handle.db.select().from(files).where(eq(files.id, "video-a"));
    expect(file!.variants).toEqual({ low: state.renditions.low!.key, high: state.renditions.high!.key, poster: state.posterKey });
  }, 120_000);

  it("serves each version and the poster with Range, named as such; an unknown version is a 404", async () => {
    const state = await stateOf("video-a");
    const low = await fileRoute("video-a", "?version=basse", { range: "bytes=0-99" });
    expect(low.status).toBe(206);
    expect(low.headers.get("content-type")).toBe("video/mp4");
    expect(low.headers.get("content-range")).toBe(`bytes 0-99/${state.renditions.low!.size}`);
    expect(low.headers.get("content-disposition")).toContain("low.mp4");
    const poster = await fileRoute("video-a", "?version=affiche");
    expect(poster.status).toBe(200);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");
    expect((await fileRoute("video-a", "?version=1080p")).status).toBe(404);
    // The same versions are nobody else's business.
    const context = routerContext(handle.db, campus);
    context.set(storageContext, storage);
    const anonymous = await fileLoader({
      request: new Request(`${TEST_PUBLIC_URL}/fichiers/video-a?version=basse`),
      params: { id: "video-a" },
      context,
      unstable_pattern: "/fichiers/:id",
    } as never);
    expect((anonymous as Response).status).toBe(404);
  });

  it("a restart in the middle of the job resumes it without redoing the finished version", async () => {
    await upload("video-b");
    let stopping: Promise<void> | undefined;
    const first: JobService = worker((step) => {
      // The process stops as soon as the 360p version is stored.
      if (step === "high") stopping = first.stop({ graceMs: 0 });
    });
    await first.start();
    for (let waited = 0; !stopping && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    await stopping;
    // The stopping process gives the job back as its ffmpeg is killed.
    const jobOf = async () => (await handle.db.select().from(jobs).where(eq(jobs.key, "transcode:video-b")))[0]!;
    for (let waited = 0; (await jobOf()).status === "running" && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const halfway = await stateOf("video-b");
    expect(Object.keys(halfway.renditions)).toEqual(["low"]);
    expect(halfway.status).toBe("running");
    // Given back, its attempt not counted.
    expect(await jobOf()).toMatchObject({ status: "pending", attempts: 0 });
    const lowKey = halfway.renditions.low!.key;
    const lowWritten = fs.statSync(storedPath(lowKey)).mtimeMs;

    const steps: string[] = [];
    await worker((step) => steps.push(step)).runDue();
    expect(steps).toEqual(["high", "poster"]);
    const done = await stateOf("video-b");
    expect(done.status).toBe("ready");
    expect(done.renditions.low!.key).toBe(lowKey);
    expect(fs.statSync(storedPath(lowKey)).mtimeMs).toBe(lowWritten);
  }, 120_000);
});

describe("the versions as the teacher and the learner see them", () => {
  it("tells the course form how far the versions are", async () => {
    await upload("video-c");
    // A context per request: the session it resolves is kept in it.
    const ask = (id: string, cookie?: string) =>
      versionsLoader({
        request: new Request(`${TEST_PUBLIC_URL}/fichiers/${id}/versions`, { headers: cookie ? { cookie } : {} }),
        params: { id },
        context: routerContext(handle.db, campus),
      } as never);
    expect(await (await ask("video-c", teacher.cookie)).json()).toEqual({ status: "pending", progress: 0, failed: false });
    expect(await (await ask("video-a", teacher.cookie)).json()).toEqual({ status: "ready", progress: 100, failed: false });
    expect((await ask("video-a")).status).toBe(404);
  });

  it("the player starts on 720p, on 360p when the learner saves data or the browser asks, and on their own choice", async () => {
    const { course, lessons } = await createCourse(handle.db, teacher.user, {
      title: "Vidéo légère",
      description: "Une formation pour tester les versions.",
      category: "tech",
      level: "debutant",
      priceFcfa: 0,
      maxStudents: null,
      durationWeeks: 1,
      status: "published",
      lessons: [{ title: "Avec vidéo", description: "", content: "", durationMinutes: 5, isFree: false, videoFileId: "video-a" }],
    });
    const { user: learner, cookie } = await createSignedInUser(campus, handle.db);
    await enrol(handle.db, learner, course);
    const open = async (query = "", headers: Record<string, string> = {}) => {
      const url = `${TEST_PUBLIC_URL}/dashboard/formations/${course.slug}/lecons/${lessons[0]!.id}${query}`;
      const request = new Request(url, { headers: { ...headers, cookie } });
      // The learner as the signed-in layout's guard finds them: their preference comes with the session.
      const { user: session } = await resolveSession(campus.auth, request.headers);
      const outcome = await routeOutcome(() =>
        lessonLoader({
          request,
          url: new URL(url),
          params: { slug: course.slug, lessonId: String(lessons[0]!.id) },
          context: routerContext(handle.db, campus, { user: session! }),
        } as never),
      );
      expect(outcome.status).toBe(200);
      return outcome.data as {
        player: { initial: string; explicit: boolean; dataSaver: boolean };
        lesson: { video: { versions: { name: string; size: number; height: number }[]; poster: boolean } };
      };
    };
    const plain = await open();
    expect(plain.player).toEqual({ initial: "high", explicit: false, dataSaver: false });
    expect(plain.lesson.video.versions.map((version) => [version.name, version.height])).toEqual([
      ["low", 360],
      ["high", 720],
    ]);
    expect(plain.lesson.video.poster).toBe(true);
    expect((await open("", { "Save-Data": "on" })).player.initial).toBe("low");
    expect((await open("?qualite=originale", { "Save-Data": "on" })).player).toMatchObject({ initial: "original", explicit: true });

    await setDataSaver(handle.db, learner, true);
    expect((await open()).player).toEqual({ initial: "low", explicit: false, dataSaver: true });
    expect((await open("?qualite=haute")).player).toMatchObject({ initial: "high", dataSaver: true });
  });
});
