import { and, asc, eq, inArray, like, or, sql } from "drizzle-orm";
import { emptyCourseValues, type CourseFormValues } from "~/lib/course-form";
import { isRole } from "~/lib/roles";
import { foldText } from "~/lib/text";
import type { UploadPurpose } from "~/lib/uploads";
import type { CourseStatus } from "~/lib/course-status";
import type { Actor } from "../auth/actor";
import { listCategories, listLevels } from "../catalogue";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { categories, courses, files, lessons, levels, users } from "../db/schema";
import { claimFiles, releaseUnusedCourseFiles, setLessonAttachments, usableUnattachedFilesWhere, type WantedFile } from "../files";
import { AppError, validate, type FieldErrors } from "../errors";
import { recomputeCourseProgress } from "../learning";
import { courseNotFound, getManagedCourse, type Course } from "./access";
import { queueLessonsAnnouncement } from "./announcements";
import { courseFormSchema, type CourseFormData } from "./form-schema";
import { canAssignInstructor, canAuthor, canChangeStatus, managedCoursesWhere } from "./policy";

export type Lesson = typeof lessons.$inferSelect;

export type SavedCourse = { course: Course; lessons: Lesson[]; becamePublished: boolean };

const NOT_SAVED = "Le cours n'a pas été enregistré : corrigez les champs signalés.";

/**
 * The course form obeys the status rule of the course list (`canChangeStatus`): a teacher
 * publishes a draft or archives a published course, and nothing else; a new course starts as a
 * draft (or is published at once). Another move is a message beside the field.
 */
function assertStatusMove(actor: Actor, from: CourseStatus, to: CourseStatus) {
  if (from === to || canChangeStatus(actor, from, to)) return;
  throw invalidInput({
    status:
      to === "published"
        ? "Seul un brouillon peut être publié."
        : to === "archived"
          ? "Seul un cours publié peut être archivé."
          : "Seul un administrateur peut remettre un cours en brouillon.",
  });
}

/** Only teachers and admins author courses; anyone else gets the same 404 as a foreign course. */
function assertAuthor(actor: Actor) {
  if (!canAuthor(actor)) throw courseNotFound();
}

/** A bad input found inside the transaction (unknown category, forged lesson id...): rolls it back. */
const invalidInput = (fieldErrors: FieldErrors) => AppError.invalid(fieldErrors, NOT_SAVED);

/** "Énergie Solaire : les bases" → "energie-solaire-les-bases" (at most 80 characters). */
export function slugify(title: string): string {
  const slug = foldText(title)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "cours";
}

/** The slug itself if free, else the first free "<slug>-2", "<slug>-3"... */
async function uniqueSlug(tx: Database, base: string): Promise<string> {
  const taken = new Set(
    (
      await tx
        .select({ slug: courses.slug })
        .from(courses)
        .where(or(eq(courses.slug, base), like(courses.slug, `${base}-%`)))
    ).map((row) => row.slug),
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
  if (!category || !level) throw invalidInput(errors);
  return { categoryId: category.id, levelId: level.id };
}

/**
 * Who the course's instructor will be: on creation the actor, unless an admin names a teacher (or
 * admin); on an update the current one unless an admin names another. A teacher may only name
 * themself.
 */
async function resolveInstructor(
  tx: Database,
  actor: Actor,
  requested: string | undefined,
  current: string | null | undefined,
): Promise<string | null> {
  if (requested === undefined) return current === undefined ? actor.id : current;
  if (requested === current || (current === undefined && requested === actor.id)) return requested;
  if (!canAssignInstructor(actor))
    throw invalidInput({ instructorId: "Seul un administrateur peut attribuer le cours à un autre formateur." });
  const [user] = await tx.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, requested));
  if (!user || user.banned || !canAuthor({ id: requested, role: isRole(user.role) ? user.role : null })) {
    throw invalidInput({ instructorId: "Choisissez un formateur de la liste." });
  }
  return requested;
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
  if (Object.keys(errors).length) throw invalidInput(errors);

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
      const [inserted] = await tx
        .insert(lessons)
        .values({ ...values, courseId, createdAt: now })
        .returning({ id: lessons.id });
      lessonId = inserted!.id;
    } else {
      await tx
        .update(lessons)
        .set(values)
        .where(and(eq(lessons.id, lessonId), eq(lessons.courseId, courseId)));
    }
    if (lesson.attachmentIds !== undefined) await setLessonAttachments(tx, courseId, lessonId, lesson.attachmentIds);
  }
  return tx.select().from(lessons).where(eq(lessons.courseId, courseId)).orderBy(asc(lessons.position), asc(lessons.id));
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

/** A clash on a unique index the retry did not settle: said to the author, who tries again. */
async function runSave(save: () => Promise<SavedCourse>, failure: string): Promise<SavedCourse> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.conflict(`${failure} : réessayez.`);
    throw error;
  }
}

/**
 * "Créer un Nouveau Cours": one transaction for the course, its lessons and its files. The slug
 * comes from the title (accents dropped, "-2", "-3"... when taken); the actor is the instructor
 * unless an admin assigns a teacher. Bad input: an AppError "invalid", a message per field.
 */
export async function createCourse(db: Database, actor: Actor, input: unknown, now = new Date()): Promise<SavedCourse> {
  assertAuthor(actor);
  const data = validate(courseFormSchema, input, NOT_SAVED);
  assertStatusMove(actor, "draft", data.status);
  const attempt = () =>
    db.transaction(async (tx) => {
      const ids = await lookupIds(tx, data);
      const instructorId = await resolveInstructor(tx, actor, data.instructorId, undefined);
      const forged = data.lessons.findIndex((lesson) => lesson.id !== undefined);
      if (forged >= 0) throw invalidInput({ [`lessons.${forged}.id`]: "Cette leçon n'appartient pas à ce cours." });
      const [{ next } = { next: 0 }] = await tx.select({ next: sql<number>`coalesce(max(${courses.position}), 0) + 1` }).from(courses);
      const [course] = await tx
        .insert(courses)
        .values({
          ...courseColumns(data, ids),
          slug: await uniqueSlug(tx, slugify(data.title)),
          instructorId,
          position: Number(next),
          publishedAt: data.status === "published" ? now : null,
          lessonsAnnouncedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await claimFiles(tx, actor, course!.id, filesToClaim(data), NOT_SAVED);
      if (data.thumbnailFileId) await tx.update(courses).set({ thumbnailFileId: data.thumbnailFileId }).where(eq(courses.id, course!.id));
      const saved = await saveLessons(tx, course!.id, data.lessons, now);
      await releaseUnusedCourseFiles(tx, course!.id);
      const [fresh] = await tx.select().from(courses).where(eq(courses.id, course!.id));
      return { course: fresh!, lessons: saved, becamePublished: data.status === "published" };
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
export async function updateCourse(db: Database, actor: Actor, courseId: number, input: unknown, now = new Date()): Promise<SavedCourse> {
  assertAuthor(actor);
  await getManagedCourse(db, actor, courseId);
  const data = validate(courseFormSchema, input, NOT_SAVED);
  return runSave(
    () =>
      db.transaction(async (tx) => {
        // Re-read under lock: the access rule is checked on the row this transaction changes.
        const [current] = await tx
          .select()
          .from(courses)
          .where(and(eq(courses.id, courseId), managedCoursesWhere(actor)))
          .for("update");
        if (!current) throw courseNotFound();
        assertStatusMove(actor, current.status, data.status);
        const ids = await lookupIds(tx, data);
        const instructorId = await resolveInstructor(tx, actor, data.instructorId, current.instructorId);
        await claimFiles(tx, actor, courseId, filesToClaim(data), NOT_SAVED);
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
        const added = saved.filter((lesson) => lesson.createdAt > current.lessonsAnnouncedAt).map((lesson) => lesson.id);
        if (data.status === "published" && added.length > 0) await queueLessonsAnnouncement(tx, current, Math.max(...added), now);
        await releaseUnusedCourseFiles(tx, courseId);
        // A lesson added or removed changes every learner's share of lessons done.
        await recomputeCourseProgress(tx, courseId, now);
        return { course: course!, lessons: saved, becamePublished };
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
export async function describeFormFiles(
  db: Database,
  actor: Actor,
  courseId: number | null,
  ids: string[],
): Promise<Record<string, FormFile>> {
  const wanted = [...new Set(ids.filter(Boolean))].slice(0, 500);
  if (!wanted.length) return {};
  const unattached = usableUnattachedFilesWhere(actor);
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
        .where(
          and(
            inArray(
              files.lessonId,
              courseLessons.map((lesson) => lesson.id),
            ),
            eq(files.purpose, "lesson_attachment"),
          ),
        )
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
  const instructors = canAssignInstructor(actor)
    ? await db
        .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, role: users.role })
        .from(users)
        .where(and(inArray(users.role, ["teacher", "admin"]), eq(users.banned, false)))
        .orderBy(asc(users.lastName), asc(users.firstName))
    : [];
  return { categories: categoryOptions, levels: levelOptions, instructors };
}
