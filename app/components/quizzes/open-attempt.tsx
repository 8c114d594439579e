import { Clock, CloudUpload } from "~/components/icons";
import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { usePendingEntries } from "~/components/offline/offline-sync";
import { QuestionField, questionFieldId } from "~/components/quizzes/question-field";
import { Alert } from "~/components/ui/alert";
import { buttonClasses } from "~/components/ui/button";
import { BACKGROUND_SAVE } from "~/lib/background-save";
import { plural } from "~/lib/format";
import { isQuizAttempt, queueQuizAttempt } from "~/lib/offline/outbox";
import { ANSWER_PREFIX, answersOf, formatCountdown, type PublicQuestion } from "~/lib/quiz";

/** An open attempt as the attempt page's loader sends it: the questions, never their answers. */
export type OpenAttemptData = {
  userId: string;
  course: { slug: string };
  quiz: { id: number; title: string };
  attempt: { id: number };
  questions: PublicQuestion[];
  answers: Record<string, string>;
  /** `label`: "jusqu'au 4 décembre 2026 à 14:05". */
  deadline: { at: string; label: string } | null;
  secondsLeft: number | null;
};

/** What the attempt page's action answers a background save. */
type SaveResult = { ok: boolean; message: string | null; closed: boolean };

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
      <span className="text-sm font-normal">{deadlineLabel}</span>
    </p>
  );
}

/** An attempt being answered: saved at each choice, sent with "Terminer et envoyer" (kept on the phone offline). */
export function OpenAttempt({
  userId,
  course,
  quiz,
  attempt,
  questions,
  answers,
  deadline,
  secondsLeft: seconds,
  unansweredAtSubmit,
}: OpenAttemptData & { unansweredAtSubmit: number }) {
  const fetcher = useFetcher<SaveResult>();
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
