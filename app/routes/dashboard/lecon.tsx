import { ArrowLeft, ArrowRight, CircleCheck, CloudUpload } from "~/components/icons";
import { useEffect, useRef, useState, type RefObject } from "react";
import { Form, Link, useNavigation, href } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { openLesson, setLessonDone } from "~/.server/learning";
import { listLearnerQuizzes } from "~/.server/quizzes";
import { redirectWithToast } from "~/.server/toast";
import { CourseOutline } from "~/components/learning/course-outline";
import { ProgressBar } from "~/components/learning/progress-bar";
import { LessonBody } from "~/components/learning/lesson-body";
import { OfflineDownload } from "~/components/offline/offline-download";
import { usePendingEntries } from "~/components/offline/offline-sync";
import { LearnerQuizList } from "~/components/quizzes/learner-quiz-list";
import { Alert } from "~/components/ui/alert";
import { buttonClasses } from "~/components/ui/button";
import { isQuizAttempt, queueProgress } from "~/lib/offline/outbox";
import { nextRequiredQuiz } from "~/lib/quiz";
import { choiceOfParam, chooseVideo } from "~/lib/video-quality";
import { asLearner } from "./learner-access.server";
import type { Route } from "./+types/lecon";
import { LearnerRouteError } from "~/components/learning/learner-route-error";

function lessonIdOf(params: { lessonId: string }): number {
  return /^\d{1,9}$/.test(params.lessonId) ? Number(params.lessonId) : 0;
}

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { slug } = args.params;
  const db = args.context.get(dbContext);
  // The lesson and the course's quizzes in one round trip: every round trip that waits on another
  // puts the page back behind the others.
  const [{ course, enrolment, lessons, lesson, previous, next }, courseQuizzes] = await Promise.all([
    asLearner(slug, () => openLesson(db, user, slug, lessonIdOf(args.params))),
    listLearnerQuizzes(db, user, slug),
  ]);
  // This lesson's quizzes (after the last lesson, the course's own final quizzes too), for its
  // learners (a teacher's preview has no enrolment).
  const quizzes = enrolment ? courseQuizzes.filter((quiz) => quiz.lessonId === lesson.id || (!next && quiz.lessonId === null)) : [];
  // The video's version: the learner's ?qualite=, else low when they save data (their profile's
  // "Économie de données", or the browser's Save-Data header), else 720p.
  const asked = choiceOfParam(args.url.searchParams.get("qualite"));
  const { dataSaver } = user;
  const saveData = dataSaver || args.request.headers.get("save-data")?.toLowerCase() === "on";
  return {
    userId: user.id,
    player: lesson.video ? { initial: chooseVideo(lesson.video, { asked, saveData }), explicit: asked !== null, dataSaver } : null,
    course: { slug: course.slug, title: course.title },
    progress: enrolment?.progress ?? null,
    lessons: lessons.map(({ id, title, durationMinutes, done }) => ({ id, title, durationMinutes, done })),
    lesson: {
      id: lesson.id,
      title: lesson.title,
      description: lesson.description,
      content: lesson.content,
      videoUrl: lesson.videoUrl,
      video: lesson.video,
      attachments: lesson.attachments,
      done: lesson.done,
      positionSeconds: lesson.positionSeconds,
    },
    previous: previous ? { id: previous.id, title: previous.title } : null,
    next: next ? { id: next.id, title: next.title } : null,
    quizzes,
  };
}

const doneSchema = z.object({ intent: z.enum(["done", "undone"]) });

/** "Marquer comme terminé" (and its undo). */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const parsed = doneSchema.safeParse(Object.fromEntries(await args.request.formData()));
  const here = args.url.pathname;
  if (!parsed.success) return redirectWithToast(here, { type: "error", title: "Erreur", description: "Action inconnue." }, { status: 303 });
  const db = args.context.get(dbContext);
  const { enrolment } = await asLearner(args.params.slug, () =>
    setLessonDone(db, user, lessonIdOf(args.params), parsed.data.intent === "done"),
  );
  const completed = parsed.data.intent === "done" && enrolment.status === "completed";
  const nextQuiz = completed ? nextRequiredQuiz(await listLearnerQuizzes(db, user, args.params.slug)) : undefined;
  const toast =
    parsed.data.intent === "undone"
      ? { title: "Leçon à refaire", description: `Progression : ${enrolment.progress} %` }
      : nextQuiz
        ? { title: "Toutes les leçons sont terminées !", description: `Réussissez « ${nextQuiz.title} » pour obtenir votre certificat.` }
        : completed
          ? { title: "Formation terminée !", description: "Vous avez terminé toutes les leçons. Bravo !" }
          : { title: "Leçon terminée", description: `Progression : ${enrolment.progress} %` };
  return redirectWithToast(here, { type: "success", ...toast }, { status: 303 });
}

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `${loaderData.lesson.title} · ${loaderData.course.title}` : "Leçon" },
];

const SAVE_EVERY_SECONDS = 10;

type LessonRef = { userId: string; slug: string; lessonId: number; title: string };

/**
 * Keeps where the video stopped, so that "Continuer" resumes there: every few seconds of play, on
 * pause, and when the page is left (a beacon, which survives the page closing). Without a network
 * the position waits on the phone (app/lib/offline/outbox.ts) and is sent when it returns.
 */
function usePositionSaving(video: RefObject<HTMLVideoElement | null>, url: string, enabled: boolean, lesson: LessonRef) {
  const { userId, slug, lessonId, title } = lesson;
  useEffect(() => {
    const element = video.current;
    if (!element || !enabled) return;
    let saved = Math.floor(element.currentTime);
    const body = () => {
      const form = new FormData();
      form.set("seconds", String(Math.floor(element.currentTime)));
      return form;
    };
    const keep = (seconds: number) => queueProgress({ userId, slug, lessonId, title, seconds });
    const save = (force: boolean) => {
      const seconds = Math.floor(element.currentTime);
      if (!force && Math.abs(seconds - saved) < SAVE_EVERY_SECONDS) return;
      saved = seconds;
      if (!navigator.onLine) return keep(seconds);
      void fetch(url, { method: "POST", body: body(), keepalive: true })
        .then((response) => {
          if (response.status >= 500) keep(seconds);
        })
        .catch(() => keep(seconds));
    };
    const onTime = () => save(false);
    const onPause = () => save(true);
    const onLeave = () => {
      if (document.visibilityState === "hidden" && Math.floor(element.currentTime) !== saved) {
        saved = Math.floor(element.currentTime);
        if (navigator.onLine) navigator.sendBeacon(url, body());
        else keep(saved);
      }
    };
    element.addEventListener("timeupdate", onTime);
    element.addEventListener("pause", onPause);
    document.addEventListener("visibilitychange", onLeave);
    window.addEventListener("pagehide", onLeave);
    return () => {
      element.removeEventListener("timeupdate", onTime);
      element.removeEventListener("pause", onPause);
      document.removeEventListener("visibilitychange", onLeave);
      window.removeEventListener("pagehide", onLeave);
    };
  }, [video, url, enabled, userId, slug, lessonId, title]);
}

export default function LessonPage({ loaderData }: Route.ComponentProps) {
  const { userId, course, progress, lessons, lesson, previous, next, quizzes } = loaderData;
  const navigation = useNavigation();
  const marking = navigation.state !== "idle" && navigation.formMethod === "POST";
  const video = useRef<HTMLVideoElement>(null);
  const base = `/dashboard/formations/${course.slug}/lecons`;
  const learner = progress !== null;
  const here = { userId, slug: course.slug, lessonId: lesson.id, title: lesson.title };
  usePositionSaving(video, `${base}/${lesson.id}/position`, learner && Boolean(lesson.video), here);
  const pending = usePendingEntries(userId);
  const doneOffline = pending.some((entry) => !isQuizAttempt(entry) && entry.lessonId === lesson.id && entry.doneAt);
  const [offlineMessage, setOfflineMessage] = useState<string | null>(null);
  const doneCount = lessons.filter((item) => item.done || (item.id === lesson.id && doneOffline)).length;

  /** Without a network, "Marquer comme terminé" waits on the phone; undoing it needs the network. */
  function markOffline(event: React.FormEvent<HTMLFormElement>) {
    if (navigator.onLine) return;
    event.preventDefault();
    const intent = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value;
    if (intent === "done") {
      queueProgress({ ...here, doneAt: new Date().toISOString() });
      setOfflineMessage(null);
    } else setOfflineMessage("Vous êtes hors ligne : cette action demande une connexion.");
  }

  return (
    <div className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-[1fr_20rem]">
      <article aria-labelledby="lesson-title" className="min-w-0 space-y-5">
        <p className="text-sm">
          <Link to={href("/dashboard/formations/:slug", { slug: course.slug })} className="font-medium text-brand-700 hover:underline">
            {course.title}
          </Link>
        </p>
        <h1 id="lesson-title" className="text-2xl font-bold text-slate-900 sm:text-3xl">
          {lesson.title}
        </h1>
        <LessonBody
          lesson={lesson}
          player={loaderData.player ? { ...loaderData.player, videoRef: video, startAt: learner ? lesson.positionSeconds : 0 } : undefined}
        />

        {learner ? (
          <Form
            method="post"
            onSubmit={markOffline}
            className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4"
          >
            <Alert className="w-full">{offlineMessage}</Alert>
            {doneOffline && !lesson.done ? (
              <p className="flex items-center gap-2 font-semibold text-emerald-800">
                <CloudUpload aria-hidden="true" className="size-5" />
                Leçon terminée · envoi en attente du réseau
              </p>
            ) : lesson.done ? (
              <>
                <p className="flex items-center gap-2 font-semibold text-emerald-800">
                  <CircleCheck aria-hidden="true" className="size-5" />
                  Leçon terminée
                </p>
                <button
                  type="submit"
                  name="intent"
                  value="undone"
                  className={buttonClasses({ variant: "ghost", size: "sm" })}
                  disabled={marking}
                >
                  Marquer comme à refaire
                </button>
              </>
            ) : (
              <button type="submit" name="intent" value="done" className={buttonClasses()} disabled={marking}>
                <CircleCheck aria-hidden="true" className="size-5" />
                {marking ? "Enregistrement..." : "Marquer comme terminé"}
              </button>
            )}
          </Form>
        ) : (
          <p className="rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950">
            Aperçu enseignant : la progression n'est pas enregistrée.
          </p>
        )}

        {learner ? (
          <OfflineDownload userId={userId} slug={course.slug} lessonId={lesson.id} defaultChoice={loaderData.player?.initial ?? "low"} />
        ) : null}

        {quizzes.length > 0 ? (
          <section aria-labelledby="quiz-lecon" className="space-y-3">
            <h2 id="quiz-lecon" className="text-lg font-semibold text-slate-900">
              {next ? "Quiz de la leçon" : "Évaluation"}
            </h2>
            <LearnerQuizList slug={course.slug} quizzes={quizzes} />
          </section>
        ) : null}

        <nav aria-label="Leçons précédente et suivante" className="flex flex-col gap-3 sm:flex-row sm:justify-between">
          {previous ? (
            <Link to={`${base}/${previous.id}`} className={buttonClasses({ variant: "outline" })}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              <span>Précédente : {previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next ? (
            <Link to={`${base}/${next.id}`} className={buttonClasses()}>
              <span>Suivante : {next.title}</span>
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          ) : null}
        </nav>
      </article>

      <aside aria-labelledby="sommaire-titre" className="space-y-3 lg:sticky lg:top-20 lg:self-start">
        <h2 id="sommaire-titre" className="font-semibold text-slate-900">
          Sommaire · {doneCount}/{lessons.length} terminées
        </h2>
        {progress !== null ? <ProgressBar value={progress} label={`Progression dans ${course.title}`} /> : null}
        <CourseOutline slug={course.slug} lessons={lessons} currentId={lesson.id} />
      </aside>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <LearnerRouteError
      error={error}
      missing={{ title: "Leçon introuvable", text: "Cette leçon n'existe pas ou ne fait pas partie de cette formation." }}
    />
  );
}
