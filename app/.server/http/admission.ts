import type express from "express";

/**
 * Requests that work for their answer are started in turns: at most `perTurn` per turn of the
 * event loop, first come first served (docs/decisions/0043-requests-in-turns.md).
 *
 * libuv accepts one connection per turn of the loop (libuv#3696), and a turn runs every callback
 * that is ready: when a busy process has 40 requests ready, each turn renders 40 pages before the
 * 41st visitor's connection is even accepted, and the next turn is longer still. Under load the
 * last connections of a burst waited seconds in the kernel's queue (autocannon: p99 1.5–3.8 s and
 * timeouts) while no render took more than 0.6 s. Started in turns, a turn renders about
 * `perTurn` pages, new connections are accepted between them and requests are served in the
 * order they came; nothing is held while a request waits on the database or on its client.
 */
export function startInTurns(options: { perTurn: number }): express.RequestHandler {
  const waiting: Array<{ req: express.Request; next: express.NextFunction }> = [];
  let turnScheduled = false;

  const takeTurn = () => {
    turnScheduled = false;
    try {
      let started = 0;
      while (started < options.perTurn && waiting.length) {
        const { req, next } = waiting.shift()!;
        // A visitor whose connection closed while waiting gets no render (their response has
        // closed with it, which releases whatever waited on it, such as the page cache).
        if (req.socket.destroyed) continue;
        started++;
        next();
      }
    } finally {
      scheduleTurn();
    }
  };
  // An immediate queued from an immediate runs on the next turn, after the loop has polled
  // (and accepted) again.
  const scheduleTurn = () => {
    if (turnScheduled || !waiting.length) return;
    turnScheduled = true;
    setImmediate(takeTurn);
  };

  return (req, _res, next) => {
    waiting.push({ req, next });
    scheduleTurn();
  };
}
