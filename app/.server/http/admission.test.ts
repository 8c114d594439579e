import net from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { startInTurns } from "./admission";
import { createPageCache } from "./page-cache";

/** Resolves after the turn of the event loop that is running (immediates queued now run on it). */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A request as the queue sees it: only whether its connection is still open matters. */
const visitor = () => ({ socket: { destroyed: false } }) as unknown as express.Request;

function arrive(middleware: express.RequestHandler, count: number) {
  const started: number[] = [];
  const requests = Array.from({ length: count }, (_, index) => {
    const req = visitor();
    middleware(req, {} as express.Response, () => started.push(index));
    return req;
  });
  return { started, requests };
}

const leave = (req: express.Request) => ((req.socket as { destroyed: boolean }).destroyed = true);

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

  it("gives no turn to a visitor whose connection closed while waiting", async () => {
    const { started, requests } = arrive(startInTurns({ perTurn: 2 }), 4);
    leave(requests[1]!);
    await endOfTurn();
    expect(started).toEqual([0, 2]);
    await endOfTurn();
    expect(started).toEqual([0, 2, 3]);
  });

  it("goes on taking turns after a request's start throws, and after the queue emptied", async () => {
    const middleware = startInTurns({ perTurn: 1 });
    const started: string[] = [];
    middleware(visitor(), {} as express.Response, () => {
      throw new Error("a broken handler");
    });
    middleware(visitor(), {} as express.Response, () => started.push("second"));
    const uncaught: unknown[] = [];
    const keep = (error: unknown) => uncaught.push(error);
    process.prependListener("uncaughtException", keep);
    try {
      await endOfTurn();
      await endOfTurn();
    } finally {
      process.removeListener("uncaughtException", keep);
    }
    expect(uncaught).toHaveLength(1);
    expect(started).toEqual(["second"]);

    middleware(visitor(), {} as express.Response, () => started.push("later"));
    await endOfTurn();
    expect(started).toEqual(["second", "later"]);
  });
});

describe("requests in turns behind the page cache, on a real server", () => {
  let server: import("node:http").Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("answers the next visitor of a page whose first visitor left while waiting", async () => {
    const renders: string[] = [];
    const app = express();
    app.use(createPageCache({ ttlSeconds: 30 }).middleware);
    app.use(startInTurns({ perTurn: 1 }));
    app.get("/{*path}", (req, res) => {
      renders.push(`${req.path} ${req.get("x-visitor")}`);
      // A slow render: the leaving visitor (in this process) closes only after it, before /x's turn.
      const end = performance.now() + 50;
      while (performance.now() < end);
      res.type("html").send(`<p>${req.path}</p>`);
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server!.once("listening", resolve));
    const { port } = server.address() as AddressInfo;

    // Two pipelined requests, then the visitor leaves before the second is answered.
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: campus\r\nX-Visitor: leaving\r\n\r\n`;
        socket.write(request("/a") + request("/x"));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 10);
      });
    });
    // Let the server see the close and take its turns.
    await new Promise((resolve) => setTimeout(resolve, 200));

    const response = await fetch(`http://127.0.0.1:${port}/x`, { headers: { "X-Visitor": "next" }, signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<p>/x</p>");
    // The leaving visitor's /x was never rendered; the next visitor's was, and not from a cache
    // entry or a render the leaver left pending.
    expect(renders).toEqual(["/a leaving", "/x next"]);
  });
});
