/**
 * Course files end to end: resumable uploads over HTTP (the tus endpoint, as the course form uses
 * it), the checks on what is uploaded, who may read a file, and how it is served (Range, caching).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import express from "express";
import sharp from "sharp";
import { Upload, type DetailedError } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/.server/auth/actor";
import { createCampusAuth, mountAuth, type CampusAuth } from "~/.server/auth/express";
import { canAuthor } from "~/.server/courses/policy";
import { createCourse, updateCourse } from "~/.server/courses/authoring";
import type { DatabaseHandle } from "~/.server/db/client";
import { courses, files } from "~/.server/db/schema";
import { ingestUpload, uploadLimits } from "~/.server/files/ingest";
import { deleteUnattachedFiles } from "~/.server/files/maintenance";
import { createUploadServer } from "~/.server/files/uploads";
import { createDiskStorage } from "~/.server/storage/disk";
import { storageContext } from "~/.server/storage/context";
import { loader as fileLoader } from "~/routes/files/file";
import { createSignedInUser } from "../factories";
import { routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

const limits = uploadLimits({ UPLOAD_MAX_IMAGE_MB: 1, UPLOAD_MAX_ATTACHMENT_MB: 1, UPLOAD_MAX_VIDEO_MB: 8 });
const webm = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/lesson.webm"));

let handle: DatabaseHandle;
let campus: CampusAuth;
let root: string;
let storage: ReturnType<typeof createDiskStorage>;
let server: http.Server;
let base = "";
const people: Record<"admin" | "teacher" | "otherTeacher" | "student", { actor: Actor; cookie: string }> = {} as never;

beforeAll(async () => {
  handle = await createTestDatabase();
  campus = createCampusAuth({
    db: handle.db,
    env: { DATA_DIR: "memory://", PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: "silent" },
  });
  root = fs.mkdtempSync(path.join(os.tmpdir(), "campus-files-"));
  storage = createDiskStorage(path.join(root, "files"));
  for (const [key, role] of [
    ["admin", "admin"],
    ["teacher", "teacher"],
    ["otherTeacher", "teacher"],
    ["student", "user"],
  ] as const) {
    const { user, cookie } = await createSignedInUser(campus, handle.db, { role });
    people[key] = { actor: user, cookie };
  }
  const app = express();
  mountAuth(app, campus);
  createUploadServer({ db: handle.db, storage, limits, directory: path.join(root, "uploads"), mayUpload: canAuthor }).mount(app);
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await handle?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** A webm video of `size` bytes (the fixture's real header, then padding). */
function videoOf(size: number): Buffer {
  return Buffer.concat([webm, Buffer.alloc(Math.max(0, size - webm.length), 7)]);
}

type Uploaded = { id: string; name: string; size: number; contentType: string; variants: number[] };

function uploadOptions(cookie: string | undefined, purpose: string, name: string, type: string) {
  return {
    endpoint: `${base}/api/televersements`,
    headers: (cookie ? { cookie } : {}) as Record<string, string>,
    metadata: { filename: name, filetype: type, purpose },
    retryDelays: null,
  };
}

/** Uploads `data` as a tus client would, resolving with the server's answer or rejecting with its status and message. */
function upload(
  data: Buffer,
  options: { cookie?: string; purpose: string; name?: string; type?: string; chunkSize?: number },
): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const tus = new Upload(data, {
      ...uploadOptions(options.cookie, options.purpose, options.name ?? "fichier.bin", options.type ?? "application/octet-stream"),
      chunkSize: options.chunkSize ?? Infinity,
      onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as Uploaded),
      onError: (error) => {
        const response = (error as DetailedError).originalResponse;
        reject(Object.assign(new Error(response?.getBody() ?? error.message), { status: response?.getStatus() ?? 0 }));
      },
    });
    tus.start();
  });
}

/** GET /fichiers/:id through the route's loader, as `who` (a cookie) with extra headers. */
async function readFile(id: string, who: string | null, headers: Record<string, string> = {}, query = "") {
  const context = routerContext(handle.db, campus);
  context.set(storageContext, storage);
  const request = new Request(`${TEST_PUBLIC_URL}/fichiers/${id}${query}`, { headers: { ...headers, ...(who ? { cookie: who } : {}) } });
  return (await fileLoader({ request, params: { id }, context, unstable_pattern: "/fichiers/:id" } as never)) as Response;
}

describe("resumable uploads", () => {
  it("sends a video in chunks, survives a dropped connection and resumes where it stopped", async () => {
    const video = videoOf(900 * 1024);
    const chunkSize = 256 * 1024;
    // First attempt: the connection drops after two chunks.
    const uploadUrl = await new Promise<string>((resolve, reject) => {
      let chunks = 0;
      const tus: Upload = new Upload(video, {
        ...uploadOptions(people.teacher.cookie, "lesson_video", "cours-1.webm", "video/webm"),
        chunkSize,
        onChunkComplete: () => {
          chunks += 1;
          if (chunks === 2) void tus.abort().then(() => resolve(tus.url!));
        },
        onSuccess: () => reject(new Error("should not finish")),
        onError: reject,
      });
      tus.start();
    });
    const head = await fetch(uploadUrl, { method: "HEAD", headers: { cookie: people.teacher.cookie, "Tus-Resumable": "1.0.0" } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("upload-offset"))).toBe(2 * chunkSize);
    const [beforeResume] = await handle.db
      .select()
      .from(files)
      .where(eq(files.id, uploadUrl.split("/").pop()!));
    expect(beforeResume).toBeUndefined();

    // Second attempt: the same upload URL, only the rest is sent.
    let firstOffset = -1;
    const stored = await new Promise<Uploaded>((resolve, reject) => {
      const tus = new Upload(video, {
        ...uploadOptions(people.teacher.cookie, "lesson_video", "cours-1.webm", "video/webm"),
        uploadUrl,
        chunkSize,
        onProgress: (sent) => {
          if (firstOffset < 0) firstOffset = sent;
        },
        onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody()) as Uploaded),
        onError: reject,
      });
      tus.start();
    });
    expect(firstOffset).toBeGreaterThanOrEqual(2 * chunkSize);
    expect(stored).toMatchObject({ id: uploadUrl.split("/").pop(), name: "cours-1.webm", size: video.length, contentType: "video/webm" });
    const [row] = await handle.db.select().from(files).where(eq(files.id, stored.id));
    expect(row).toMatchObject({ purpose: "lesson_video", courseId: null, uploadedBy: people.teacher.actor.id });
    const { stream } = await storage.get(row!.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(sha(Buffer.concat(chunks))).toBe(sha(video));
    // The upload's own bytes are gone once stored.
    expect(fs.readdirSync(path.join(root, "uploads")).filter((name) => name.startsWith(stored.id))).toEqual([]);
  });

  it("refuses a file whose content is not what it claims, and keeps nothing", async () => {
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    const before = (await handle.db.select().from(files)).length;
    await expect(
      upload(pdf, { cookie: people.teacher.cookie, purpose: "thumbnail", name: "photo.png", type: "image/png" }),
    ).rejects.toMatchObject({
      status: 415,
      message: expect.stringMatching(/n'est pas une image JPEG, PNG ou WebP/),
    });
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(200)]);
    await expect(
      upload(elf, { cookie: people.teacher.cookie, purpose: "lesson_attachment", name: "cours.pdf", type: "application/pdf" }),
    ).rejects.toMatchObject({ status: 415 });
    await expect(
      upload(Buffer.from("pas une vidéo du tout"), {
        cookie: people.teacher.cookie,
        purpose: "lesson_video",
        name: "v.mp4",
        type: "video/mp4",
      }),
    ).rejects.toMatchObject({ status: 415 });
    expect((await handle.db.select().from(files)).length).toBe(before);
    expect(fs.readdirSync(path.join(root, "uploads")).filter((name) => !name.endsWith(".json"))).toEqual([]);
  });

  it("accepts a PDF and a plain-text document as attachments", async () => {
    const pdf = await upload(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj\n%%EOF"), {
      cookie: people.teacher.cookie,
      purpose: "lesson_attachment",
      name: "Résumé du cours.pdf",
      type: "application/pdf",
    });
    expect(pdf).toMatchObject({ name: "Résumé du cours.pdf", contentType: "application/pdf" });
    const text = await upload(Buffer.from("Exercices\n\n1. Calculez la puissance.\n"), {
      cookie: people.teacher.cookie,
      purpose: "lesson_attachment",
      name: "exercices.txt",
      type: "text/plain",
    });
    expect(text.contentType).toBe("text/plain");
  });

  it("refuses a file over the limit before any byte is sent, in French", async () => {
    await expect(
      upload(Buffer.alloc(2 * 1024 * 1024, 1), {
        cookie: people.teacher.cookie,
        purpose: "thumbnail",
        name: "grande.jpg",
        type: "image/jpeg",
      }),
    ).rejects.toMatchObject({
      status: 413,
      message: "L'image dépasse la taille maximale de 1 Mo.",
    });
  });

  it("lets only teachers and admins upload", async () => {
    const image = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    await expect(upload(image, { purpose: "thumbnail", type: "image/png" })).rejects.toMatchObject({ status: 401 });
    await expect(upload(image, { cookie: people.student.cookie, purpose: "thumbnail", type: "image/png" })).rejects.toMatchObject({
      status: 403,
    });
    await expect(upload(image, { cookie: people.admin.cookie, purpose: "thumbnail", type: "image/png" })).resolves.toMatchObject({
      contentType: "image/webp",
    });
    await expect(upload(image, { cookie: people.teacher.cookie, purpose: "certificat", type: "image/png" })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("lets nobody else continue or read someone's upload, and refuses other sites", async () => {
    const create = await fetch(`${base}/api/televersements`, {
      method: "POST",
      headers: {
        cookie: people.teacher.cookie,
        "Tus-Resumable": "1.0.0",
        "Upload-Length": "1000",
        "Upload-Metadata": `purpose ${btoa("lesson_video")}`,
      },
    });
    expect(create.status).toBe(201);
    const url = new URL(create.headers.get("location")!, base).toString();
    for (const cookie of [people.otherTeacher.cookie, people.admin.cookie]) {
      const head = await fetch(url, { method: "HEAD", headers: { cookie, "Tus-Resumable": "1.0.0" } });
      expect(head.status).toBe(404);
      const patch = await fetch(url, {
        method: "PATCH",
        headers: { cookie, "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
        body: Buffer.alloc(10),
      });
      expect(patch.status).toBe(404);
    }
    const crossSite = await fetch(`${base}/api/televersements`, {
      method: "POST",
      headers: {
        cookie: people.teacher.cookie,
        origin: "https://ailleurs.example",
        "Tus-Resumable": "1.0.0",
        "Upload-Length": "10",
        "Upload-Metadata": `purpose ${btoa("thumbnail")}`,
      },
    });
    expect(crossSite.status).toBe(403);
  });
});

describe("thumbnails", () => {
  it("are resized to WebP at the widths the image allows, never enlarged", async () => {
    const big = await sharp({ create: { width: 1600, height: 900, channels: 3, background: "#0a5" } })
      .jpeg()
      .toBuffer();
    const stored = await upload(big, { cookie: people.teacher.cookie, purpose: "thumbnail", name: "couverture.jpg", type: "image/jpeg" });
    expect(stored.variants).toEqual([320, 640, 1280]);
    const [row] = await handle.db.select().from(files).where(eq(files.id, stored.id));
    for (const [width, key] of Object.entries(row!.variants)) {
      const { stream } = await storage.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const meta = await sharp(Buffer.concat(chunks)).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(Number(width));
    }
    const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#a50" } })
      .png()
      .toBuffer();
    expect((await upload(small, { cookie: people.teacher.cookie, purpose: "thumbnail", type: "image/png" })).variants).toEqual([320]);
  });

  it("refuses an image that cannot be decoded", async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 0)]);
    const tmp = path.join(root, "broken.jpg");
    fs.writeFileSync(tmp, broken);
    await expect(
      ingestUpload(
        { db: handle.db, storage, limits },
        {
          id: "casse",
          purpose: "thumbnail",
          filePath: tmp,
          originalName: "casse.jpg",
          declaredType: "image/jpeg",
          uploadedBy: people.teacher.actor.id,
        },
      ),
    ).rejects.toMatchObject({ code: "unsupported" });
    expect(await handle.db.select().from(files).where(eq(files.id, "casse"))).toEqual([]);
  });
});

describe("damaged and polyglot images", () => {
  it("answers 415 in French to a truncated PNG and to a PNG header followed by HTML, as a cover or an attachment", async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#05a" } })
      .png()
      .toBuffer();
    const truncated = png.subarray(0, Math.floor(png.length * 0.6));
    // The 8-byte signature and the IHDR chunk, then a page where the image data should be.
    const polyglot = Buffer.concat([png.subarray(0, 33), Buffer.from("<html><script>alert(document.cookie)</script></html>".repeat(20))]);
    const before = (await handle.db.select().from(files)).length;
    for (const [name, bytes] of [
      ["tronquee.png", truncated],
      ["polyglotte.png", polyglot],
    ] as const) {
      for (const purpose of ["thumbnail", "lesson_attachment"] as const) {
        await expect(
          upload(bytes, { cookie: people.teacher.cookie, purpose, name, type: "image/png" }),
          `${name} ${purpose}`,
        ).rejects.toMatchObject({
          status: 415,
          message: expect.stringMatching(/^Cette image est endommagée ou n'est pas une vraie image/),
        });
      }
    }
    expect((await handle.db.select().from(files)).length).toBe(before);
  });
});

describe("reading files", () => {
  async function courseWithVideo(options: { isFree: boolean; status: "draft" | "published" }) {
    const video = await upload(videoOf(64 * 1024), {
      cookie: people.teacher.cookie,
      purpose: "lesson_video",
      name: "lecon.webm",
      type: "video/webm",
    });
    const attachment = await upload(Buffer.from("%PDF-1.4\n%%EOF"), {
      cookie: people.teacher.cookie,
      purpose: "lesson_attachment",
      name: "fiche.pdf",
      type: "application/pdf",
    });
    const result = await createCourse(handle.db, people.teacher.actor, {
      title: `Cours vidéo ${options.status} ${options.isFree}`,
      description: "Un cours avec une vidéo.",
      category: "energie",
      level: "debutant",
      status: options.status,
      lessons: [{ title: "Leçon 1", videoFileId: video.id, attachmentIds: [attachment.id], isFree: options.isFree }],
    });
    return { video, attachment, course: result.course, lesson: result.lessons[0]! };
  }

  it("answers a Range request with 206 and exactly those bytes, and an unsatisfiable one with 416", async () => {
    const { video } = await courseWithVideo({ isFree: false, status: "draft" });
    const partial = await readFile(video.id, people.teacher.cookie, { range: "bytes=100-199" });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 100-199/${video.size}`);
    expect(partial.headers.get("content-length")).toBe("100");
    expect(partial.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await partial.arrayBuffer())).toEqual(videoOf(64 * 1024).subarray(100, 200));
    const tail = await readFile(video.id, people.teacher.cookie, { range: "bytes=-10" });
    expect(tail.status).toBe(206);
    expect((await tail.arrayBuffer()).byteLength).toBe(10);
    const outside = await readFile(video.id, people.teacher.cookie, { range: `bytes=${video.size + 10}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get("content-range")).toBe(`bytes */${video.size}`);
    const whole = await readFile(video.id, people.teacher.cookie);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/webm");
    expect(whole.headers.get("cache-control")).toBe("private, max-age=86400");
    const again = await readFile(video.id, people.teacher.cookie, { "if-none-match": whole.headers.get("etag")! });
    expect(again.status).toBe(304);
  });

  it("shows a lesson's files to its teacher and admins only, and to everyone once it is a free preview of a published course", async () => {
    const { video, attachment, course, lesson } = await courseWithVideo({ isFree: false, status: "draft" });
    for (const id of [video.id, attachment.id]) {
      expect((await readFile(id, people.teacher.cookie)).status).toBe(200);
      expect((await readFile(id, people.admin.cookie)).status).toBe(200);
      expect((await readFile(id, people.otherTeacher.cookie)).status).toBe(404);
      expect((await readFile(id, people.student.cookie)).status).toBe(404);
      expect((await readFile(id, null)).status).toBe(404);
    }
    const attachmentResponse = await readFile(attachment.id, people.teacher.cookie);
    expect(attachmentResponse.headers.get("content-disposition")).toBe(`inline; filename="fiche.pdf"; filename*=UTF-8''fiche.pdf`);

    // A free preview, but the course is still a draft: still private.
    await handle.db.update(courses).set({ status: "draft" }).where(eq(courses.id, course.id));
    const freeDraft = await updateCourse(handle.db, people.teacher.actor, course.id, {
      title: course.title,
      description: course.description,
      category: "energie",
      level: "debutant",
      status: "draft",
      lessons: [{ id: lesson.id, title: lesson.title, videoFileId: video.id, attachmentIds: [attachment.id], isFree: true }],
    });
    expect(freeDraft.course.status).toBe("draft");
    expect((await readFile(video.id, null)).status).toBe(404);
    await handle.db.update(courses).set({ status: "published" }).where(eq(courses.id, course.id));
    expect((await readFile(video.id, null)).status).toBe(200);
    expect((await readFile(attachment.id, people.student.cookie)).status).toBe(200);
  });

  it("keeps an upload not yet in a course to its uploader (and admins)", async () => {
    const video = await upload(videoOf(10 * 1024), { cookie: people.teacher.cookie, purpose: "lesson_video", type: "video/webm" });
    expect((await readFile(video.id, people.teacher.cookie)).status).toBe(200);
    expect((await readFile(video.id, people.admin.cookie)).status).toBe(200);
    expect((await readFile(video.id, people.otherTeacher.cookie)).status).toBe(404);
    expect((await readFile(video.id, null)).status).toBe(404);
    expect((await readFile("../../etc/passwd", people.admin.cookie)).status).toBe(404);
  });

  it("serves a course thumbnail to everyone, at each width, with a long public cache", async () => {
    const image = await sharp({ create: { width: 800, height: 450, channels: 3, background: "#345" } })
      .jpeg()
      .toBuffer();
    const thumb = await upload(image, { cookie: people.teacher.cookie, purpose: "thumbnail", type: "image/jpeg" });
    const result = await createCourse(handle.db, people.teacher.actor, {
      title: "Avec couverture",
      description: "d",
      category: "tech",
      level: "debutant",
      thumbnailFileId: thumb.id,
    });
    expect(result.course.thumbnailFileId).toBe(thumb.id);
    const small = await readFile(thumb.id, null, {}, "?largeur=320");
    expect(small.status).toBe(200);
    expect(small.headers.get("content-type")).toBe("image/webp");
    expect(small.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await readFile(thumb.id, null, {}, "?largeur=1280")).status).toBe(404); // never enlarged: no such width
    expect((await readFile(thumb.id, null, {}, "?largeur=abc")).status).toBe(404);
  });
});

describe("file housekeeping", () => {
  it("releases a replaced thumbnail and a removed document, then deletes abandoned files and their bytes", async () => {
    const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#999" } })
      .png()
      .toBuffer();
    const first = await upload(image, { cookie: people.teacher.cookie, purpose: "thumbnail", type: "image/png" });
    const second = await upload(image, { cookie: people.teacher.cookie, purpose: "thumbnail", type: "image/png" });
    const document = await upload(Buffer.from("Notes\n"), {
      cookie: people.teacher.cookie,
      purpose: "lesson_attachment",
      name: "notes.txt",
      type: "text/plain",
    });
    const base = { title: "Ménage", description: "d", category: "tech", level: "debutant" };
    const created = await createCourse(handle.db, people.teacher.actor, {
      ...base,
      thumbnailFileId: first.id,
      lessons: [{ title: "L1", attachmentIds: [document.id] }],
    });
    const updated = await updateCourse(handle.db, people.teacher.actor, created.course.id, {
      ...base,
      thumbnailFileId: second.id,
      lessons: [{ id: created.lessons[0]!.id, title: "L1", attachmentIds: [] }],
    });
    expect(updated.course.thumbnailFileId).toBe(second.id);
    const rows = await handle.db.select().from(files);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(first.id)?.courseId).toBeNull();
    expect(byId.get(document.id)).toMatchObject({ courseId: null, lessonId: null });
    expect(byId.get(second.id)?.courseId).toBe(created.course.id);

    const firstKey = byId.get(first.id)!.storageKey;
    expect(await storage.stat(firstKey)).not.toBeNull();
    const removed = await deleteUnattachedFiles(handle.db, storage, new Date(Date.now() + 1000));
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(await storage.stat(firstKey)).toBeNull();
    const remaining = new Set((await handle.db.select({ id: files.id }).from(files)).map((row) => row.id));
    expect(remaining.has(first.id)).toBe(false);
    expect(remaining.has(document.id)).toBe(false);
    expect(remaining.has(second.id)).toBe(true);
  });
});
