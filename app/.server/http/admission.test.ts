import type express from "express";
import { describe, expect, it } from "vitest";
import { startInTurns } from "./admission";

/** Resolves after the turn of the event loop that is running (immediates queued now run on it). */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function arrive(middleware: express.RequestHandler, count: number) {
  const started: number[] = [];
  const requests = Array.from({ length: count }, (_, index) => {
    const req = { destroyed: false } as express.Request;
    middleware(req, {} as express.Response, () => started.push(index));
    return req;
  });
  return { started, requests };
}

describe("requests started in turns", () => {
  it("starts at most perTurn requests per turn of the loop, in the order they came", async () => {
    const { started } = arrive(startInTurns({ perTurn: 2 }), 5);
    expect(started).toEqual([]);
    await endOfTurn();
    expect(started).toEqual([0, 1]);
    await endOfTurn();
    expect(started).toEqual([0, 1, 2, 3]);
    await endOfTurn();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    await endOfTurn();
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it("gives no turn to a visitor who left while waiting", async () => {
    const { started, requests } = arrive(startInTurns({ perTurn: 2 }), 4);
    requests[1]!.destroyed = true;
    await endOfTurn();
    expect(started).toEqual([0, 2]);
    await endOfTurn();
    expect(started).toEqual([0, 2, 3]);
  });

  it("starts a request arriving on an idle loop in the same turn, and later ones in theirs", async () => {
    const middleware = startInTurns({ perTurn: 1 });
    const first = arrive(middleware, 1);
    await endOfTurn();
    expect(first.started).toEqual([0]);
    await endOfTurn();
    const second = arrive(middleware, 2);
    await endOfTurn();
    expect(second.started).toEqual([0]);
    await endOfTurn();
    expect(second.started).toEqual([0, 1]);
  });
});
