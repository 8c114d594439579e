import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissRefused, pendingEntries, queueQuizAttempt, refusedEntries, sendPending, type PendingQuizAttempt } from "./outbox";

/** The browser's localStorage and window events, enough for the queue. */
beforeEach(() => {
  const store = new Map<string, string>();
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
    removeItem: (key: string) => void store.delete(key),
  });
  vi.stubGlobal("window", new EventTarget());
});
afterEach(() => vi.unstubAllGlobals());

const attempt = (title: string, userId = "learner"): PendingQuizAttempt => ({
  userId,
  slug: "solaire",
  quizId: 7,
  title,
  attemptId: crypto.randomUUID(),
  answers: { q1: "1" },
  answeredAt: "2026-11-23T10:00:00.000Z",
});

describe("a quiz attempt the server refuses for good", () => {
  it("leaves the queue and is kept, with the server's reason, until the learner dismisses it", async () => {
    const refused = attempt("Examen final");
    const kept = attempt("Quiz de la leçon 1");
    queueQuizAttempt(refused);
    queueQuizAttempt(kept);
    queueQuizAttempt(attempt("Quiz d'un autre", "someone-else"));
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith("/hors-ligne") && fetchMock.mock.calls.length === 1
        ? new Response("Ce quiz est chronométré : il demande une connexion.", { status: 409 })
        : new Response(null, { status: 204 }),
    );
    vi.stubGlobal("fetch", fetchMock);

    expect(await sendPending("learner")).toBe(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(pendingEntries("learner")).toEqual([]);
    // Only the refused one is told, to its learner only; a sent one is not.
    expect(refusedEntries("learner")).toEqual([
      {
        userId: "learner",
        attemptId: refused.attemptId,
        title: "Examen final",
        reason: "Ce quiz est chronométré : il demande une connexion.",
      },
    ]);
    expect(refusedEntries("someone-else")).toEqual([]);

    dismissRefused(refused.attemptId);
    expect(refusedEntries("learner")).toEqual([]);
  });

  it("keeps an attempt the network or a paused enrolment did not take, without telling it refused", async () => {
    const waiting = attempt("Examen final");
    queueQuizAttempt(waiting);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(null, { status: 403 })),
    );
    expect(await sendPending("learner")).toBe(1);
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await sendPending("learner")).toBe(1);
    expect(refusedEntries("learner")).toEqual([]);
  });
});
