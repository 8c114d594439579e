import { ClipboardCheck, Clock, CloudUpload, MessageSquare, RotateCcw, Target } from "~/components/icons";
import { useState } from "react";
import { Form, Link, useNavigation, useRevalidator, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { getLearnerQuiz, startAttempt } from "~/.server/quizzes";
import { redirectWithToast } from "~/.server/toast";
import { useOnline, usePendingEntries } from "~/components/offline/offline-sync";
import { QuestionField } from "~/components/quizzes/question-field";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { formatDateTime } from "~/lib/dates";
import { messagesPath, messageUserHref } from "~/lib/messaging";
import { plural } from "~/lib/format";
import { isQuizAttempt, queueQuizAttempt, sendPending } from "~/lib/offline/outbox";
import { answersOf, formatPercent, type PublicQuestion } from "~/lib/quiz";
import { asLearner, idParam } from "./learner-access.server";
import type { Route } from "./+types/quiz";
import { LearnerRouteError } from "~/components/learning/learner-route-error";

export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { slug } = args.params;
  const view = await asLearner(slug, () => getLearnerQuiz(args.context.get(dbContext), user, slug, idParam(args.params.quizId)));
  return {
    userId: user.id,
    course: { slug: view.course.slug, title: view.course.title },
    // Every attempt spent on a quiz still to pass: the teacher (else the institute) can talk it through.
    askForHelp:
      view.attemptsLeft > 0 || view.passed
        ? null
        : view.course.instructorId
          ? { href: messageUserHref(view.course.instructorId), who: "votre enseignant" }
          : { href: `${messagesPath()}/nouveau`, who: "l'institut" },
    quiz: view.quiz,
    offlineQuestions: view.offlineQuestions,
    attempts: view.attempts.map((attempt) => ({
      id: attempt.id,
      attemptNumber: attempt.attemptNumber,
      inProgress: attempt.status === "in_progress",
      expired: attempt.status === "expired",
      date: formatDateTime(attempt.submittedAt ?? attempt.startedAt),
      score: attempt.score,
      passed: attempt.passed,
    })),
    inProgress: view.inProgress,
    attemptsLeft: view.attemptsLeft,
    bestScore: view.bestScore,
    passed: view.passed,
    closed: view.closed,
  };
}

/** "Commencer le quiz": the server opens an attempt (or resumes the open one) and sends the learner to it. */
export async function action(args: Route.ActionArgs) {
  const user = args.context.get(userContext);
  const { slug } = args.params;
  const quizId = idParam(args.params.quizId);
  return asLearner(slug, async () => {
    try {
      const { attempt } = await startAttempt(args.context.get(dbContext), user, slug, quizId);
      return redirectWithToast(
        `/dashboard/formations/${slug}/quiz/${quizId}/tentatives/${attempt.id}`,
        { type: "success", title: "Quiz commencé", description: "Vos réponses sont enregistrées au fur et à mesure." },
        { status: 303 },
      );
    } catch (error) {
      // No attempt left, or a quiz without question: said on the quiz's page.
      if (!isAppError(error, "conflict")) throw error;
      return redirectWithToast(
        args.url.pathname,
        { type: "error", title: "Impossible de commencer", description: error.message },
        { status: 303 },
      );
    }
  });
}

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: loaderData ? `${loaderData.quiz.title} · Quiz` : "Quiz" }];

/**
 * A quiz's page for its learner: what it asks, the attempts used, and "Commencer" or "Reprendre".
 * Without a network (issue 13; the page downloaded with its lesson, or open when the network went),
 * an untimed quiz is answered here and its attempt waits on the phone until the network returns;
 * a timed one says it needs the network.
 */
export default function LearnerQuizPage({ loaderData }: Route.ComponentProps) {
  const { userId, course, quiz, offlineQuestions, attempts, inProgress, attemptsLeft, bestScore, passed, closed, askForHelp } = loaderData;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const starting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const base = `/dashboard/formations/${course.slug}/quiz/${quiz.id}`;
  const online = useOnline();
  const waiting = usePendingEntries(userId)
    .filter(isQuizAttempt)
    .filter((entry) => entry.quizId === quiz.id);
  // A new attempt answered offline will use one of those left; answers finishing an open one will not.
  const newWaiting = waiting.filter((entry) => entry.openAttemptId === undefined).length;
  const [answering, setAnswering] = useState(false);

  /** "Commencer" without a network: an untimed quiz is answered on the page; a timed one waits for the network. */
  function startOffline(event: React.FormEvent<HTMLFormElement>) {
    if (navigator.onLine) return;
    event.preventDefault();
    if (offlineQuestions) setAnswering(true);
  }

  function keepOffline(answers: Record<string, string>) {
    queueQuizAttempt({
      userId,
      slug: course.slug,
      quizId: quiz.id,
      title: quiz.title,
      attemptId: crypto.randomUUID(),
      answers,
      answeredAt: new Date().toISOString(),
    });
    setAnswering(false);
    // The network came back while the learner answered: sent now rather than at the next page.
    if (navigator.onLine) void sendPending(userId).then(() => revalidator.revalidate());
  }

  if (answering && offlineQuestions) return <OfflineAttempt title={quiz.title} questions={offlineQuestions} onDone={keepOffline} />;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to={href("/dashboard/formations/:slug", { slug: course.slug })} className="font-medium text-brand-700 hover:underline">
            {course.title}
          </Link>
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <Badge tone="brand">Quiz</Badge>
          {quiz.required ? <Badge tone="amber">Obligatoire pour le certificat</Badge> : null}
          {passed ? <Badge tone="green">Réussi</Badge> : null}
        </div>
        <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">{quiz.title}</h1>
        {quiz.description ? <p className="mt-2 whitespace-pre-line text-slate-700">{quiz.description}</p> : null}
      </div>

      <section aria-labelledby="regles" className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="regles" className="font-semibold text-slate-900">
          Avant de commencer
        </h2>
        <ul className="mt-3 grid gap-3 text-slate-700 sm:grid-cols-2">
          <li className="flex items-center gap-2">
            <ClipboardCheck aria-hidden="true" className="size-5 text-brand-700" />
            {plural(quiz.questionCount, "question", "questions")} ·{" "}
            {quiz.totalPoints === null ? "tirées au hasard à chaque tentative" : plural(quiz.totalPoints, "point", "points")}
          </li>
          <li className="flex items-center gap-2">
            <Clock aria-hidden="true" className="size-5 text-brand-700" />
            {quiz.timeLimitMinutes === null ? "Sans limite de temps" : `${quiz.timeLimitMinutes} min pour répondre`}
          </li>
          <li className="flex items-center gap-2">
            <Target aria-hidden="true" className="size-5 text-brand-700" />
            Score requis : {formatPercent(quiz.passingScore)}
          </li>
          <li className="flex items-center gap-2">
            <RotateCcw aria-hidden="true" className="size-5 text-brand-700" />
            {plural(attemptsLeft, "tentative restante", "tentatives restantes")} sur {quiz.maxAttempts}
          </li>
        </ul>
        {quiz.timeLimitMinutes !== null ? (
          <p className="mt-3 text-sm text-slate-600">
            Le temps court dès que vous commencez, même si vous quittez la page : à la fin du temps, la tentative est corrigée avec les
            réponses enregistrées.
          </p>
        ) : null}
        {!online && quiz.timeLimitMinutes !== null ? (
          <Alert tone="warning" className="mt-4">
            Vous êtes hors ligne : ce quiz est chronométré et demande une connexion. Reconnectez-vous pour le commencer.
          </Alert>
        ) : null}
        {waiting.length > 0 ? (
          <p role="status" className="mt-4 flex items-start gap-2 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950">
            <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
            {waiting.length > 1
              ? `${waiting.length} tentatives sont gardées sur cet appareil : elles seront envoyées et corrigées dès le retour du réseau.`
              : "Vos réponses sont gardées sur cet appareil : elles seront envoyées et corrigées dès le retour du réseau."}
          </p>
        ) : null}
        <div className="mt-4">
          {inProgress ? (
            <Link to={`${base}/tentatives/${inProgress}`} className={buttonClasses({ size: "lg", className: "w-full sm:w-auto" })}>
              Reprendre la tentative en cours
            </Link>
          ) : closed ? (
            <p className="rounded-md bg-slate-100 px-4 py-3 text-slate-800">{closed}</p>
          ) : attemptsLeft - newWaiting > 0 ? (
            <Form method="post" onSubmit={startOffline}>
              {passed ? (
                <p className="mb-3 text-slate-700">
                  Vous avez réussi ce quiz. Vous pouvez le repasser pour vous entraîner : votre réussite reste acquise.
                </p>
              ) : null}
              <button
                type="submit"
                className={buttonClasses({ variant: passed ? "outline" : "primary", size: "lg", className: "w-full sm:w-auto" })}
                disabled={starting || (!online && quiz.timeLimitMinutes !== null)}
              >
                {starting ? "Ouverture..." : passed ? "Repasser le quiz" : attempts.length ? "Nouvelle tentative" : "Commencer le quiz"}
              </button>
            </Form>
          ) : (
            <div className="space-y-3 rounded-md bg-slate-100 px-4 py-3 text-slate-800">
              <p>
                Vous avez utilisé toutes vos tentatives pour ce quiz.
                {askForHelp && quiz.required
                  ? ` Il est obligatoire pour le certificat : écrivez à ${askForHelp.who}, qui peut vous ouvrir une nouvelle tentative.`
                  : ""}
              </p>
              {askForHelp ? (
                <Link to={askForHelp.href} className={buttonClasses({ variant: "outline", size: "sm" })}>
                  <MessageSquare aria-hidden="true" className="size-4" />
                  Écrire à {askForHelp.who}
                </Link>
              ) : null}
            </div>
          )}
        </div>
      </section>

      {attempts.length ? (
        <section aria-labelledby="tentatives" className="space-y-3">
          <h2 id="tentatives" className="text-lg font-semibold text-slate-900">
            Vos tentatives{bestScore !== null ? ` · meilleur score ${formatPercent(bestScore)}` : ""}
          </h2>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {attempts.map((attempt) => (
              <li key={attempt.id} className="flex flex-wrap items-center gap-3 p-4">
                <div className="min-w-0 flex-1 basis-48">
                  <p className="font-medium text-slate-900">Tentative {attempt.attemptNumber}</p>
                  <p className="text-sm text-slate-600">
                    {attempt.inProgress
                      ? `Commencée le ${attempt.date}`
                      : `${attempt.expired ? "Temps écoulé le" : "Envoyée le"} ${attempt.date}`}
                  </p>
                </div>
                {attempt.inProgress ? (
                  <Badge tone="blue">En cours</Badge>
                ) : (
                  <>
                    <span className="font-semibold text-slate-900">{formatPercent(attempt.score ?? 0)}</span>
                    <Badge tone={attempt.passed ? "green" : "red"}>{attempt.passed ? "Réussi" : "Échoué"}</Badge>
                  </>
                )}
                <Link to={`${base}/tentatives/${attempt.id}`} className={buttonClasses({ variant: "ghost", size: "sm" })}>
                  {attempt.inProgress ? "Reprendre" : "Voir"}
                  <span className="sr-only"> la tentative {attempt.attemptNumber}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** An untimed quiz answered without a network: the answers stay on the phone when it is sent. */
function OfflineAttempt({
  title,
  questions,
  onDone,
}: {
  title: string;
  questions: PublicQuestion[];
  onDone: (answers: Record<string, string>) => void;
}) {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{title}</h1>
      <p role="status" className="flex items-start gap-2 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950">
        <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
        Vous êtes hors ligne : vos réponses seront gardées sur cet appareil, puis envoyées et corrigées dès le retour du réseau.
      </p>
      <form
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          onDone(answersOf(new FormData(event.currentTarget)));
        }}
      >
        <ol className="space-y-5">
          {questions.map((question, index) => (
            <li key={question.id}>
              <QuestionField question={question} index={index} value="" />
            </li>
          ))}
        </ol>
        <button type="submit" className={buttonClasses({ size: "lg", className: "w-full sm:w-auto" })}>
          Terminer et envoyer
        </button>
      </form>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <LearnerRouteError error={error} missing={{ title: "Quiz introuvable", text: "Ce quiz n'existe pas ou a été retiré." }} />;
}
