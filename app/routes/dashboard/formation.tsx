import { CalendarClock, Video } from "~/components/icons";
import { Link, redirect, href } from "react-router";
import { getCourseBySlug } from "~/.server/catalogue";
import { myCertificateSummary } from "~/.server/certificates";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { formFailure } from "~/.server/http/errors";
import { getLearnerCourse } from "~/.server/learning";
import { getMyReview, saveReview } from "~/.server/reviews";
import { redirectWithToast } from "~/.server/toast";
import { ReviewForm, type ReviewFormValues } from "~/components/reviews/review-form";
import { formatDateTime, formatWeekdayDateTime } from "~/lib/dates";
import { failureOf } from "~/lib/form-result";
import { listLearnerSessions } from "~/.server/live-sessions";
import { listLearnerQuizzes } from "~/.server/quizzes";
import { CourseOutline } from "~/components/learning/course-outline";
import { LearnerSessions } from "~/components/live-sessions/learner-sessions";
import { OfflineDownload } from "~/components/offline/offline-download";
import { LearnerQuizList } from "~/components/quizzes/learner-quiz-list";
import { ProgressBar } from "~/components/learning/progress-bar";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { learnerSessionView } from "~/lib/live-sessions";
import { nextRequiredQuiz } from "~/lib/quiz";
import { asLearner } from "./learner-access.server";
import type { Route } from "./+types/formation";
import { LearnerRouteError } from "~/components/learning/learner-route-error";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const { slug } = args.params;
  // Read together: every round trip that waits on another puts the page back behind the others.
  const [{ course, enrolment, lessons, resume }, courseQuizzes] = await Promise.all([
    asLearner(slug, () => getLearnerCourse(db, user, slug)),
    listLearnerQuizzes(db, user, slug),
  ]);
  const now = new Date();
  const completed = enrolment?.status === "completed";
  const [sessions, review, certified] = await Promise.all([
    listLearnerSessions(db, user, now, { courseId: course.id, limit: 5 }),
    // Reviews are written by the course's learners (active or completed), not by a teacher's preview.
    enrolment ? getMyReview(db, user, course.id) : null,
    completed ? myCertificateSummary(db, user).then((summary) => summary.courseIds.has(course.id)) : false,
  ]);
  // Quizzes are taken by the course's learners (a teacher's preview has no enrolment).
  const quizzes = enrolment ? courseQuizzes : [];
  // Every lesson done: a required quiz still to pass is what the learner does next.
  const nextQuiz = completed ? nextRequiredQuiz(quizzes) : undefined;
  return {
    userId: user.id,
    canReview: Boolean(enrolment),
    review: review && { rating: review.rating, body: review.body, hidden: review.hidden, updatedLabel: formatDateTime(review.updatedAt) },
    sessions: sessions.map(learnerSessionView),
    course: {
      slug: course.slug,
      title: course.title,
      description: course.description,
      categoryName: course.categoryName,
      liveSessionUrl: course.liveSessionUrl,
    },
    nextLive: course.nextLiveAt && course.nextLiveAt > now ? formatWeekdayDateTime(course.nextLiveAt) : null,
    progress: enrolment?.progress ?? null,
    completed,
    certified,
    lessons: lessons.map(({ id, title, durationMinutes, done }) => ({ id, title, durationMinutes, done })),
    resumeHref: resume ? `/dashboard/formations/${course.slug}/lecons/${resume.lessonId}` : null,
    started: lessons.some((lesson) => lesson.done) || Boolean(enrolment?.lastLessonId),
    quizzes,
    nextQuiz: nextQuiz && {
      title: nextQuiz.title,
      href: `/dashboard/formations/${course.slug}/quiz/${nextQuiz.id}`,
      resume: nextQuiz.inProgressId !== null,
    },
  };
}

/** The learner's review: written once, then edited by the same form (one per learner and course). */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const form = await args.request.formData();
  const values: ReviewFormValues = { rating: String(form.get("rating") ?? ""), body: String(form.get("body") ?? "") };
  const course = await getCourseBySlug(db, args.params.slug);
  if (!course) throw new Response("Formation introuvable.", { status: 404 });
  try {
    const { created } = await saveReview(db, user, course.id, values);
    return redirectWithToast(`${href("/dashboard/formations/:slug", { slug: course.slug })}#mon-avis`, {
      type: "success",
      title: created ? "Merci pour votre avis" : "Avis modifié",
      description: created ? "Votre avis est publié sur la page de la formation." : "Votre avis a été mis à jour.",
    });
  } catch (error) {
    // Not (or no longer) a learner of the course: to its public page, as the course home does.
    if (isAppError(error, "forbidden") && error.reason === "not_enrolled") throw redirect(href("/formations/:slug", { slug: course.slug }));
    return formFailure(error, { intent: "review", values });
  }
}

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: loaderData ? loaderData.course.title : "Formation" }];

/** A followed course's home: progress, "Continuer", the next live session, the lessons. */
export default function LearnerCoursePage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    userId,
    course,
    sessions,
    nextLive,
    progress,
    completed,
    certified,
    lessons,
    resumeHref,
    started,
    quizzes,
    nextQuiz,
    canReview,
    review,
  } = loaderData;
  // Every lesson done: the required quiz still to pass, or the certificate it gave.
  const finishedStep = nextQuiz
    ? {
        text: `Toutes les leçons sont terminées. Réussissez « ${nextQuiz.title} » pour obtenir votre certificat.`,
        to: nextQuiz.href,
        label: nextQuiz.resume ? "Reprendre l'évaluation" : "Passer l'évaluation",
      }
    : certified
      ? { text: "Formation terminée : votre certificat est délivré.", to: "/dashboard/certificates", label: "Voir mon certificat" }
      : null;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/dashboard/formations" className="font-medium text-brand-700 hover:underline">
            Mes Formations
          </Link>
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Badge tone="brand">{course.categoryName}</Badge>
          {completed ? <Badge tone="green">Terminée</Badge> : null}
          {progress === null ? <Badge tone="amber">Aperçu enseignant</Badge> : null}
        </div>
        <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">{course.title}</h1>
        <p className="mt-2 text-slate-700">{course.description}</p>
      </div>

      <section aria-labelledby="avancement" className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="avancement" className="font-semibold text-slate-900">
          Votre avancement
        </h2>
        {progress !== null ? (
          <div className="mt-3">{<ProgressBar value={progress} label={`Progression dans ${course.title}`} />}</div>
        ) : null}
        {finishedStep ? (
          <>
            <p className="mt-3 text-slate-700">{finishedStep.text}</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <Link to={finishedStep.to} className={buttonClasses({ size: "lg", className: "w-full sm:w-auto" })}>
                {finishedStep.label}
              </Link>
              {resumeHref ? (
                <Link to={resumeHref} className={buttonClasses({ variant: "outline", size: "lg", className: "w-full sm:w-auto" })}>
                  Revoir les leçons
                </Link>
              ) : null}
            </div>
          </>
        ) : resumeHref ? (
          <Link to={resumeHref} className={buttonClasses({ size: "lg", className: "mt-4 w-full sm:w-auto" })}>
            {completed ? "Revoir les leçons" : started ? "Continuer" : "Commencer la formation"}
          </Link>
        ) : (
          <p className="mt-3 text-slate-700">Les leçons de cette formation arrivent bientôt : vous serez prévenu dès leur mise en ligne.</p>
        )}
      </section>

      {sessions.length > 0 ? (
        <section aria-labelledby="sessions-direct" className="rounded-lg border border-sky-200 bg-sky-50/50 p-5">
          <h2 id="sessions-direct" className="mb-3 flex items-center gap-2 font-semibold text-slate-900">
            <CalendarClock aria-hidden="true" className="size-5" />
            Sessions en direct
          </h2>
          <LearnerSessions sessions={sessions} back={`/dashboard/formations/${course.slug}`} showCourse={false} />
        </section>
      ) : nextLive ? (
        <section
          aria-labelledby="direct"
          className="flex flex-wrap items-center gap-3 rounded-lg border border-sky-200 bg-sky-50 p-5 text-sky-950"
        >
          <CalendarClock aria-hidden="true" className="size-6 shrink-0" />
          <div className="min-w-0 flex-1">
            <h2 id="direct" className="font-semibold">
              Prochaine session en direct
            </h2>
            <p className="text-sm">{nextLive}</p>
          </div>
          {course.liveSessionUrl ? (
            <a href={course.liveSessionUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses({ size: "sm" })}>
              <Video aria-hidden="true" className="size-4" />
              Rejoindre<span className="sr-only"> la session (s'ouvre sur un autre site)</span>
            </a>
          ) : null}
        </section>
      ) : null}

      {quizzes.length > 0 ? (
        <section aria-labelledby="evaluations" className="space-y-3">
          <h2 id="evaluations" className="text-lg font-semibold text-slate-900">
            Évaluations
          </h2>
          {quizzes.some((quiz) => quiz.required) ? (
            <p className="text-sm text-slate-700">
              Le certificat est délivré quand toutes les leçons sont terminées et les quiz obligatoires réussis.
            </p>
          ) : null}
          <LearnerQuizList slug={course.slug} quizzes={quizzes} />
        </section>
      ) : null}

      {progress !== null && lessons.length > 0 ? <OfflineDownload userId={userId} slug={course.slug} defaultChoice="low" /> : null}

      {lessons.length > 0 ? (
        <section aria-labelledby="sommaire" className="space-y-3">
          <h2 id="sommaire" className="text-lg font-semibold text-slate-900">
            Sommaire
          </h2>
          <CourseOutline slug={course.slug} lessons={lessons} />
        </section>
      ) : null}

      {canReview ? <ReviewForm review={review} failure={failureOf<ReviewFormValues>(actionData, "review")} /> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <LearnerRouteError error={error} missing={{ title: "Formation introuvable", text: "Cette formation n'existe pas." }} />;
}
