import { and, asc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client";
import { courses, enrolments, lessons } from "../db/schema";
import { enqueueJob } from "../jobs";
import { followingEnrolment } from "../learning";
import { notifyUser } from "../notifications";

/**
 * New lessons, told to the learners of a published course. A save that adds lessons queues an
 * announcement half an hour later; the first to run tells of every lesson added since the last
 * one, so a teacher who adds a course's lessons over several saves sends one notification that
 * lists them all, and the announcements queued by the later saves find nothing left to tell.
 */
export const LESSONS_ANNOUNCEMENT_QUEUE = "courses.lessons-announcement";
export const LESSONS_ANNOUNCEMENT_DELAY_MS = 30 * 60 * 1000;

/** `since`: the course's lessonsAnnouncedAt when the announcement was queued (ISO). */
export type LessonsAnnouncementJob = { courseId: number; since: string };

const TITLES_LISTED = 3;

/** Queues the announcement of a save's new lessons (the newest one names it); pass the save's transaction. */
export async function queueLessonsAnnouncement(
  tx: Database,
  course: { id: number; lessonsAnnouncedAt: Date },
  newestLessonId: number,
  now: Date,
) {
  const since = course.lessonsAnnouncedAt.toISOString();
  await enqueueJob(tx, LESSONS_ANNOUNCEMENT_QUEUE, { courseId: course.id, since } satisfies LessonsAnnouncementJob, {
    key: `course-lessons:${course.id}:${since}:${newestLessonId}`,
    runAt: new Date(now.getTime() + LESSONS_ANNOUNCEMENT_DELAY_MS),
    now,
  });
}

/**
 * The LESSONS_ANNOUNCEMENT_QUEUE handler: tells each learner following the course (bell, and
 * e-mail unless they turned it off) which lessons are new, then moves the course's mark past
 * them. Lessons removed meanwhile are not announced; a course no longer published announces
 * nothing but still moves its mark. Returns the number of learners told: none when the mark has
 * moved since the job was queued (an earlier announcement told of these lessons) or on a replay.
 */
export async function announceNewLessons(db: Database, job: LessonsAnnouncementJob, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    // The lock orders this with the course form's saves, which lock the same row.
    const [course] = await tx
      .select({ id: courses.id, slug: courses.slug, title: courses.title, status: courses.status, announcedAt: courses.lessonsAnnouncedAt })
      .from(courses)
      .where(eq(courses.id, job.courseId))
      .for("update");
    if (!course || course.announcedAt.toISOString() !== job.since) return 0;
    const fresh = await tx
      .select({ title: lessons.title, createdAt: lessons.createdAt })
      .from(lessons)
      .where(and(eq(lessons.courseId, course.id), gt(lessons.createdAt, course.announcedAt)))
      .orderBy(asc(lessons.position));
    if (fresh.length === 0) return 0;
    const newest = new Date(Math.max(...fresh.map((lesson) => lesson.createdAt.getTime())));
    await tx.update(courses).set({ lessonsAnnouncedAt: newest }).where(eq(courses.id, course.id));
    if (course.status !== "published") return 0;

    const learners = await tx
      .select({ userId: enrolments.userId })
      .from(enrolments)
      .where(and(eq(enrolments.courseId, course.id), followingEnrolment()));
    const listed = fresh
      .slice(0, TITLES_LISTED)
      .map((lesson) => `« ${lesson.title} »`)
      .join(", ");
    const more = fresh.length - TITLES_LISTED;
    const body = `Dans « ${course.title} » : ${listed}${more > 0 ? ` et ${more} ${more === 1 ? "autre" : "autres"}` : ""}.`;
    let told = 0;
    for (const { userId } of learners) {
      const { created } = await notifyUser(tx, {
        userId,
        kind: "lessons_added",
        title: fresh.length === 1 ? "Nouvelle leçon" : `${fresh.length} nouvelles leçons`,
        body,
        link: `/dashboard/formations/${course.slug}`,
        key: `course-lessons:${course.id}:${job.since}`,
        now,
      });
      if (created) told += 1;
    }
    return told;
  });
}
