import { CircleCheck, CircleX, Clock, CloudUpload } from "~/components/icons";
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useNavigation, type ShouldRevalidateFunctionArgs, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { getLearnerAttempt, saveAnswers, submitAttempt, unansweredBeforeSubmit } from "~/.server/quizzes";
import { redirectWithToast } from "~/.server/toast";
import { usePendingEntries } from "~/components/offline/offline-sync";
import { QuestionField, questionFieldId } from "~/components/quizzes/question-field";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { BACKGROUND_SAVE, isBackgroundSave } from "~/lib/background-save";
import { formatDateTime } from "~/lib/dates";
import { plural } from "~/lib/format";
import { isQuizAttempt, queueQuizAttempt } from "~/lib/offline/outbox";
import { ANSWER_PREFIX, answersOf, formatCountdown, formatPercent, secondsLeft } from "~/lib/quiz";
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
      deadline: view.deadlineAt ? { at: view.deadlineAt.toISOString(), label: formatDateTime(view.deadlineAt) } : null,
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
  };
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

type OpenData = Extract<Route.ComponentProps["loaderData"], { state: "open" }>;

/** The countdown: the server's remaining seconds, counted down here; at zero the form is sent. */
function Countdown({ seconds, deadlineLabel, onElapsed }: { seconds: number; deadlineLabel: string; onElapsed: () => void }) {
  const [left, setLeft] = useState(seconds);
  const elapsed = useRef(onElapsed);
  elapsed.current = onElapsed;
  useEffect(() => {
    const end = Date.now() + seconds * 1000;
    let fired = false;
    const tick = () => {
      const now = Math.max(0, Math.round((end - Date.now()) / 1000));
      setLeft(now);
      if (now === 0 && !fired) {
        fired = true;
        elapsed.current();
      }
    };
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [seconds]);
  const urgent = left <= 60;
  return (
    <p
      className={`flex flex-wrap items-center gap-2 rounded-md px-4 py-3 font-medium ${urgent ? "bg-red-50 text-red-900" : "bg-sky-50 text-sky-950"}`}
    >
      <Clock aria-hidden="true" className="size-5" />
      <span>
        Temps restant : <span className="font-mono text-lg tabular-nums">{formatCountdown(left)}</span>
      </span>
      <span className="text-sm font-normal">(jusqu'à {deadlineLabel})</span>
    </p>
  );
}

function OpenAttempt({
  userId,
  course,
  quiz,
  attempt,
  questions,
  answers,
  deadline,
  secondsLeft: seconds,
  unansweredAtSubmit,
}: OpenData & { unansweredAtSubmit: number }) {
  const fetcher = useFetcher<typeof action>();
  const navigation = useNavigation();
  const form = useRef<HTMLFormElement>(null);
  const [answered, setAnswered] = useState(() => new Set(Object.keys(answers)));
  const [offlineMessage, setOfflineMessage] = useState<string | null>(null);
  const kept = usePendingEntries(userId).some((entry) => isQuizAttempt(entry) && entry.openAttemptId === attempt.id);
  const timers = useRef(new Map<string, number>());
  const sending = navigation.state !== "idle" && navigation.formMethod === "POST";

  const save = (questionId: string, value: string) => {
    setAnswered((current) => {
      const next = new Set(current);
      if (value.trim()) next.add(questionId);
      else next.delete(questionId);
      return next;
    });
    // Without a network the answer stays in the form, sent with "Terminer et envoyer".
    if (!navigator.onLine) return;
    void fetcher.submit({ ...BACKGROUND_SAVE, [`${ANSWER_PREFIX}${questionId}`]: value }, { method: "post" });
  };

  /**
   * "Terminer et envoyer" without a network (issue 13): an untimed attempt's answers wait on the
   * phone and finish it when the network returns; a timed one needs the network.
   */
  const submitOffline = (event: React.FormEvent<HTMLFormElement>) => {
    if (navigator.onLine) return;
    event.preventDefault();
    if (deadline) {
      setOfflineMessage(
        "Vous êtes hors ligne : ce quiz chronométré demande une connexion. Les réponses enregistrées avant la fin du temps comptent.",
      );
      return;
    }
    queueQuizAttempt({
      userId,
      slug: course.slug,
      quizId: quiz.id,
      title: quiz.title,
      attemptId: crypto.randomUUID(),
      answers: answersOf(new FormData(event.currentTarget)),
      answeredAt: new Date().toISOString(),
      openAttemptId: attempt.id,
    });
    setOfflineMessage(null);
  };
  const saveLater = (questionId: string, value: string) => {
    window.clearTimeout(timers.current.get(questionId));
    timers.current.set(
      questionId,
      window.setTimeout(() => save(questionId, value), 700),
    );
  };
  const status =
    fetcher.state !== "idle"
      ? "Enregistrement..."
      : fetcher.data
        ? fetcher.data.ok
          ? "Réponses enregistrées"
          : fetcher.data.message
        : null;

  // Time up: sent as it is, without asking about the questions left.
  const submitNow = () => {
    const element = form.current;
    const button = element?.querySelector<HTMLButtonElement>('button[value="submit"]');
    const confirmed = element?.querySelector<HTMLInputElement>('input[name="confirmed"]');
    if (confirmed) confirmed.value = "yes";
    if (element && button) element.requestSubmit(button);
  };
  // "Terminer et envoyer" with questions unanswered came back asking to confirm (until they all are).
  const unanswered = questions.filter((question) => !answered.has(question.id));
  const confirming = unansweredAtSubmit > 0 && unanswered.length > 0;

  return (
    <>
      {deadline && seconds !== null ? <Countdown seconds={seconds} deadlineLabel={deadline.label} onElapsed={submitNow} /> : null}
      <Form method="post" ref={form} className="space-y-5" replace onSubmit={submitOffline}>
        <ol className="space-y-5">
          {questions.map((question, index) => (
            <li key={question.id}>
              <QuestionField
                question={question}
                index={index}
                value={answers[question.id] ?? ""}
                onChoice={(value) => save(question.id, value)}
                onText={(value) => saveLater(question.id, value)}
                onTextDone={(value) => {
                  window.clearTimeout(timers.current.get(question.id));
                  save(question.id, value);
                }}
              />
            </li>
          ))}
        </ol>
        <div className="sticky bottom-0 -mx-4 space-y-3 border-t border-slate-200 bg-white px-4 py-4 sm:static sm:mx-0 sm:rounded-lg sm:border sm:px-5">
          <Alert tone="warning">{offlineMessage}</Alert>
          {kept ? (
            <p role="status" className="flex items-start gap-2 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-950">
              <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
              Vos réponses sont gardées sur cet appareil : elles seront envoyées et corrigées dès le retour du réseau.
            </p>
          ) : null}
          {confirming ? (
            <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
              <span className="font-semibold">
                {plural(unanswered.length, "question", "questions")} sur {questions.length} sans réponse.
              </span>{" "}
              Une fois envoyée, la tentative est corrigée et comptée.
            </div>
          ) : null}
          <p className="text-sm text-slate-700" aria-live="polite">
            {plural(answered.size, "réponse donnée", "réponses données")} sur {questions.length}
            {status ? ` · ${status}` : ""}
          </p>
          <input type="hidden" name="confirmed" value={confirming ? "yes" : ""} />
          <div className="flex flex-col gap-2 sm:flex-row">
            <button type="submit" name="intent" value="submit" className={buttonClasses({ size: "lg" })} disabled={sending || kept}>
              {sending ? "Envoi..." : confirming ? "Envoyer quand même" : "Terminer et envoyer"}
            </button>
            {confirming ? (
              <a
                href={`#${questionFieldId(unanswered[0]!.id)}`}
                onClick={(event) => {
                  // In place: a navigation to the anchor would drop the confirmation.
                  const field = document.getElementById(questionFieldId(unanswered[0]!.id));
                  if (!field) return;
                  event.preventDefault();
                  field.scrollIntoView({ block: "center" });
                  const input = field instanceof HTMLInputElement ? field : field.querySelector("input");
                  input?.focus({ preventScroll: true });
                }}
                className={buttonClasses({ variant: "outline", size: "lg" })}
              >
                Répondre aux questions
              </a>
            ) : (
              <button
                type="submit"
                name="intent"
                value="save"
                className={buttonClasses({ variant: "outline", size: "lg" })}
                disabled={sending}
              >
                Enregistrer mes réponses
              </button>
            )}
          </div>
          {confirming ? null : (
            <p className="text-xs text-slate-600">Vos réponses sont gardées sur le serveur : vous pouvez fermer la page et revenir.</p>
          )}
        </div>
      </Form>
    </>
  );
}

type GradedData = Extract<Route.ComponentProps["loaderData"], { state: "graded" }>;

function GradedAttempt({
  quiz,
  attempt,
  earnedPoints,
  totalPoints,
  attemptsLeft,
  corrections,
  course,
  base,
}: GradedData & { base: string }) {
  return (
    <>
      <section
        aria-labelledby="verdict"
        className={`rounded-lg border p-5 ${attempt.passed ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
      >
        <h2 id="verdict" className="flex items-center gap-2 text-xl font-bold text-slate-900">
          {attempt.passed ? (
            <CircleCheck aria-hidden="true" className="size-6 text-emerald-700" />
          ) : (
            <CircleX aria-hidden="true" className="size-6 text-red-700" />
          )}
          {attempt.passed ? "Réussi" : "Échoué"} · {formatPercent(attempt.score)}
        </h2>
        <p className="mt-2 text-slate-800">
          {plural(earnedPoints, "point obtenu", "points obtenus")} sur {totalPoints} · score requis {formatPercent(quiz.passingScore)}
          {attempt.submittedAt ? ` · ${attempt.expired ? "temps écoulé le" : "envoyé le"} ${attempt.submittedAt}` : ""}
        </p>
        {attempt.expired ? (
          <p className="mt-2 text-sm text-slate-700">Le temps était écoulé : seules les réponses enregistrées avant la fin ont compté.</p>
        ) : null}
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          {attemptsLeft > 0 && !attempt.passed ? (
            <Form method="post" action={base}>
              <button type="submit" className={buttonClasses({ className: "w-full sm:w-auto" })}>
                Nouvelle tentative ({plural(attemptsLeft, "restante", "restantes")})
              </button>
            </Form>
          ) : null}
          <Link to={href("/dashboard/formations/:slug", { slug: course.slug })} className={buttonClasses({ variant: "outline" })}>
            Retour à la formation
          </Link>
          {attempt.passed && quiz.required ? (
            <Link to="/dashboard/certificates" className={buttonClasses({ variant: "ghost" })}>
              Mes certificats
            </Link>
          ) : null}
        </div>
      </section>

      {corrections ? (
        <section aria-labelledby="corrections" className="space-y-3">
          <h2 id="corrections" className="text-lg font-semibold text-slate-900">
            Corrections
          </h2>
          <ol className="space-y-3">
            {corrections.map((item, index) => (
              <li key={item.id} className="rounded-lg border border-slate-200 bg-white p-4">
                <p className="flex flex-wrap items-start justify-between gap-2">
                  <span className="font-semibold text-slate-900">
                    {index + 1}. {item.question}
                  </span>
                  <Badge tone={item.correct ? "green" : "red"}>{item.correct ? "Bonne réponse" : "Réponse fausse"}</Badge>
                </p>
                <dl className="mt-2 grid gap-1 text-sm text-slate-800">
                  <div>
                    <dt className="inline font-medium">Votre réponse : </dt>
                    <dd className="inline">{item.given}</dd>
                  </div>
                  {!item.correct ? (
                    <div>
                      <dt className="inline font-medium">Réponse attendue : </dt>
                      <dd className="inline">{item.expected}</dd>
                    </div>
                  ) : null}
                  {item.explanation ? (
                    <div className="mt-1 rounded-md bg-slate-50 p-2">
                      <dt className="sr-only">Explication</dt>
                      <dd>{item.explanation}</dd>
                    </div>
                  ) : null}
                </dl>
              </li>
            ))}
          </ol>
        </section>
      ) : (
        <p className="rounded-md bg-slate-100 px-4 py-3 text-slate-800">L'enseignant n'affiche pas les corrections de ce quiz.</p>
      )}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <LearnerRouteError error={error} missing={{ title: "Tentative introuvable", text: "Cette tentative n'existe pas." }} />;
}
