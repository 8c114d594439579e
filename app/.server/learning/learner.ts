import { and, asc, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { getCourseBySlug, getLessonContent, publicStudentCount } from "../catalogue";
import { canFollowCourse, canReadLesson } from "../courses/policy";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { containsText } from "../db/like";
import { preparedQuery } from "../db/prepared";
import { categories, courses, enrolments, lessonProgress, lessons, levels, payments } from "../db/schema";
import { requestCompletionCheck } from "./completion";
import { followsCourse, recomputeProgress, type Enrolment, type EnrolmentStatus } from "./enrolments";
import { FOLLOWING, followingEnrolment, isFollowing } from "./policy";
import { formatMonth } from "~/lib/dates";

/**
 * Why a course's lessons stay closed to the actor: an AppError "not_found" (no such course, or
 * a draft they may not see), or "forbidden" with a reason the route acts on: "not_enrolled" (to
 * the course page), "pending_payment" (to the checkout), "paused".
 */
const courseNotFound = () => AppError.notFound("Formation introuvable.");
const lessonNotFound = () => AppError.notFound("Leçon introuvable.");
const closed = (reason: "not_enrolled" | "pending_payment" | "paused") =>
  AppError.forbidden(
    reason === "paused"
      ? "Votre inscription à cette formation est en pause : contactez l'institut pour la reprendre."
      : reason === "pending_payment"
        ? "Votre inscription attend son paiement."
        : "Inscrivez-vous à cette formation pour suivre ses leçons.",
    reason,
  );

const lessonCount = sql<number>`(select count(*) from ${lessons} where ${lessons.courseId} = ${courses.id})`.mapWith(Number);
const lessonsDone =
  sql<number>`(select count(*) from ${lessonProgress} where ${lessonProgress.enrolmentId} = ${enrolments.id} and ${lessonProgress.completedAt} is not null)`.mapWith(
    Number,
  );

const myEnrolmentsQuery = preparedQuery("learner_enrolments", (db) =>
  db
    .select({
      enrolmentId: enrolments.id,
      status: enrolments.status,
      progress: enrolments.progress,
      enrolledAt: enrolments.enrolledAt,
      activatedAt: enrolments.activatedAt,
      completedAt: enrolments.completedAt,
      lastLessonId: enrolments.lastLessonId,
      courseId: courses.id,
      slug: courses.slug,
      title: courses.title,
      description: courses.description,
      durationWeeks: courses.durationWeeks,
      maxStudents: courses.maxStudents,
      priceFcfa: courses.priceFcfa,
      nextLiveAt: courses.nextLiveAt,
      liveSessionUrl: courses.liveSessionUrl,
      categoryName: categories.name,
      lessonCount,
      lessonsDone,
    })
    .from(enrolments)
    .innerJoin(courses, eq(enrolments.courseId, courses.id))
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .where(and(eq(enrolments.userId, sql.placeholder("userId")), sql`${enrolments.status} <> 'cancelled'`))
    .orderBy(desc(enrolments.enrolledAt), desc(enrolments.id)),
);

/** "Mes Formations": the actor's enrolments with their course, newest first; what is left to pay, if anything. */
export async function listMyEnrolments(db: Database, actor: Actor) {
  const rows = await myEnrolmentsQuery(db).execute({ userId: actor.id });
  const waiting = rows.filter((row) => row.status === "pending_payment").map((row) => row.enrolmentId);
  const open = waiting.length
    ? await db
        .select({ enrolmentId: payments.enrolmentId, reference: payments.reference, method: payments.method })
        .from(payments)
        .where(and(inArray(payments.enrolmentId, waiting), eq(payments.status, "pending")))
        .orderBy(desc(payments.createdAt))
    : [];
  return rows.map((row) => ({ ...row, pendingPayment: open.find((payment) => payment.enrolmentId === row.enrolmentId) ?? null }));
}

export type MyEnrolment = Awaited<ReturnType<typeof listMyEnrolments>>[number];

/** "Formations Disponibles": published courses, searched and filtered, with the actor's enrolment if any. */
export async function listAvailableCourses(db: Database, actor: Actor, filters: { q?: string; category?: string } = {}) {
  const conditions = [eq(courses.status, "published")];
  const q = filters.q?.trim();
  if (q) conditions.push(containsText(q, courses.title, courses.description));
  if (filters.category) conditions.push(eq(categories.slug, filters.category));
  return db
    .select({
      id: courses.id,
      slug: courses.slug,
      title: courses.title,
      description: courses.description,
      priceFcfa: courses.priceFcfa,
      durationWeeks: courses.durationWeeks,
      studentCount: publicStudentCount,
      maxStudents: courses.maxStudents,
      categorySlug: categories.slug,
      categoryName: categories.name,
      levelName: levels.name,
      enrolmentStatus: enrolments.status,
    })
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .innerJoin(levels, eq(courses.levelId, levels.id))
    .leftJoin(enrolments, and(eq(enrolments.courseId, courses.id), eq(enrolments.userId, actor.id)))
    .where(and(...conditions))
    .orderBy(asc(courses.position), asc(courses.id));
}

/** A lesson of a followed course's outline, with what the actor's enrolment has done of it. */
type OutlineLesson = { id: number; title: string; durationMinutes: number; isFree: boolean; done: boolean; positionSeconds: number | null };

const followedCourseQuery = preparedQuery("learner_followed_course", (db) => {
  const outline = db
    .select({
      list: sql`json_agg(json_build_object('id', ${lessons.id}, 'title', ${lessons.title}, 'durationMinutes', ${lessons.durationMinutes},
        'isFree', ${lessons.isFree}, 'done', ${lessonProgress.completedAt} is not null, 'positionSeconds', ${lessonProgress.positionSeconds})
        order by ${lessons.position}, ${lessons.id})`,
    })
    .from(lessons)
    .leftJoin(lessonProgress, and(eq(lessonProgress.lessonId, lessons.id), eq(lessonProgress.enrolmentId, enrolments.id)))
    .where(eq(lessons.courseId, courses.id));
  return db
    .select({
      course: {
        id: courses.id,
        slug: courses.slug,
        title: courses.title,
        description: courses.description,
        status: courses.status,
        instructorId: courses.instructorId,
        liveSessionUrl: courses.liveSessionUrl,
        nextLiveAt: courses.nextLiveAt,
        categoryName: categories.name,
      },
      enrolment: enrolments,
      lessons: sql<OutlineLesson[]>`coalesce((${outline}), '[]')`,
    })
    .from(courses)
    .innerJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(enrolments, and(eq(enrolments.courseId, courses.id), eq(enrolments.userId, sql.placeholder("userId"))))
    .where(eq(courses.slug, sql.placeholder("slug")));
});

/**
 * The course, the actor's enrolment and the course's lessons in order with what that enrolment
 * has done of each, let in by `canFollowCourse`: a learner with an active or completed enrolment,
 * the course's teacher and admins (a preview: nothing is recorded for them). Anyone else: an
 * AppError saying why. One statement (the outline as a JSON list): each one a page sends costs it
 * and the database a wake-up.
 */
async function followedCourse(db: Database, actor: Actor, slug: string) {
  const [found] = await followedCourseQuery(db).execute({ userId: actor.id, slug });
  if (!found) throw courseNotFound();
  const { course, enrolment } = found;
  const following = isFollowing(enrolment?.status);
  if (!canFollowCourse(actor, course, following)) {
    if (enrolment?.status === "pending_payment") throw closed("pending_payment");
    if (enrolment?.status === "paused") throw closed("paused");
    if (course.status !== "published") throw courseNotFound();
    throw closed("not_enrolled");
  }
  return { course, enrolment: following ? enrolment! : null, lessons: found.lessons };
}

/** A course as its learner follows it (`followedCourse` says who may): the lessons with what is done, and where to resume. */
export async function getLearnerCourse(db: Database, actor: Actor, slug: string) {
  const { course, enrolment, lessons: outline } = await followedCourse(db, actor, slug);
  const resumeLesson =
    outline.find((lesson) => lesson.id === enrolment?.lastLessonId) ?? outline.find((lesson) => !lesson.done) ?? outline[0] ?? null;
  return {
    course,
    enrolment,
    lessons: outline,
    resume: resumeLesson ? { lessonId: resumeLesson.id, positionSeconds: resumeLesson.positionSeconds ?? 0 } : null,
  };
}

/**
 * One lesson in the player, with its neighbours, in one round trip (the lesson's content is read
 * along with the course, by its slug; returned only once `followedCourse` let the actor in). Opening
 * it makes it the place "Continuer" resumes from.
 */
export async function openLesson(db: Database, actor: Actor, slug: string, lessonId: number, now = new Date()) {
  const [{ course, enrolment, lessons: outline }, content] = await Promise.all([
    followedCourse(db, actor, slug),
    getLessonContent(db, { slug }, lessonId),
  ]);
  const index = outline.findIndex((lesson) => lesson.id === lessonId);
  if (index < 0 || !content) throw lessonNotFound();
  if (enrolment && enrolment.lastLessonId !== lessonId) {
    await db.update(enrolments).set({ lastLessonId: lessonId, updatedAt: now }).where(eq(enrolments.id, enrolment.id));
  }
  return {
    course,
    enrolment,
    lessons: outline,
    lesson: { ...content, done: outline[index]!.done, positionSeconds: outline[index]!.positionSeconds ?? 0 },
    previous: outline[index - 1] ?? null,
    next: outline[index + 1] ?? null,
  };
}

/** The actor's enrolment that follows a lesson's course (the player saves positions every few seconds). */
const learnerEnrolmentQuery = preparedQuery("learner_enrolment_of_lesson", (db) =>
  db
    .select({ enrolment: enrolments, slug: courses.slug })
    .from(lessons)
    .innerJoin(courses, eq(lessons.courseId, courses.id))
    .innerJoin(enrolments, and(eq(enrolments.courseId, courses.id), eq(enrolments.userId, sql.placeholder("userId"))))
    .where(and(eq(lessons.id, sql.placeholder("lessonId")), followingEnrolment())),
);

async function learnerEnrolment(db: Database, actor: Actor, lessonId: number): Promise<{ enrolment: Enrolment; slug: string } | null> {
  const [row] = await learnerEnrolmentQuery(db).execute({ userId: actor.id, lessonId });
  return row ?? null;
}

/**
 * "Marquer comme terminé" (or undo it): the lesson's state, then the course's progress. `doneAt`
 * is when the learner pressed it, if earlier than now (kept offline on their phone).
 */
export async function setLessonDone(db: Database, actor: Actor, lessonId: number, done: boolean, now = new Date(), doneAt = now) {
  return db.transaction(async (tx) => {
    const found = await learnerEnrolment(tx, actor, lessonId);
    if (!found) throw closed("not_enrolled");
    await tx
      .insert(lessonProgress)
      .values({ enrolmentId: found.enrolment.id, lessonId, completedAt: done ? doneAt : null, updatedAt: now })
      .onConflictDoUpdate({
        target: [lessonProgress.enrolmentId, lessonProgress.lessonId],
        // Marking a done lesson done again keeps its first date.
        set: { completedAt: done ? sql`coalesce(${lessonProgress.completedAt}, ${doneAt})` : null, updatedAt: now },
      });
    await tx.update(enrolments).set({ lastLessonId: lessonId, updatedAt: now }).where(eq(enrolments.id, found.enrolment.id));
    const enrolment = await recomputeProgress(tx, found.enrolment.id, now);
    // Every lesson done: the certificate may now be due (checked once this commits).
    if (enrolment?.status === "completed") await requestCompletionCheck(tx, { userId: actor.id, courseId: enrolment.courseId }, now);
    return { enrolment: enrolment!, slug: found.slug };
  });
}

/** Where the video stopped (sent by the player every few seconds and on leaving): the furthest point kept. */
export async function saveVideoPosition(db: Database, actor: Actor, lessonId: number, seconds: number, now = new Date()) {
  const position = Math.max(0, Math.min(Math.floor(seconds), 24 * 60 * 60));
  const found = await learnerEnrolment(db, actor, lessonId);
  if (!found) throw closed("not_enrolled");
  await db
    .insert(lessonProgress)
    .values({ enrolmentId: found.enrolment.id, lessonId, positionSeconds: position, updatedAt: now })
    .onConflictDoUpdate({
      target: [lessonProgress.enrolmentId, lessonProgress.lessonId],
      // The furthest point wins: a position sent twice, or late (queued on a phone offline, a
      // beacon overtaken by a later save), never moves the learner back.
      set: { positionSeconds: sql`greatest(${lessonProgress.positionSeconds}, ${position})`, updatedAt: now },
    });
  if (found.enrolment.lastLessonId !== lessonId) {
    await db.update(enrolments).set({ lastLessonId: lessonId, updatedAt: now }).where(eq(enrolments.id, found.enrolment.id));
  }
}

/** The first day of the month `offset` months before `now`'s (UTC: Bamako keeps UTC all year). */
function monthStart(now: Date, offset: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - offset, 1));
}

/** Enrolments whose learner has begun: followed now, finished, or paused. */
const STARTED: EnrolmentStatus[] = [...FOLLOWING, "paused"];

/** The lessons done in the actor's started courses, when, and how long each takes. */
const completedLessonsQuery = preparedQuery("learner_completed_lessons", (db) =>
  db
    .select({ enrolmentId: lessonProgress.enrolmentId, completedAt: lessonProgress.completedAt, minutes: lessons.durationMinutes })
    .from(lessonProgress)
    .innerJoin(enrolments, eq(lessonProgress.enrolmentId, enrolments.id))
    .innerJoin(lessons, eq(lessonProgress.lessonId, lessons.id))
    .where(
      and(eq(enrolments.userId, sql.placeholder("userId")), inArray(enrolments.status, STARTED), isNotNull(lessonProgress.completedAt)),
    ),
);

/**
 * The student dashboard, from the learner's own records: the four cards, the progress at the end
 * of each of the last six months, the domains of their courses, and the courses in progress.
 */
export async function getStudentDashboard(db: Database, actor: Actor, now = new Date()) {
  // One round trip: the enrolments (with their activation dates) and the lessons done in the
  // started ones are read side by side, the latter through the enrolments' owner.
  const [mine, completedLessons] = await Promise.all([
    listMyEnrolments(db, actor),
    completedLessonsQuery(db).execute({ userId: actor.id }),
  ]);
  const started = mine.filter((row) => STARTED.includes(row.status));
  const active = mine.filter((row) => row.status === "active");
  const thisMonth = monthStart(now, 0);

  // Progress at each month's end: for the courses started by then, the share of lessons done by then.
  const monthly = Array.from({ length: 6 }, (_, index) => {
    const start = monthStart(now, 5 - index);
    const end = index === 5 ? now : monthStart(now, 4 - index);
    const running = started.filter((row) => row.activatedAt && row.activatedAt < end && row.lessonCount > 0);
    const shares = running.map(
      (row) =>
        completedLessons.filter((lesson) => lesson.enrolmentId === row.enrolmentId && lesson.completedAt! < end).length / row.lessonCount,
    );
    const average = shares.length ? Math.round((shares.reduce((sum, share) => sum + share, 0) / shares.length) * 100) : 0;
    return { month: formatMonth(start).replace(".", ""), progress: average };
  });

  const byDomain = new Map<string, number>();
  for (const row of started) byDomain.set(row.categoryName, (byDomain.get(row.categoryName) ?? 0) + 1);
  const domains = [...byDomain.entries()]
    .map(([name, courseCount]) => ({ name, courses: courseCount, share: Math.round((courseCount / started.length) * 100) }))
    .sort((a, b) => b.courses - a.courses || a.name.localeCompare(b.name, "fr"));

  const progressed = started.filter((row) => isFollowing(row.status));
  return {
    activeCourses: active.length,
    startedThisMonth: started.filter((row) => row.activatedAt && row.activatedAt >= thisMonth).length,
    averageProgress: progressed.length ? Math.round(progressed.reduce((sum, row) => sum + row.progress, 0) / progressed.length) : 0,
    studyMinutes: completedLessons.reduce((sum, lesson) => sum + lesson.minutes, 0),
    monthly,
    domains,
    inProgress: active.map((row) => ({
      slug: row.slug,
      title: row.title,
      progress: row.progress,
      lessonsDone: row.lessonsDone,
      lessonCount: row.lessonCount,
      nextLiveAt: row.nextLiveAt && row.nextLiveAt > now ? row.nextLiveAt : null,
    })),
    // Every lesson done: the certificate may still wait on a required quiz (the caller knows which).
    finished: mine
      .filter((row) => row.status === "completed")
      .map((row) => ({ courseId: row.courseId, slug: row.slug, title: row.title, lessonCount: row.lessonCount })),
    pendingPayments: mine.filter((row) => row.status === "pending_payment"),
  };
}

/**
 * One lesson of a course (its text, video and documents) as `viewer` may read it: canReadLesson
 * (a free preview of a published course for everyone; any lesson for the course's learners and
 * team). Anyone else, or a lesson of another course: "not found".
 */
export async function getLessonForViewer(db: Database, viewer: Actor | null, slug: string, lessonId: number) {
  const course = Number.isSafeInteger(lessonId) && lessonId > 0 ? await getCourseBySlug(db, slug) : null;
  const lesson = course ? await getLessonContent(db, { id: course.id }, lessonId) : null;
  if (!course || !lesson || !canReadLesson(viewer, course, lesson, await followsCourse(db, viewer, course.id))) throw lessonNotFound();
  return { course, lesson };
}
