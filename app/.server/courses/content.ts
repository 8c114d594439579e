import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { FILE_NAME_MAX, purposeOfKind, type ContentFilters, type ContentTarget } from "~/lib/content";
import type { UploadPurpose } from "~/lib/uploads";
import type { Actor } from "../auth/actor";
import type { Database } from "../db/client";
import { courses, files, lessons, videoTranscodes } from "../db/schema";
import { AppError, validate } from "../errors";
import {
  canUseUnattachedFile,
  claimFiles,
  deleteFileRow,
  deleteStoredBytes,
  releaseUnusedCourseFiles,
  renamedFileName,
  renameFile,
  setAttachmentLesson,
  usableUnattachedFilesWhere,
} from "../files";
import type { FileStorage } from "../storage";
import { canAuthor, canManageCourse, managedCoursesWhere } from "./policy";

/**
 * "Gérer Contenus": the files of the courses an actor manages (a teacher their own, an admin
 * every course), where each is used, and what a teacher does with them: rename, attach to a
 * lesson, replace everywhere it is used, take off a lesson, delete one nothing uses. The files
 * table is written through the files capability; lessons and courses (a lesson's video, a
 * course's cover) here, under the course row's lock like the course form.
 */

/** Unknown, or not the actor's: both "not found", so a file id tells nothing. */
const fileNotFound = () => AppError.notFound("Fichier introuvable.");

/** At most this many files are listed at once (an admin sees every course): filter by course for the rest. */
export const CONTENT_LIST_LIMIT = 300;

export type ContentUse = { label: string; lessonId: number | null };

export type ContentFile = {
  id: string;
  name: string;
  purpose: UploadPurpose;
  contentType: string;
  size: number;
  /** Bytes of the low-data versions (videos) stored beside the original. */
  versionsSize: number;
  createdAt: Date;
  courseId: number | null;
  uses: ContentUse[];
  /** A video's low-data versions: where their making stands, and which exist. */
  transcode: { status: "pending" | "running" | "ready" | "failed"; progress: number; versions: string[] } | null;
};

export type ContentCourse = {
  id: number;
  title: string;
  status: "draft" | "published" | "archived";
  lessons: { id: number; title: string; position: number }[];
  files: ContentFile[];
};

export type CourseContent = {
  courses: ContentCourse[];
  /** The actor's uploads that no lesson uses (yet): removed by maintenance a day after they were sent. */
  unattached: ContentFile[];
  /** Every file the actor manages, whatever the filters. */
  totals: { files: number; bytes: number; versionsBytes: number; videos: number; videosReady: number; unattached: number };
  /** More files than listed: the list asks to filter. */
  truncated: boolean;
};

const fileColumns = {
  id: files.id,
  name: files.originalName,
  purpose: files.purpose,
  contentType: files.contentType,
  size: files.size,
  createdAt: files.createdAt,
  courseId: files.courseId,
  lessonId: files.lessonId,
  transcodeStatus: videoTranscodes.status,
  transcodeProgress: videoTranscodes.progress,
  renditions: videoTranscodes.renditions,
};

const versionsSizeSql = sql<number>`coalesce((select sum((value->>'size')::bigint) from jsonb_each(${videoTranscodes.renditions})), 0)`;

function assertAuthor(actor: Actor) {
  if (!canAuthor(actor)) throw fileNotFound();
}

/** The content of the actor's courses, per course, with the filters of the page. */
export async function listCourseContent(db: Database, actor: Actor, filters: ContentFilters): Promise<CourseContent> {
  assertAuthor(actor);
  const managed = managedCoursesWhere(actor);
  const courseScope = and(managed, filters.course ? eq(courses.id, filters.course) : undefined);
  const scopedIds = db.select({ id: courses.id }).from(courses).where(courseScope);
  const purpose = filters.kind && filters.kind !== "quiz" ? purposeOfKind[filters.kind] : null;
  const wantFiles = filters.kind !== "quiz";
  // Every read names the courses by a subquery, so that all go at once: one round trip, not five.
  const [courseRows, lessonRows, fileRows, unattachedRows, [totals]] = await Promise.all([
    db
      .select({ id: courses.id, title: courses.title, status: courses.status, thumbnailFileId: courses.thumbnailFileId })
      .from(courses)
      .where(courseScope)
      .orderBy(asc(courses.title), asc(courses.id)),
    db
      .select({
        id: lessons.id,
        courseId: lessons.courseId,
        title: lessons.title,
        position: lessons.position,
        videoFileId: lessons.videoFileId,
      })
      .from(lessons)
      .where(inArray(lessons.courseId, scopedIds))
      .orderBy(asc(lessons.position), asc(lessons.id)),
    wantFiles
      ? db
          .select({ ...fileColumns, versionsSize: versionsSizeSql })
          .from(files)
          .leftJoin(videoTranscodes, eq(videoTranscodes.fileId, files.id))
          .where(and(inArray(files.courseId, scopedIds), purpose ? eq(files.purpose, purpose) : undefined))
          .orderBy(asc(files.purpose), asc(files.originalName), asc(files.id))
          .limit(CONTENT_LIST_LIMIT + 1)
      : [],
    wantFiles && !filters.course
      ? db
          .select({ ...fileColumns, versionsSize: versionsSizeSql })
          .from(files)
          .leftJoin(videoTranscodes, eq(videoTranscodes.fileId, files.id))
          .where(and(usableUnattachedFilesWhere(actor), purpose ? eq(files.purpose, purpose) : undefined))
          .orderBy(desc(files.createdAt), asc(files.id))
          .limit(CONTENT_LIST_LIMIT)
      : [],
    db
      .select({
        files: sql<number>`count(*)`.mapWith(Number),
        bytes: sql<number>`coalesce(sum(${files.size}), 0)`.mapWith(Number),
        versionsBytes: sql<number>`coalesce(sum(${versionsSizeSql}), 0)`.mapWith(Number),
        videos: sql<number>`count(*) filter (where ${files.purpose} = 'lesson_video')`.mapWith(Number),
        videosReady: sql<number>`count(*) filter (where ${videoTranscodes.status} = 'ready')`.mapWith(Number),
        unattached: sql<number>`count(*) filter (where ${files.courseId} is null)`.mapWith(Number),
      })
      .from(files)
      .leftJoin(videoTranscodes, eq(videoTranscodes.fileId, files.id))
      .where(sql`(${files.courseId} in (select ${courses.id} from ${courses} where ${managed}) or ${usableUnattachedFilesWhere(actor)})`),
  ]);
  const truncated = fileRows.length > CONTENT_LIST_LIMIT;

  const lessonTitle = new Map(lessonRows.map((lesson) => [lesson.id, `Leçon ${lesson.position + 1} · ${lesson.title}`]));
  const usesOf = (row: (typeof fileRows)[number]): ContentUse[] => {
    if (row.purpose === "lesson_attachment") {
      return row.lessonId && lessonTitle.has(row.lessonId) ? [{ label: lessonTitle.get(row.lessonId)!, lessonId: row.lessonId }] : [];
    }
    if (row.purpose === "lesson_video") {
      return lessonRows
        .filter((lesson) => lesson.videoFileId === row.id)
        .map((lesson) => ({ label: lessonTitle.get(lesson.id)!, lessonId: lesson.id }));
    }
    return courseRows.some((course) => course.thumbnailFileId === row.id)
      ? [{ label: "Image de couverture du cours", lessonId: null }]
      : [];
  };
  const toFile = (row: (typeof fileRows)[number]): ContentFile => ({
    id: row.id,
    name: row.name,
    purpose: row.purpose,
    contentType: row.contentType,
    size: row.size,
    versionsSize: Number(row.versionsSize),
    createdAt: row.createdAt,
    courseId: row.courseId,
    uses: row.courseId === null ? [] : usesOf(row),
    transcode:
      row.purpose === "lesson_video" && row.transcodeStatus
        ? {
            status: row.transcodeStatus,
            progress: row.transcodeProgress ?? 0,
            versions: Object.values(row.renditions ?? {})
              .map((rendition) => `${rendition.height}p`)
              .sort((a, b) => parseInt(a) - parseInt(b)),
          }
        : null,
  });

  const filesByCourse = new Map<number, ContentFile[]>();
  for (const row of fileRows.slice(0, CONTENT_LIST_LIMIT)) {
    const list = filesByCourse.get(row.courseId!) ?? [];
    list.push(toFile(row));
    filesByCourse.set(row.courseId!, list);
  }
  return {
    courses: courseRows.map((course) => ({
      id: course.id,
      title: course.title,
      status: course.status,
      lessons: lessonRows.filter((lesson) => lesson.courseId === course.id).map(({ id, title, position }) => ({ id, title, position })),
      files: filesByCourse.get(course.id) ?? [],
    })),
    unattached: unattachedRows.map(toFile),
    totals: totals ?? { files: 0, bytes: 0, versionsBytes: 0, videos: 0, videosReady: 0, unattached: 0 },
    truncated,
  };
}

type LockedFile = {
  id: string;
  name: string;
  purpose: UploadPurpose;
  courseId: number | null;
  lessonId: number | null;
  uploadedBy: string | null;
};

/**
 * The file `id` locked for this transaction, if the actor may work on it: a file of a course they
 * manage (whose row is locked too, as the course form locks it), or an upload of theirs not
 * attached yet (any for an admin). "Not found" otherwise.
 */
async function lockManagedFile(tx: Database, actor: Actor, id: string): Promise<LockedFile> {
  assertAuthor(actor);
  if (typeof id !== "string" || !id || id.length > 200) throw fileNotFound();
  const [file] = await tx
    .select({
      id: files.id,
      name: files.originalName,
      purpose: files.purpose,
      courseId: files.courseId,
      lessonId: files.lessonId,
      uploadedBy: files.uploadedBy,
    })
    .from(files)
    .where(eq(files.id, id))
    .for("update");
  if (!file) throw fileNotFound();
  if (file.courseId === null) {
    if (!canUseUnattachedFile(actor, file)) throw fileNotFound();
    return file;
  }
  const [course] = await tx.select({ instructorId: courses.instructorId }).from(courses).where(eq(courses.id, file.courseId)).for("update");
  if (!course || !canManageCourse(actor, course)) throw fileNotFound();
  return file;
}

/** The course `id` locked, if the actor manages it; an "invalid" message beside `field` otherwise. */
async function lockManagedCourse(tx: Database, actor: Actor, id: number, field: string) {
  const [course] = await tx
    .select({ id: courses.id, instructorId: courses.instructorId })
    .from(courses)
    .where(eq(courses.id, id))
    .for("update");
  if (!course || !canManageCourse(actor, course)) throw AppError.invalid({ [field]: "Choisissez un de vos cours." });
  return course;
}

/** Where the file is used now: the lessons showing it, the course it covers. */
async function usesOfFile(tx: Database, file: LockedFile): Promise<string[]> {
  if (file.courseId === null) return [];
  if (file.purpose === "lesson_attachment") {
    if (!file.lessonId) return [];
    const [lesson] = await tx.select({ title: lessons.title }).from(lessons).where(eq(lessons.id, file.lessonId));
    return lesson ? [`la leçon « ${lesson.title} »`] : [];
  }
  if (file.purpose === "lesson_video") {
    const rows = await tx
      .select({ title: lessons.title })
      .from(lessons)
      .where(eq(lessons.videoFileId, file.id))
      .orderBy(asc(lessons.position), asc(lessons.id));
    return rows.map((row) => `la leçon « ${row.title} »`);
  }
  const rows = await tx.select({ title: courses.title }).from(courses).where(eq(courses.thumbnailFileId, file.id));
  return rows.map((row) => `la couverture du cours « ${row.title} »`);
}

const renameSchema = z.object({
  name: z
    .string({ error: "Indiquez un nom." })
    .trim()
    .min(1, "Indiquez un nom.")
    .max(FILE_NAME_MAX, `${FILE_NAME_MAX} caractères au plus.`),
});

/** "Renommer": the name learners see and download the file under (its extension kept). */
export async function renameContentFile(db: Database, actor: Actor, fileId: string, input: unknown) {
  const { name } = validate(renameSchema, input, "Le fichier n'a pas été renommé.");
  return db.transaction(async (tx) => {
    const file = await lockManagedFile(tx, actor, fileId);
    const renamed = renamedFileName(file.name, name);
    await renameFile(tx, file.id, renamed);
    return { name: renamed };
  });
}

/** The lesson `lessonId`, locked with its course, if the actor manages that course. */
async function lessonTarget(tx: Database, actor: Actor, lessonId: number, field: string) {
  const [lesson] = await tx.select({ id: lessons.id, courseId: lessons.courseId }).from(lessons).where(eq(lessons.id, lessonId));
  if (!lesson) throw AppError.invalid({ [field]: "Choisissez une leçon de vos cours." });
  await lockManagedCourse(tx, actor, lesson.courseId, field).catch(() => {
    throw AppError.invalid({ [field]: "Choisissez une leçon de vos cours." });
  });
  return lesson;
}

/**
 * "Rattacher": a video becomes the video of a lesson (the one it had goes back to the unattached
 * pool if nothing else uses it), a document moves to a lesson, an image becomes a course's cover.
 * A file stays in its course: another course needs its own upload.
 */
export async function attachContentFile(db: Database, actor: Actor, fileId: string, target: ContentTarget | null) {
  const field = "target";
  return db.transaction(async (tx) => {
    const file = await lockManagedFile(tx, actor, fileId);
    if (!target) throw AppError.invalid({ [field]: "Choisissez où utiliser ce fichier." });
    if (file.purpose === "thumbnail" && target.kind !== "cover") {
      throw AppError.invalid({ [field]: "Une image de couverture va sur un cours, pas sur une leçon." });
    }
    if (file.purpose !== "thumbnail" && target.kind !== "lesson") {
      throw AppError.invalid({ [field]: "Une vidéo ou un document va sur une leçon." });
    }
    const courseId =
      target.kind === "lesson"
        ? (await lessonTarget(tx, actor, target.lessonId, field)).courseId
        : (await lockManagedCourse(tx, actor, target.courseId, field)).id;
    if (file.courseId !== null && file.courseId !== courseId) {
      throw AppError.invalid({ [field]: "Ce fichier appartient à un autre cours : envoyez-le de nouveau pour celui-ci." });
    }
    await claimFiles(tx, actor, courseId, [{ field, id: file.id, purpose: file.purpose }]);
    if (target.kind === "cover") {
      await tx.update(courses).set({ thumbnailFileId: file.id }).where(eq(courses.id, courseId));
    } else if (file.purpose === "lesson_video") {
      await tx.update(lessons).set({ videoFileId: file.id }).where(eq(lessons.id, target.lessonId));
    } else {
      await setAttachmentLesson(tx, courseId, file.id, target.lessonId);
    }
    await releaseUnusedCourseFiles(tx, courseId);
    return { name: file.name };
  });
}

/**
 * "Remplacer": a new upload of the same kind takes the file's place wherever it is used (every
 * lesson showing a video, the lesson of a document, the course of a cover); the old one goes back
 * to the unattached pool. Returns how many places changed.
 */
export async function replaceContentFile(db: Database, actor: Actor, fileId: string, replacementId: unknown) {
  const field = "replacementId";
  return db.transaction(async (tx) => {
    const file = await lockManagedFile(tx, actor, fileId);
    if (file.courseId === null) throw AppError.invalid({ [field]: "Ce fichier n'est utilisé nulle part : rattachez-le plutôt." });
    if (typeof replacementId !== "string" || !replacementId || replacementId === file.id) {
      throw AppError.invalid({ [field]: "Envoyez d'abord le nouveau fichier." });
    }
    const [replacement] = await tx.select({ purpose: files.purpose }).from(files).where(eq(files.id, replacementId));
    if (replacement && replacement.purpose !== file.purpose) {
      throw AppError.invalid({ [field]: "Le nouveau fichier doit être du même type que celui qu'il remplace." });
    }
    await claimFiles(tx, actor, file.courseId, [{ field, id: replacementId, purpose: file.purpose }]);
    let places = 0;
    if (file.purpose === "lesson_video") {
      places = (
        await tx
          .update(lessons)
          .set({ videoFileId: replacementId })
          .where(and(eq(lessons.courseId, file.courseId), eq(lessons.videoFileId, file.id)))
          .returning({ id: lessons.id })
      ).length;
    } else if (file.purpose === "lesson_attachment") {
      if (file.lessonId) {
        await setAttachmentLesson(tx, file.courseId, file.id, null);
        await setAttachmentLesson(tx, file.courseId, replacementId, file.lessonId);
        places = 1;
      }
    } else {
      places = (
        await tx
          .update(courses)
          .set({ thumbnailFileId: replacementId })
          .where(and(eq(courses.id, file.courseId), eq(courses.thumbnailFileId, file.id)))
          .returning({ id: courses.id })
      ).length;
    }
    await releaseUnusedCourseFiles(tx, file.courseId);
    return { places };
  });
}

/**
 * "Retirer": the file leaves a lesson (`lessonId`) or, without one, every place it is used. Used
 * nowhere any more, it goes back to the unattached pool, where it can be attached again or deleted.
 */
export async function detachContentFile(db: Database, actor: Actor, fileId: string, lessonId: number | null) {
  return db.transaction(async (tx) => {
    const file = await lockManagedFile(tx, actor, fileId);
    if (file.courseId === null) throw AppError.conflict("Ce fichier n'est déjà utilisé nulle part.", "unused");
    if (file.purpose === "lesson_video") {
      await tx
        .update(lessons)
        .set({ videoFileId: null })
        .where(and(eq(lessons.courseId, file.courseId), eq(lessons.videoFileId, file.id), lessonId ? eq(lessons.id, lessonId) : undefined));
    } else if (file.purpose === "lesson_attachment") {
      if (!lessonId || file.lessonId === lessonId) await setAttachmentLesson(tx, file.courseId, file.id, null);
    } else {
      await tx
        .update(courses)
        .set({ thumbnailFileId: null })
        .where(and(eq(courses.id, file.courseId), eq(courses.thumbnailFileId, file.id)));
    }
    await releaseUnusedCourseFiles(tx, file.courseId);
    return { name: file.name };
  });
}

/**
 * "Supprimer": a file nothing uses is deleted with its bytes and versions. A file still used is
 * refused (conflict) with where it is used: the teacher replaces it or takes it off first.
 */
export async function deleteContentFile(db: Database, storage: FileStorage, actor: Actor, fileId: string) {
  const { name, keys } = await db.transaction(async (tx) => {
    const file = await lockManagedFile(tx, actor, fileId);
    const uses = await usesOfFile(tx, file);
    if (uses.length) {
      throw AppError.conflict(
        `« ${file.name} » est encore utilisé par ${uses.join(", ")} : retirez-le ou remplacez-le avant de le supprimer.`,
        "in_use",
      );
    }
    return { name: file.name, keys: await deleteFileRow(tx, file.id) };
  });
  await deleteStoredBytes(storage, keys);
  return { name };
}
