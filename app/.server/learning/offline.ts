import type { Actor } from "../auth/actor";
import { getLessonContent } from "../catalogue";
import type { Database } from "../db/client";
import { AppError } from "../errors";
import { fileUrl } from "~/lib/uploads";
import { videoOptions } from "~/lib/video-quality";
import { getLearnerCourse, saveVideoPosition, setLessonDone } from "./learner";

/**
 * Learning offline (issue 13): what a learner's phone stores to follow a lesson (or a whole
 * course) without a network, with every size known before anything is downloaded, and the
 * progress the phone kept offline, replayed when the network returns.
 */

/**
 * The download plan of a course, or of one of its lessons: for each lesson its page, its video in
 * each version (with the exact byte size the server will send) and its documents. Only for a
 * learner who follows the course (a teacher's preview records nothing and downloads nothing).
 */
export async function getOfflinePlan(db: Database, actor: Actor, slug: string, lessonId: number | null) {
  const learner = await getLearnerCourse(db, actor, slug);
  if (!learner.enrolment) throw AppError.forbidden("Seuls les apprenants inscrits téléchargent une formation.", "not_enrolled");
  const chosen = lessonId === null ? learner.lessons : learner.lessons.filter((lesson) => lesson.id === lessonId);
  if (chosen.length === 0) throw AppError.notFound("Leçon introuvable.");
  const lessons = [];
  for (const item of chosen) {
    const content = await getLessonContent(db, learner.course.id, item.id);
    if (!content) continue;
    lessons.push({
      id: item.id,
      title: item.title,
      path: `/dashboard/formations/${learner.course.slug}/lecons/${item.id}`,
      // The text, as the page carries it (the page's own weight is measured once stored).
      textBytes: new TextEncoder().encode(`${content.title}${content.description}${content.content}`).length,
      video: content.video
        ? {
            id: content.video.id,
            options: videoOptions(content.video).map(({ choice, label, size, url }) => ({ choice, label, size, url })),
          }
        : null,
      documents: content.attachments.map((file) => ({ id: file.id, name: file.name, size: file.size, url: fileUrl(file.id) })),
    });
  }
  return { course: { slug: learner.course.slug, title: learner.course.title }, lessons };
}

export type OfflinePlan = Awaited<ReturnType<typeof getOfflinePlan>>;

/**
 * What a phone kept offline for a lesson, sent when the network returns: the furthest video
 * position and "Marquer comme terminé" with the moment it was pressed. Idempotent and order-free:
 * sent twice, late, or after a later save, the furthest position and the first completion date
 * stay (a replayed "done" never undoes anything, and never moves a date later).
 */
export async function recordOfflineProgress(
  db: Database,
  actor: Actor,
  lessonId: number,
  progress: { seconds?: number | null; doneAt?: Date | null },
  now = new Date(),
) {
  if (progress.seconds != null) await saveVideoPosition(db, actor, lessonId, progress.seconds, now);
  if (progress.doneAt) {
    // A phone's clock may be wrong: a completion "in the future" counts as now.
    const at = progress.doneAt.getTime() > now.getTime() ? now : progress.doneAt;
    return setLessonDone(db, actor, lessonId, true, now, at);
  }
  return null;
}
