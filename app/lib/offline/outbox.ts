/**
 * Progress given offline (issue 13): "Marquer comme terminé" and the video position, kept on the
 * phone until the network returns, then sent to the lesson's /progression (idempotent on the
 * server: sent twice or late, nothing is lost or counted twice). A few small entries, one per
 * lesson, in localStorage (cleared with the rest on sign-out by Clear-Site-Data "storage"); each
 * names its learner, and only theirs is ever sent. Browser only.
 */
export const OUTBOX_KEY = "campus-envois-en-attente";
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

function read(): PendingProgress[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(OUTBOX_KEY) ?? "[]");
    return Array.isArray(value) ? (value as PendingProgress[]) : [];
  } catch {
    return [];
  }
}

function write(entries: PendingProgress[]) {
  if (entries.length) localStorage.setItem(OUTBOX_KEY, JSON.stringify(entries));
  else localStorage.removeItem(OUTBOX_KEY);
  window.dispatchEvent(new Event(CHANGED));
}

const sameLesson = (a: PendingProgress, b: { userId: string; lessonId: number }) => a.userId === b.userId && a.lessonId === b.lessonId;

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

/** What waits to be sent for this learner. */
export function pendingProgress(userId: string): PendingProgress[] {
  return read().filter((entry) => entry.userId === userId);
}

/** Anyone else's entries (a session that ended without signing out): dropped, never sent as this learner. */
export function forgetOtherLearnersProgress(userId: string) {
  const entries = read();
  const mine = entries.filter((entry) => entry.userId === userId);
  if (mine.length !== entries.length) write(mine);
}

/** Calls `listener` whenever what waits changes (in this tab or another). */
export function onPendingChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === OUTBOX_KEY) listener();
  };
  window.addEventListener(CHANGED, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGED, listener);
    window.removeEventListener("storage", onStorage);
  };
}

let sending: Promise<number> | null = null;

/**
 * Sends what waits for this learner, one lesson at a time; stops at the first network failure
 * (the rest waits for the next try). An entry leaves the queue once the server kept it (204) or
 * refused it for good (400/404: not this learner's lesson any more); what was added to it while
 * it was on its way stays. Returns how many entries still wait.
 */
export function sendPendingProgress(userId: string): Promise<number> {
  sending ??= (async () => {
    try {
      for (const entry of pendingProgress(userId)) {
        const body = new FormData();
        if (entry.seconds !== undefined) body.set("secondes", String(entry.seconds));
        if (entry.doneAt) body.set("terminee", entry.doneAt);
        let response: Response;
        try {
          response = await fetch(`/dashboard/formations/${encodeURIComponent(entry.slug)}/lecons/${entry.lessonId}/progression`, {
            method: "POST",
            body,
            credentials: "same-origin",
          });
        } catch {
          break;
        }
        if (response.status >= 500 || response.status === 401 || response.status === 403 || response.redirected) break;
        const entries = read();
        const now = entries.find((item) => sameLesson(item, entry));
        if (!now) continue;
        // Sent: forget what was sent, keep anything newer.
        if (now.seconds !== undefined && now.seconds <= (entry.seconds ?? -1)) delete now.seconds;
        if (now.doneAt && entry.doneAt) delete now.doneAt;
        write(entries.filter((item) => !sameLesson(item, entry) || item.seconds !== undefined || item.doneAt));
      }
      return pendingProgress(userId).length;
    } finally {
      sending = null;
    }
  })();
  return sending;
}
