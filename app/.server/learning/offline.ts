import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Actor } from "../auth/actor";
import { getLessonContent } from "../catalogue";
import type { Database } from "../db/client";
import { quizzes } from "../db/schema";
import { AppError } from "../errors";
import { toPublicQuestion } from "~/lib/quiz";
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
 * each version (with the exact byte size the server will send), its documents and the pages of
 * the quizzes that follow it; for a whole course, also its untimed quizzes that follow no lesson
 * (end-of-course quizzes), each with the weight of what its page carries (title, description,
 * questions without their answers). A timed one is left out: it needs the network anyway. Only for
 * a learner who follows the course (a teacher's preview records nothing and downloads nothing).
 */
export async function getOfflinePlan(db: Database, actor: Actor, slug: string, lessonId: number | null) {
  const learner = await getLearnerCourse(db, actor, slug);
  if (!learner.enrolment) throw AppError.forbidden("Seuls les apprenants inscrits téléchargent une formation.", "not_enrolled");
  const chosen = lessonId === null ? learner.lessons : learner.lessons.filter((lesson) => lesson.id === lessonId);
  if (chosen.length === 0) throw AppError.notFound("Leçon introuvable.");
  // The quizzes that follow these lessons are stored with them: an untimed one can be answered
  // offline, a timed one says it needs the network.
  const lessonQuizzes = await db
    .select({ id: quizzes.id, title: quizzes.title, lessonId: quizzes.lessonId })
    .from(quizzes)
    .where(
      and(
        eq(quizzes.courseId, learner.course.id),
        inArray(
          quizzes.lessonId,
          chosen.map((lesson) => lesson.id),
        ),
        isNull(quizzes.deletedAt),
      ),
    )
    .orderBy(asc(quizzes.createdAt), asc(quizzes.id));
  const lessons = [];
  for (const item of chosen) {
    const content = await getLessonContent(db, { id: learner.course.id }, item.id);
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
      quizzes: lessonQuizzes
        .filter((quiz) => quiz.lessonId === item.id)
        .map((quiz) => ({ id: quiz.id, title: quiz.title, path: `/dashboard/formations/${learner.course.slug}/quiz/${quiz.id}` })),
    });
  }
  const courseQuizzes =
    lessonId === null
      ? await db
          .select({ id: quizzes.id, title: quizzes.title, description: quizzes.description, questions: quizzes.questions })
          .from(quizzes)
          .where(
            and(
              eq(quizzes.courseId, learner.course.id),
              isNull(quizzes.lessonId),
              isNull(quizzes.timeLimitMinutes),
              isNull(quizzes.deletedAt),
            ),
          )
          .orderBy(asc(quizzes.createdAt), asc(quizzes.id))
      : [];
  return {
    course: { slug: learner.course.slug, title: learner.course.title },
    lessons,
    quizzes: courseQuizzes.map((quiz) => ({
      id: quiz.id,
      title: quiz.title,
      path: `/dashboard/formations/${learner.course.slug}/quiz/${quiz.id}`,
      textBytes: new TextEncoder().encode(`${quiz.title}${quiz.description}${JSON.stringify(quiz.questions.map(toPublicQuestion))}`).length,
    })),
  };
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
