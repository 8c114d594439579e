import { and, asc, eq, inArray, isNull, like, notInArray, or, sql } from "drizzle-orm";
import { emptyCourseValues, type CourseFormValues } from "~/lib/course-form";
import type { UploadPurpose } from "~/lib/uploads";
import type { Actor } from "../auth/actor";
import { listCategories, listLevels } from "../catalogue";
import type { Database } from "../db/client";
import { categories, courses, files, lessons, levels, users } from "../db/schema";
import { canAuthorCourses, CourseNotFoundError, getManagedCourse, type Course } from "./access";
import { recomputeCourseProgress } from "../enrolments";
import { courseFieldErrors, courseFormSchema, type CourseFormData } from "./form-schema";

export type Lesson = typeof lessons.$inferSelect;

export type SaveCourseResult =
  | { ok: true; course: Course; lessons: Lesson[]; becamePublished: boolean }
  | { ok: false; fieldErrors: Record<string, string>; formError: string | null };

/** Only teachers and admins author courses; anyone else gets the same 404 as a foreign course. */
function assertAuthor(actor: Actor) {
  if (!canAuthorCourses(actor)) throw new CourseNotFoundError();
}

/** A bad input found inside the transaction (unknown category, forged lesson id...): rolls it back. */
class FieldError extends Error {
  constructor(readonly fieldErrors: Record<string, string>) {
    super("invalid course input");
  }
}

/** "Énergie Solaire : les bases" → "energie-solaire-les-bases" (at most 80 characters). */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "cours";
}

/** The slug itself if free, else the first free "<slug>-2", "<slug>-3"... */
async function uniqueSlug(tx: Database, base: string): Promise<string> {
  const taken = new Set(
    (await tx.select({ slug: courses.slug }).from(courses).where(or(eq(courses.slug, base), like(courses.slug, `${base}-%`)))).map((row) => row.slug),
  );
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) if (!taken.has(`${base}-${suffix}`)) return `${base}-${suffix}`;
}

async function lookupIds(tx: Database, data: CourseFormData) {
  const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, data.category));
  const [level] = await tx.select({ id: levels.id }).from(levels).where(eq(levels.slug, data.level));
  const errors: Record<string, string> = {};
  if (!category) errors.category = "Choisissez une catégorie de la liste.";
  if (!level) errors.level = "Choisissez un niveau de la liste.";
  if (!category || !level) throw new FieldError(errors);
  return { categoryId: category.id, levelId: level.id };
}

/**
 * Who the course's instructor will be: on creation the actor, unless an admin names a teacher (or
 * admin); on an update the current one unless an admin names another. A teacher may only name
 * themself.
 */
async function resolveInstructor(tx: Database, actor: Actor, requested: string | undefined, current: string | null | undefined): Promise<string | null> {
  if (requested === undefined) return current === undefined ? actor.id : current;
  if (requested === current || (current === undefined && requested === actor.id)) return requested;
  if (actor.role !== "admin") throw new FieldError({ instructorId: "Seul un administrateur peut attribuer le cours à un autre formateur." });
  const [user] = await tx.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, requested));
  if (!user || user.banned || (user.role !== "teacher" && user.role !== "admin")) {
    throw new FieldError({ instructorId: "Choisissez un formateur de la liste." });
  }
  return requested;
}

/**
 * Uploaded files named by the form must exist with the right purpose, and belong to this course
 * or to nobody yet (then only to their uploader, or an admin): a teacher cannot borrow another
 * course's private video. Unattached ones are attached to the course.
 */
type WantedFile = { field: string; id: string; purpose: UploadPurpose };

const missingFileMessage: Record<UploadPurpose, string> = {
  thumbnail: "Cette image est introuvable : envoyez-la de nouveau.",
  lesson_video: "Cette vidéo est introuvable : envoyez-la de nouveau.",
  lesson_attachment: "Un document est introuvable : envoyez-le de nouveau.",
};

async function claimFiles(tx: Database, actor: Actor, courseId: number, wanted: WantedFile[]) {
  if (!wanted.length) return;
  const rows = await tx
    .select({ id: files.id, purpose: files.purpose, courseId: files.courseId, uploadedBy: files.uploadedBy })
    .from(files)
    .where(inArray(files.id, [...new Set(wanted.map((item) => item.id))]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const errors: Record<string, string> = {};
  const toClaim: string[] = [];
  for (const item of wanted) {
    const row = byId.get(item.id);
    const usable =
      row &&
      row.purpose === item.purpose &&
      (row.courseId === courseId || (row.courseId === null && (actor.role === "admin" || row.uploadedBy === actor.id)));
    if (!usable) errors[item.field] = missingFileMessage[item.purpose];
    else if (row.courseId === null) toClaim.push(row.id);
  }
  if (Object.keys(errors).length) throw new FieldError(errors);
  if (toClaim.length) await tx.update(files).set({ courseId }).where(inArray(files.id, toClaim));
}

/**
 * The lessons as submitted, in place: submitted ids are updated (they must be this course's),
 * new rows inserted, the others deleted; positions follow the submitted order. Learner progress
 * hangs on lesson ids, so a lesson that stays keeps its id whatever else changes.
 */
async function saveLessons(tx: Database, courseId: number, submitted: CourseFormData["lessons"], now: Date): Promise<Lesson[]> {
  const existing = new Set((await tx.select({ id: lessons.id }).from(lessons).where(eq(lessons.courseId, courseId))).map((row) => row.id));
  const errors: Record<string, string> = {};
  const seen = new Set<number>();
  submitted.forEach((lesson, index) => {
    if (lesson.id === undefined) return;
    if (!existing.has(lesson.id) || seen.has(lesson.id)) errors[`lessons.${index}.id`] = "Cette leçon n'appartient pas à ce cours.";
    seen.add(lesson.id);
  });
  if (Object.keys(errors).length) throw new FieldError(errors);

  const removed = [...existing].filter((id) => !seen.has(id));
  if (removed.length) await tx.delete(lessons).where(and(eq(lessons.courseId, courseId), inArray(lessons.id, removed)));
  for (const [position, lesson] of submitted.entries()) {
    const values = {
      title: lesson.title,
      description: lesson.description,
      content: lesson.content,
      videoUrl: lesson.videoUrl,
      durationMinutes: lesson.durationMinutes,
      isFree: lesson.isFree,
      position,
      updatedAt: now,
      ...(lesson.videoFileId !== undefined ? { videoFileId: lesson.videoFileId } : {}),
    };
    let lessonId = lesson.id;
    if (lessonId === undefined) {
      const [inserted] = await tx.insert(lessons).values({ ...values, courseId, createdAt: now }).returning({ id: lessons.id });
      lessonId = inserted!.id;
    } else {
      await tx.update(lessons).set(values).where(and(eq(lessons.id, lessonId), eq(lessons.courseId, courseId)));
    }
    if (lesson.attachmentIds !== undefined) await setAttachments(tx, courseId, lessonId, lesson.attachmentIds);
  }
  return tx.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position), asc(lessons.id));
}

/** Exactly these documents (already claimed for the course) hang on the lesson, no others. */
async function setAttachments(tx: Database, courseId: number, lessonId: number, attachmentIds: string[]) {
  const kept = attachmentIds.length ? notInArray(files.id, attachmentIds) : undefined;
  await tx
    .update(files)
    .set({ lessonId: null })
    .where(and(eq(files.lessonId, lessonId), kept));
  if (attachmentIds.length) {
    await tx
      .update(files)
      .set({ lessonId })
      .where(and(inArray(files.id, attachmentIds), eq(files.courseId, courseId), eq(files.purpose, "lesson_attachment")));
  }
}

/**
 * Files of the course that nothing uses any more (a replaced thumbnail or video, a removed
 * document or lesson) go back to the unattached pool, whose bytes the maintenance job deletes.
 */
async function releaseUnreferencedFiles(tx: Database, courseId: number) {
  await tx
    .update(files)
    .set({ courseId: null, lessonId: null })
    .where(
      and(
        eq(files.courseId, courseId),
        isNull(files.lessonId),
        sql`${files.id} is distinct from (select ${courses.thumbnailFileId} from ${courses} where ${courses.id} = ${courseId})`,
        sql`not exists (select 1 from ${lessons} where ${lessons.courseId} = ${courseId} and ${lessons.videoFileId} = ${files.id})`,
      ),
    );
}

function filesToClaim(data: CourseFormData) {
  const wanted: WantedFile[] = [];
  if (data.thumbnailFileId) wanted.push({ field: "thumbnailFileId", id: data.thumbnailFileId, purpose: "thumbnail" });
  data.lessons.forEach((lesson, index) => {
    if (lesson.videoFileId) wanted.push({ field: `lessons.${index}.videoFileId`, id: lesson.videoFileId, purpose: "lesson_video" });
    for (const id of lesson.attachmentIds ?? []) wanted.push({ field: `lessons.${index}.attachmentIds`, id, purpose: "lesson_attachment" });
  });
  return wanted;
}

function courseColumns(data: CourseFormData, ids: { categoryId: number; levelId: number }) {
  return {
    title: data.title,
    description: data.description,
    categoryId: ids.categoryId,
    levelId: ids.levelId,
    durationWeeks: data.durationWeeks,
    priceFcfa: data.priceFcfa,
    maxStudents: data.maxStudents,
    liveSessionUrl: data.liveSessionUrl,
    nextLiveAt: data.nextLiveAt,
    objectives: data.objectives,
    prerequisites: data.prerequisites,
    status: data.status,
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

async function runSave(save: () => Promise<SaveCourseResult & { ok: true }>, failure: string): Promise<SaveCourseResult> {
  try {
    return await save();
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, fieldErrors: error.fieldErrors, formError: "Le cours n'a pas été enregistré : corrigez les champs signalés." };
    if (isUniqueViolation(error)) return { ok: false, fieldErrors: {}, formError: `${failure} : réessayez.` };
    throw error;
  }
}

function invalid(error: Parameters<typeof courseFieldErrors>[0]): SaveCourseResult {
  return { ok: false, fieldErrors: courseFieldErrors(error), formError: "Le cours n'a pas été enregistré : corrigez les champs signalés." };
}

/**
 * "Créer un Nouveau Cours": one transaction for the course, its lessons and its files. The slug
 * comes from the title (accents dropped, "-2", "-3"... when taken); the actor is the instructor
 * unless an admin assigns a teacher. Bad input is a result, never an exception.
 */
export async function createCourse(db: Database, actor: Actor, input: unknown, now = new Date()): Promise<SaveCourseResult> {
  assertAuthor(actor);
  const parsed = courseFormSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const data = parsed.data;
  const attempt = () =>
    db.transaction(async (tx) => {
      const ids = await lookupIds(tx, data);
      const instructorId = await resolveInstructor(tx, actor, data.instructorId, undefined);
      const forged = data.lessons.findIndex((lesson) => lesson.id !== undefined);
      if (forged >= 0) throw new FieldError({ [`lessons.${forged}.id`]: "Cette leçon n'appartient pas à ce cours." });
      const [{ next } = { next: 0 }] = await tx.select({ next: sql<number>`coalesce(max(${courses.position}), 0) + 1` }).from(courses);
      const [course] = await tx
        .insert(courses)
        .values({
          ...courseColumns(data, ids),
          slug: await uniqueSlug(tx, slugify(data.title)),
          instructorId,
          position: Number(next),
          publishedAt: data.status === "published" ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await claimFiles(tx, actor, course!.id, filesToClaim(data));
      if (data.thumbnailFileId) await tx.update(courses).set({ thumbnailFileId: data.thumbnailFileId }).where(eq(courses.id, course!.id));
      const saved = await saveLessons(tx, course!.id, data.lessons, now);
      await releaseUnreferencedFiles(tx, course!.id);
      const [fresh] = await tx.select().from(courses).where(eq(courses.id, course!.id));
      return { ok: true as const, course: fresh!, lessons: saved, becamePublished: data.status === "published" };
    });
  // Two courses of the same title created at the same instant: the unique slug decides, retry once.
  return runSave(async () => {
    try {
      return await attempt();
    } catch (error) {
      if (isUniqueViolation(error)) return attempt();
      throw error;
    }
  }, "Impossible de créer le cours");
}

/**
 * "Modifier le Cours": the course (a teacher's own, or any for an admin: a 404 otherwise), its
 * lessons in place and its files, in one transaction. The slug stays (public links keep working);
 * publishedAt is set when the course becomes published and cleared when it leaves that status.
 */
export async function updateCourse(db: Database, actor: Actor, courseId: number, input: unknown, now = new Date()): Promise<SaveCourseResult> {
  assertAuthor(actor);
  await getManagedCourse(db, actor, courseId);
  const parsed = courseFormSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const data = parsed.data;
  return runSave(
    () =>
      db.transaction(async (tx) => {
        // Re-read under lock: the access rule is checked on the row this transaction changes.
        const [current] = await tx.select().from(courses).where(eq(courses.id, courseId)).for("update");
        if (!current || (actor.role !== "admin" && current.instructorId !== actor.id)) throw new CourseNotFoundError();
        const ids = await lookupIds(tx, data);
        const instructorId = await resolveInstructor(tx, actor, data.instructorId, current.instructorId);
        await claimFiles(tx, actor, courseId, filesToClaim(data));
        const becamePublished = data.status === "published" && current.status !== "published";
        const publishedAt = data.status !== "published" ? null : becamePublished ? now : (current.publishedAt ?? now);
        const [course] = await tx
          .update(courses)
          .set({
            ...courseColumns(data, ids),
            instructorId,
            publishedAt,
            updatedAt: now,
            ...(data.thumbnailFileId !== undefined ? { thumbnailFileId: data.thumbnailFileId } : {}),
          })
          .where(eq(courses.id, courseId))
          .returning();
        const saved = await saveLessons(tx, courseId, data.lessons, now);
        await releaseUnreferencedFiles(tx, courseId);
        // A lesson added or removed changes every learner's share of lessons done.
        await recomputeCourseProgress(tx, courseId, now);
        return { ok: true as const, course: course!, lessons: saved, becamePublished };
      }),
    "Impossible de mettre à jour le cours",
  );
}

/** The course as its form shows it: the row, its lessons in order, its category and level slugs. */
export async function getCourseForEditing(db: Database, actor: Actor, id: number) {
  assertAuthor(actor);
  const course = await getManagedCourse(db, actor, id);
  const courseLessons = await db.select().from(lessons).where(eq(lessons.courseId, id)).orderBy(asc(lessons.position), asc(lessons.id));
  const [category] = await db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, course.categoryId));
  const [level] = await db.select({ slug: levels.slug }).from(levels).where(eq(levels.id, course.levelId));
  return { course, lessons: courseLessons, categorySlug: category?.slug ?? "", levelSlug: level?.slug ?? "" };
}

export type CourseForEditing = Awaited<ReturnType<typeof getCourseForEditing>>;

/** A stored file as the course form shows it (name, size, a preview for a thumbnail). */
export type FormFile = { id: string; name: string; size: number; contentType: string; purpose: UploadPurpose };

/**
 * The files a form may name, described: those of the course being edited (the actor manages it,
 * checked by the caller) and the actor's own uploads not yet attached (any for an admin). Other
 * ids are left out, so a forged id shows nothing.
 */
export async function describeFormFiles(db: Database, actor: Actor, courseId: number | null, ids: string[]): Promise<Record<string, FormFile>> {
  const wanted = [...new Set(ids.filter(Boolean))].slice(0, 500);
  if (!wanted.length) return {};
  const unattached = actor.role === "admin" ? isNull(files.courseId) : and(isNull(files.courseId), eq(files.uploadedBy, actor.id));
  const rows = await db
    .select({ id: files.id, name: files.originalName, size: files.size, contentType: files.contentType, purpose: files.purpose })
    .from(files)
    .where(and(inArray(files.id, wanted), courseId === null ? unattached : or(eq(files.courseId, courseId), unattached)));
  return Object.fromEntries(rows.map((row) => [row.id, row]));
}

/** Every file id a form's values name. */
export function formFileIds(values: CourseFormValues): string[] {
  return [values.thumbnailFileId, ...values.lessons.flatMap((lesson) => [lesson.videoFileId, ...lesson.attachmentIds])].filter(Boolean);
}

/** "Modifier le Cours": the stored course as the form's values, with its files described. */
export async function getCourseFormValues(db: Database, actor: Actor, id: number) {
  const { course, lessons: courseLessons, categorySlug, levelSlug } = await getCourseForEditing(db, actor, id);
  const attachments = courseLessons.length
    ? await db
        .select({ id: files.id, lessonId: files.lessonId })
        .from(files)
        .where(and(inArray(files.lessonId, courseLessons.map((lesson) => lesson.id)), eq(files.purpose, "lesson_attachment")))
        .orderBy(asc(files.createdAt), asc(files.id))
    : [];
  const values: CourseFormValues = {
    ...emptyCourseValues(),
    title: course.title,
    description: course.description,
    category: categorySlug,
    level: levelSlug,
    durationWeeks: String(course.durationWeeks),
    priceFcfa: String(course.priceFcfa),
    maxStudents: course.maxStudents === null ? "" : String(course.maxStudents),
    liveSessionUrl: course.liveSessionUrl ?? "",
    nextLiveAt: course.nextLiveAt ? course.nextLiveAt.toISOString().slice(0, 16) : "",
    thumbnailFileId: course.thumbnailFileId ?? "",
    instructorId: course.instructorId ?? "",
    status: course.status,
    objectives: course.objectives,
    prerequisites: course.prerequisites,
    lessons: courseLessons.map((lesson) => ({
      key: `l${lesson.id}`,
      id: String(lesson.id),
      title: lesson.title,
      description: lesson.description,
      content: lesson.content,
      videoUrl: lesson.videoUrl ?? "",
      videoFileId: lesson.videoFileId ?? "",
      attachmentIds: attachments.filter((file) => file.lessonId === lesson.id).map((file) => file.id),
      durationMinutes: String(lesson.durationMinutes),
      isFree: lesson.isFree,
    })),
  };
  return {
    course: { id: course.id, slug: course.slug, title: course.title, status: course.status },
    values,
    files: await describeFormFiles(db, actor, course.id, formFileIds(values)),
  };
}

/** The form's choices: categories, levels and, for an admin, the teachers (and admins) to assign. */
export async function listCourseFormOptions(db: Database, actor: Actor) {
  assertAuthor(actor);
  const [categoryOptions, levelOptions] = await Promise.all([listCategories(db), listLevels(db)]);
  const instructors =
    actor.role === "admin"
      ? await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role })
          .from(users)
          .where(and(inArray(users.role, ["teacher", "admin"]), eq(users.banned, false)))
          .orderBy(asc(users.lastName), asc(users.firstName))
      : [];
  return { categories: categoryOptions, levels: levelOptions, instructors };
}
