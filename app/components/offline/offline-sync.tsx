import { CloudUpload, X } from "~/components/icons";
import { useEffect, useState } from "react";
import { Link, useRevalidator } from "react-router";
import {
  dismissRefused,
  forgetOtherLearnersPending,
  isQuizAttempt,
  onPendingChange,
  pendingEntries,
  refusedEntries,
  sendPending,
  type PendingEntry,
  type RefusedQuizAttempt,
} from "~/lib/offline/outbox";
import { DOWNLOADS_PATH, forgetOtherLearners } from "~/lib/offline/store";

/** What waits to be sent for this learner, kept up to date (this tab, other tabs). */
export function usePendingEntries(userId: string): PendingEntry[] {
  const [pending, setPending] = useState<PendingEntry[]>([]);
  useEffect(() => {
    const update = () => setPending(pendingEntries(userId));
    update();
    return onPendingChange(update);
  }, [userId]);
  return pending;
}

/** Quiz answers the server refused for good, until the learner dismisses them. */
function useRefusedEntries(userId: string): RefusedQuizAttempt[] {
  const [refused, setRefused] = useState<RefusedQuizAttempt[]>([]);
  useEffect(() => {
    const update = () => setRefused(refusedEntries(userId));
    update();
    return onPendingChange(update);
  }, [userId]);
  return refused;
}

/** Whether the browser says it has a network (true while the page renders on the server). */
export function useOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

/** The banner's sentence: progress, quiz answers, or both. */
function waitingText(quizzes: number, total: number): string {
  const lessons = total - quizzes;
  if (quizzes === 0)
    return lessons > 1
      ? `${lessons} progressions attendent d'être envoyées : elles partiront dès le retour du réseau.`
      : "Une progression attend d'être envoyée : elle partira dès le retour du réseau.";
  if (lessons === 0)
    return quizzes > 1
      ? `Vos réponses à ${quizzes} quiz attendent d'être envoyées : elles partiront dès le retour du réseau.`
      : "Vos réponses à un quiz attendent d'être envoyées : elles partiront dès le retour du réseau.";
  return `${total} envois attendent le réseau (progression et réponses aux quiz) : ils partiront dès son retour.`;
}

/**
 * In every signed-in page: sends the progress and quiz answers kept offline as soon as the network
 * is there (on opening, and when it returns), refreshes the page's figures once sent, and says
 * what still waits, and which quiz answers the server refused for good (the quiz became timed, no
 * attempt left), until the learner dismisses it. Also removes what another learner left on this phone (a session that ended
 * without signing out): their stored lessons and what they had not sent.
 */
export function OfflineSync({ userId }: { userId: string }) {
  const pending = usePendingEntries(userId);
  const refused = useRefusedEntries(userId);
  const revalidator = useRevalidator();

  useEffect(() => {
    void forgetOtherLearners(userId);
    forgetOtherLearnersPending(userId);
    const send = async () => {
      const before = pendingEntries(userId).length;
      if (!before || !navigator.onLine) return;
      const left = await sendPending(userId);
      if (left < before) void revalidator.revalidate();
    };
    void send();
    window.addEventListener("online", send);
    return () => window.removeEventListener("online", send);
    // The revalidator changes on every navigation; sending once per learner and per reconnection is enough.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);

  return (
    <>
      {refused.map((entry) => (
        <p
          key={entry.attemptId}
          role="alert"
          className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950"
        >
          <span className="min-w-0 flex-1">
            Vos réponses au quiz « {entry.title} », données hors ligne, n'ont pas été enregistrées : {entry.reason}
          </span>
          <button
            type="button"
            onClick={() => dismissRefused(entry.attemptId)}
            className="inline-flex items-center gap-1 rounded font-medium underline focus-visible:ring-2 focus-visible:ring-red-700 focus-visible:outline-none"
          >
            <X aria-hidden="true" className="size-4" />
            J'ai compris
          </button>
        </p>
      ))}
      {pending.length > 0 ? (
        <p
          role="status"
          className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
        >
          <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
          <span className="min-w-0 flex-1">{waitingText(pending.filter(isQuizAttempt).length, pending.length)}</span>
          <Link to={DOWNLOADS_PATH} className="font-medium underline">
            Voir le détail
          </Link>
        </p>
      ) : null}
    </>
  );
}
