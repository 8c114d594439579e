import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import type { CampusAuth } from "~/.server/auth/express";
import type { DatabaseHandle } from "~/.server/db/client";
import { realtimePresence, sessions } from "~/.server/db/schema";
import { createRealtimeServer, onlineUserIds, publish, sweepPresence, type RealtimeServer, type TopicRule } from "~/.server/realtime";
import { CLOSE, REALTIME_PATH, type ServerFrame } from "~/lib/realtime";
import { createNotification, createSignedInUser } from "../factories";
import { createTestAuth } from "../setup/auth";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let campusAuth: CampusAuth;
let server: http.Server;
let realtime: RealtimeServer;
let origin = "";

/** Topics "room:<n>": even rooms are open to everyone, odd ones to nobody; room 8 loses its audience. */
const roomRule: TopicRule = {
  prefix: "room",
  allowed: async (_db, _actor, ids) => new Set(ids.filter((id) => Number(id) % 2 === 0)),
  audience: async (_db, id, userIds) => new Set(id === "8" ? [] : userIds),
};

beforeAll(async () => {
  handle = await createTestDatabase();
  campusAuth = createTestAuth(handle.db);
  server = http.createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  realtime = createRealtimeServer({
    database: handle,
    auth: campusAuth.auth,
    publicUrl: origin,
    rules: [roomRule],
    heartbeatMs: 300,
    sessionCheckMs: 200,
    onError: () => {},
  });
  server.on("upgrade", (req, socket, head) => realtime.handleUpgrade(req, socket, head));
  await realtime.start();
});

afterAll(async () => {
  await realtime?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
});

/** A browser's connection: its frames as they arrive. */
async function connect(cookie: string | null, options: { origin?: string; path?: string; autoPong?: boolean } = {}) {
  const headers: Record<string, string> = { Origin: options.origin ?? origin };
  if (cookie) headers.Cookie = cookie;
  const socket = new WebSocket(`${origin.replace("http", "ws")}${options.path ?? REALTIME_PATH}`, {
    headers,
    autoPong: options.autoPong ?? true,
  });
  const frames: ServerFrame[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data)) as ServerFrame));
  const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once("error", reject);
  });
  await vi.waitFor(() => expect(frames.some((frame) => frame.type === "ready")).toBe(true));
  const events = () => frames.filter((frame): frame is Extract<ServerFrame, { type: "event" }> => frame.type === "event");
  return { socket, frames, events, closed, send: (frame: object) => socket.send(JSON.stringify(frame)) };
}

describe("opening a connection", () => {
  it("refuses another site's page, an anonymous visitor and another path", async () => {
    const { cookie } = await createSignedInUser(campusAuth, handle.db);
    await expect(connect(cookie, { origin: "https://evil.example" })).rejects.toThrow("HTTP 403");
    await expect(connect(null)).rejects.toThrow("HTTP 401");
    await expect(connect(`${cookie.split("=")[0]}=forged.token`)).rejects.toThrow("HTTP 401");
    await expect(connect(cookie, { path: "/api/autre" })).rejects.toThrow("HTTP 404");
  });

  it("delivers one's own notifications once committed, and nobody else's", async () => {
    const awa = await createSignedInUser(campusAuth, handle.db);
    const moussa = await createSignedInUser(campusAuth, handle.db);
    const awaSocket = await connect(awa.cookie);
    const moussaSocket = await connect(moussa.cookie);

    await handle.db
      .transaction(async (tx) => {
        await createNotification(tx, awa.user, { title: "Annulée" });
        throw new Error("rollback");
      })
      .catch(() => {});
    const { id } = await createNotification(handle.db, awa.user);
    await vi.waitFor(() => expect(awaSocket.events()).toHaveLength(1));
    expect(awaSocket.events()[0]).toEqual({ type: "event", topic: `user:${awa.user.id}`, event: { type: "notification", id } });
    // Moussa may not even subscribe to Awa's topic.
    moussaSocket.send({ type: "subscribe", topics: [`user:${awa.user.id}`], ref: "1" });
    await vi.waitFor(() => expect(moussaSocket.frames.find((frame) => frame.type === "subscribed")).toBeTruthy());
    expect(moussaSocket.frames.find((frame) => frame.type === "subscribed")).toEqual({
      type: "subscribed",
      topics: [],
      refused: [`user:${awa.user.id}`],
      ref: "1",
    });
    await createNotification(handle.db, awa.user);
    await vi.waitFor(() => expect(awaSocket.events()).toHaveLength(2));
    expect(moussaSocket.events()).toHaveLength(0);
    awaSocket.socket.close();
    moussaSocket.socket.close();
  });
});

describe("topics of capabilities", () => {
  it("subscribes only where the capability's rule allows, and re-checks the audience before each event", async () => {
    const { cookie } = await createSignedInUser(campusAuth, handle.db);
    const client = await connect(cookie);
    client.send({ type: "subscribe", topics: ["room:2", "room:3", "room:8", "unknown:1", "not a topic"], ref: "r" });
    await vi.waitFor(() => expect(client.frames.find((frame) => frame.type === "subscribed")).toBeTruthy());
    expect(client.frames.find((frame) => frame.type === "subscribed")).toEqual({
      type: "subscribed",
      topics: ["room:2", "room:8"],
      refused: ["room:3", "unknown:1"],
      ref: "r",
    });
    await publish(handle.db, "room:3" as never, { type: "secret" });
    await publish(handle.db, "room:8" as never, { type: "lost" });
    await publish(handle.db, "room:2" as never, { type: "hello", n: 1 });
    await vi.waitFor(() => expect(client.events().map((frame) => frame.event.type)).toEqual(["hello"]));

    client.send({ type: "unsubscribe", topics: ["room:2"] });
    client.send({ type: "ping", ref: "p" });
    await vi.waitFor(() => expect(client.frames.some((frame) => frame.type === "pong")).toBe(true));
    await publish(handle.db, "room:2" as never, { type: "hello", n: 2 });
    await createNotification(handle.db, { id: client.frames.find((f) => f.type === "ready")!.userId });
    await vi.waitFor(() => expect(client.events().map((frame) => frame.event.type)).toEqual(["hello", "notification"]));
    client.socket.close();
  });

  it("cuts off a client that floods or speaks nonsense", async () => {
    const { cookie } = await createSignedInUser(campusAuth, handle.db);
    const nonsense = await connect(cookie);
    nonsense.socket.send("not json");
    expect(await nonsense.closed).toBe(CLOSE.policy);
    const flood = await connect(cookie);
    for (let index = 0; index < 100; index++) flood.send({ type: "ping" });
    expect(await flood.closed).toBe(CLOSE.policy);
  });
});

describe("presence and liveness", () => {
  it("says who is online while they have a connection open, and tells those watching", async () => {
    const awa = await createSignedInUser(campusAuth, handle.db);
    const watcher = await createSignedInUser(campusAuth, handle.db);
    const seen: boolean[] = [];
    const stop = await handle.listen("campus_realtime", (payload) => {
      const value = JSON.parse(payload) as { topic: string; event: { online: boolean } };
      if (value.topic === `presence:${awa.user.id}`) seen.push(value.event.online);
    });
    expect(await onlineUserIds(handle.db, [awa.user.id], new Date())).toEqual(new Set());
    const first = await connect(awa.cookie);
    const second = await connect(awa.cookie);
    await vi.waitFor(async () =>
      expect(await onlineUserIds(handle.db, [awa.user.id, watcher.user.id], new Date())).toEqual(new Set([awa.user.id])),
    );
    first.socket.close();
    await first.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await onlineUserIds(handle.db, [awa.user.id], new Date())).toEqual(new Set([awa.user.id]));
    second.socket.close();
    await vi.waitFor(async () => expect(await onlineUserIds(handle.db, [awa.user.id], new Date())).toEqual(new Set()));
    await vi.waitFor(() => expect(seen).toEqual([true, false]));
    await stop();
  });

  it("forgets the presence of a process that died", async () => {
    const awa = await createSignedInUser(campusAuth, handle.db);
    const then = new Date(Date.now() - 5 * 60 * 1000);
    await handle.db.insert(realtimePresence).values({ userId: awa.user.id, worker: "dead-process", connections: 1, seenAt: then });
    expect(await onlineUserIds(handle.db, [awa.user.id], new Date())).toEqual(new Set());
    expect(await sweepPresence(handle.db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await handle.db.select().from(realtimePresence).where(eq(realtimePresence.worker, "dead-process"))).toHaveLength(0);
  });

  it("drops a connection that stops answering pings", async () => {
    const { cookie } = await createSignedInUser(campusAuth, handle.db);
    const silent = await connect(cookie, { autoPong: false });
    expect(await silent.closed).toBe(1006);
  });

  it("closes the connections of a session that ended", async () => {
    const { user, cookie } = await createSignedInUser(campusAuth, handle.db);
    const client = await connect(cookie);
    await handle.db.delete(sessions).where(eq(sessions.userId, user.id));
    expect(await client.closed).toBe(CLOSE.signedOut);
  });
});
