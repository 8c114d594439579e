import { data, Link, type ShouldRevalidateFunctionArgs, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { getLearnerAttempt, saveAnswers, submitAttempt, unansweredBeforeSubmit } from "~/.server/quizzes";
import { redirectWithToast } from "~/.server/toast";
import { GradedAttempt } from "~/components/quizzes/graded-attempt";
import { OpenAttempt } from "~/components/quizzes/open-attempt";
import { BACKGROUND_SAVE, isBackgroundSave } from "~/lib/background-save";
import { formatDateTime, formatUntil } from "~/lib/dates";
import { answersOf, formatPercent, secondsLeft, type CorrectionMode } from "~/lib/quiz";
import { asLearner, idParam } from "./learner-access.server";
import type { Route } from "./+types/quiz-tentative";
import { LearnerRouteError } from "~/components/learning/learner-route-error";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { slug } = args.params;
  const view = await asLearner(slug, () =>
    getLearnerAttempt(args.context.get(dbContext), user, slug, idParam(args.params.quizId), idParam(args.params.attemptId)),
  );
  const header = {
    userId: user.id,
    course: { slug: view.course.slug, title: view.course.title },
    quiz: view.quiz,
    attempt: {
      id: view.attempt.id,
      attemptNumber: view.attempt.attemptNumber,
      expired: view.attempt.status === "expired",
      submittedAt: view.attempt.submittedAt ? formatDateTime(view.attempt.submittedAt) : null,
      score: view.attempt.score ?? 0,
      passed: view.attempt.passed ?? false,
    },
  };
  if (view.state === "open") {
    // Only what a learner may see before submitting: questions and options, never the right answers.
    return {
      ...header,
      state: "open" as const,
      questions: view.questions,
      answers: view.answers,
      deadline: view.deadlineAt ? { at: view.deadlineAt.toISOString(), label: formatUntil(view.deadlineAt, view.now) } : null,
      secondsLeft: secondsLeft(view.deadlineAt, view.now),
    };
  }
  return {
    ...header,
    state: "graded" as const,
    earnedPoints: view.earnedPoints,
    totalPoints: view.totalPoints,
    attemptsLeft: view.attemptsLeft,
    corrections: view.corrections,
    // Withheld: only which questions were right, and when the correction opens.
    outcomes: view.corrections ? null : view.outcomes,
    correctionsLater: view.correctionsLater ? correctionsLaterText(view.correctionsLater) : null,
  };
}

/** When a withheld correction opens, as the result page says it. */
function correctionsLaterText({ mode, at }: { mode: CorrectionMode; at: Date | null }): string {
  if (mode === "after_date" && at) return `La correction (réponses attendues et explications) sera disponible le ${formatDateTime(at)}.`;
  if (mode === "after_last_attempt")
    return "La correction (réponses attendues et explications) sera disponible après votre dernière tentative, ou dès que vous aurez réussi le quiz.";
  return "L'enseignant ne publie pas la correction de ce quiz : vous voyez votre score et les questions réussies ou manquées.";
}

/**
 * "save": the answers given so far (one at each choice with JavaScript, every field without);
 * "submit": "Terminer et envoyer". The server checks the deadline: a late answer is not counted.
 */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const form = await args.request.formData();
  const intent = form.get("intent");
  const here = args.url.pathname;
  const attemptId = idParam(args.params.attemptId);
  const answers = answersOf(form);
  const fetched = form.get("js") === BACKGROUND_SAVE.js;
  // Refusals the learner can act on come back to the page; the rest (404, paused) is the error page.
  return asLearner(args.params.slug, async () => {
    try {
      if (intent === "submit") {
        // Questions left without an answer: the learner confirms first (the page says how many).
        const confirmed = form.get("confirmed") === "yes";
        if (!confirmed) {
          const unanswered = await unansweredBeforeSubmit(db, user, attemptId, answers);
          if (unanswered > 0) return data({ ok: false as const, message: null, closed: false, unanswered });
        }
        // Unconfirmed, the answers were saved by the check above.
        const attempt = await submitAttempt(db, user, attemptId, confirmed ? answers : {});
        if (attempt.status === "expired")
          return redirectWithToast(
            here,
            {
              type: "error",
              title: "Temps écoulé",
              description: "Seules les réponses enregistrées avant la fin du temps ont été comptées.",
            },
            { status: 303 },
          );
        return redirectWithToast(
          here,
          { type: "success", title: "Quiz envoyé", description: `Votre score : ${formatPercent(attempt.score ?? 0)}` },
          { status: 303 },
        );
      }
      if (intent !== "save") return data({ ok: false as const, message: "Action inconnue.", closed: false }, { status: 400 });
      await saveAnswers(db, user, attemptId, answers);
      if (fetched) return data({ ok: true as const, message: "Réponses enregistrées", closed: false });
      return redirectWithToast(
        here,
        { type: "success", title: "Réponses enregistrées", description: "Vous pouvez reprendre plus tard ou envoyer le quiz." },
        { status: 303 },
      );
    } catch (error) {
      if (!isAppError(error) || (error.code !== "conflict" && error.code !== "invalid")) throw error;
      const conflict = error.code === "conflict";
      const message = Object.values(error.fieldErrors)[0] ?? error.message;
      if (fetched) return data({ ok: false as const, message, closed: conflict }, { status: conflict ? 409 : 400 });
      return redirectWithToast(here, { type: "error", title: "Réponse non enregistrée", description: message }, { status: 303 });
    }
  });
}

/** An answer saved in the background changes nothing on the page: no reload, unless the attempt was closed meanwhile. */
export function shouldRevalidate({ formData, actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (isBackgroundSave(formData)) {
    return Boolean(actionResult && typeof actionResult === "object" && "closed" in actionResult && actionResult.closed);
  }
  return defaultShouldRevalidate;
}

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: loaderData ? `Tentative ${loaderData.attempt.attemptNumber} · ${loaderData.quiz.title}` : "Quiz" },
];

export default function AttemptPage({ loaderData, actionData }: Route.ComponentProps) {
  const base = `/dashboard/formations/${loaderData.course.slug}/quiz/${loaderData.quiz.id}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link
            to={href("/dashboard/formations/:slug", { slug: loaderData.course.slug })}
            className="font-medium text-brand-700 hover:underline"
          >
            {loaderData.course.title}
          </Link>
          <span aria-hidden="true"> · </span>
          <Link to={base} className="font-medium text-brand-700 hover:underline">
            {loaderData.quiz.title}
          </Link>
        </p>
        <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">
          {loaderData.quiz.title} <span className="text-slate-600">· tentative {loaderData.attempt.attemptNumber}</span>
        </h1>
      </div>
      {loaderData.state === "open" ? (
        <OpenAttempt
          key={loaderData.attempt.id}
          {...loaderData}
          unansweredAtSubmit={actionData && "unanswered" in actionData ? actionData.unanswered : 0}
        />
      ) : (
        <GradedAttempt {...loaderData} base={base} />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <LearnerRouteError error={error} missing={{ title: "Tentative introuvable", text: "Cette tentative n'existe pas." }} />;
}
