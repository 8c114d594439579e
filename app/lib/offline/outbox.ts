import { ANSWER_PREFIX } from "~/lib/quiz";

/**
 * What a learner did offline (issue 13), kept on the phone until the network returns, then sent to
 * the server, which takes each idempotently (sent twice or late, nothing is lost or counted twice):
 * - a lesson's progress, "Marquer comme terminé" and the video position, to its /progression
 *   (one entry per lesson, merged);
 * - an untimed quiz answered offline, to its /hors-ligne (one entry per attempt, named by an id
 *   made here, so the server records it once).
 * A few small entries in localStorage (cleared with the rest on sign-out by Clear-Site-Data
 * "storage"); each names its learner, and only theirs is ever sent. Browser only.
 */
export const OUTBOX_KEY = "campus-envois-en-attente";
/** Quiz answers the server refused for good, kept until the learner has read why. */
export const REFUSED_KEY = "campus-envois-refuses";
const CHANGED = "campus:envois";

export type PendingProgress = {
  userId: string;
  slug: string;
  lessonId: number;
  title: string;
  /** The furthest video position reached offline, in seconds. */
  seconds?: number;
  /** When "Marquer comme terminé" was pressed (ISO). */
  doneAt?: string;
};

export type PendingQuizAttempt = {
  userId: string;
  slug: string;
  quizId: number;
  title: string;
  /** The attempt's id, made on the phone (a UUID): the server records it once, however often it arrives. */
  attemptId: string;
  /** Question id → the answer given. */
  answers: Record<string, string>;
  /** When "Terminer et envoyer" was pressed (ISO). */
  answeredAt: string;
  /** The attempt started online that these answers finish (the network went while it was open). */
  openAttemptId?: number;
};

export type PendingEntry = PendingProgress | PendingQuizAttempt;

/** A quiz attempt the server refused for good (409: the quiz became timed, no attempt left). */
export type RefusedQuizAttempt = {
  userId: string;
  attemptId: string;
  title: string;
  /** The server's reason, in French. */
  reason: string;
};

export const isQuizAttempt = (entry: PendingEntry): entry is PendingQuizAttempt => "attemptId" in entry;

function readList<T>(key: string): T[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key) ?? "[]");
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function writeList<T>(key: string, entries: T[]) {
  if (entries.length) localStorage.setItem(key, JSON.stringify(entries));
  else localStorage.removeItem(key);
  window.dispatchEvent(new Event(CHANGED));
}

const read = () => readList<PendingEntry>(OUTBOX_KEY);
const write = (entries: PendingEntry[]) => writeList(OUTBOX_KEY, entries);

const sameLesson = (a: PendingEntry, b: { userId: string; lessonId: number }): a is PendingProgress =>
  !isQuizAttempt(a) && a.userId === b.userId && a.lessonId === b.lessonId;
const sameAttempt = (a: PendingEntry, b: PendingQuizAttempt) => isQuizAttempt(a) && a.attemptId === b.attemptId;

/** Merges `entry` into what waits: per lesson, the furthest position and the first completion. */
export function queueProgress(entry: PendingProgress) {
  const entries = read();
  const existing = entries.find((item) => sameLesson(item, entry));
  if (!existing) {
    write([...entries, entry]);
    return;
  }
  if (entry.seconds !== undefined) existing.seconds = Math.max(existing.seconds ?? 0, entry.seconds);
  if (entry.doneAt && (!existing.doneAt || entry.doneAt < existing.doneAt)) existing.doneAt = entry.doneAt;
  write(entries);
}

/** An untimed quiz answered offline, to be sent as one attempt (kept once, whatever calls it twice). */
export function queueQuizAttempt(entry: PendingQuizAttempt) {
  const entries = read();
  if (!entries.some((item) => sameAttempt(item, entry))) write([...entries, entry]);
}

/** What waits to be sent for this learner. */
export function pendingEntries(userId: string): PendingEntry[] {
  return read().filter((entry) => entry.userId === userId);
}

/** This learner's quiz answers the server refused for good, until they dismiss them. */
export function refusedEntries(userId: string): RefusedQuizAttempt[] {
  return readList<RefusedQuizAttempt>(REFUSED_KEY).filter((entry) => entry.userId === userId);
}

/** The learner has read why: the notice goes. */
export function dismissRefused(attemptId: string) {
  writeList(
    REFUSED_KEY,
    readList<RefusedQuizAttempt>(REFUSED_KEY).filter((entry) => entry.attemptId !== attemptId),
  );
}

/** Anyone else's entries (a session that ended without signing out): dropped, never sent as this learner. */
export function forgetOtherLearnersPending(userId: string) {
  const entries = read();
  const mine = entries.filter((entry) => entry.userId === userId);
  if (mine.length !== entries.length) write(mine);
  const refused = readList<RefusedQuizAttempt>(REFUSED_KEY);
  const mineRefused = refused.filter((entry) => entry.userId === userId);
  if (mineRefused.length !== refused.length) writeList(REFUSED_KEY, mineRefused);
}

/** Calls `listener` whenever what waits changes (in this tab or another). */
export function onPendingChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === OUTBOX_KEY || event.key === REFUSED_KEY) listener();
  };
  window.addEventListener(CHANGED, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Where an entry goes, and what it says. */
function requestOf(entry: PendingEntry): { url: string; body: FormData } {
  const body = new FormData();
  const course = `/dashboard/formations/${encodeURIComponent(entry.slug)}`;
  if (isQuizAttempt(entry)) {
    body.set("tentative", entry.attemptId);
    body.set("repondu", entry.answeredAt);
    if (entry.openAttemptId !== undefined) body.set("ouverte", String(entry.openAttemptId));
    for (const [questionId, answer] of Object.entries(entry.answers)) body.set(`${ANSWER_PREFIX}${questionId}`, answer);
    return { url: `${course}/quiz/${entry.quizId}/hors-ligne`, body };
  }
  if (entry.seconds !== undefined) body.set("secondes", String(entry.seconds));
  if (entry.doneAt) body.set("terminee", entry.doneAt);
  return { url: `${course}/lecons/${entry.lessonId}/progression`, body };
}

let sending: Promise<number> | null = null;

/**
 * Sends what waits for this learner, one entry at a time; stops at the first network failure
 * (the rest waits for the next try). An entry leaves the queue once the server kept it (204) or
 * refused it for good (400/404/409: not this learner's lesson or quiz any more, a quiz now timed
 * or without attempts left); a quiz attempt refused with 409 is kept, with the server's reason, to
 * tell the learner (`refusedEntries`). Of a lesson's progress, what was added while it was on its
 * way stays. Returns how many entries still wait.
 */
export function sendPending(userId: string): Promise<number> {
  sending ??= (async () => {
    try {
      for (const entry of pendingEntries(userId)) {
        const { url, body } = requestOf(entry);
        let response: Response;
        try {
          response = await fetch(url, { method: "POST", body, credentials: "same-origin" });
        } catch {
          break;
        }
        if (response.status >= 500 || response.status === 401 || response.status === 403 || response.redirected) break;
        const entries = read();
        if (isQuizAttempt(entry)) {
          if (response.status === 409) {
            const reason = (await response.text().catch(() => "")) || "Ce quiz ne peut plus recevoir cette tentative.";
            const refused = readList<RefusedQuizAttempt>(REFUSED_KEY).filter((item) => item.attemptId !== entry.attemptId);
            writeList(REFUSED_KEY, [...refused, { userId, attemptId: entry.attemptId, title: entry.title, reason }]);
          }
          write(entries.filter((item) => !sameAttempt(item, entry)));
          continue;
        }
        const now = entries.find((item) => sameLesson(item, entry));
        if (!now) continue;
        // Sent: forget what was sent, keep anything newer.
        if (now.seconds !== undefined && now.seconds <= (entry.seconds ?? -1)) delete now.seconds;
        if (now.doneAt && entry.doneAt) delete now.doneAt;
        write(entries.filter((item) => !sameLesson(item, entry) || item.seconds !== undefined || item.doneAt));
      }
      return pendingEntries(userId).length;
    } finally {
      sending = null;
    }
  })();
  return sending;
}
