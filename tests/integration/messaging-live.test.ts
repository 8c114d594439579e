/**
 * Messaging live between server processes: two realtime servers, each with its own database pool
 * and LISTEN connection (as two processes behind a load balancer on PostgreSQL; on PGlite, one
 * process's database shared), a message sent through the first reaches a browser connected to
 * the second, and never one who may not read the conversation; the person's own topic there
 * keeps the « Messagerie » badge live (a message, then its reading).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import WebSocket from "ws";
import type { CampusAuth } from "~/.server/auth/express";
import { openDatabase, type DatabaseHandle } from "~/.server/db/client";
import { markConversationRead, messagingTopicRules, sendMessage, sendMessageTo, startConversation } from "~/.server/messaging";
import { createRealtimeServer, type RealtimeServer } from "~/.server/realtime";
import { REALTIME_PATH, type ServerFrame } from "~/lib/realtime";
import { loader as unreadLoader } from "~/routes/messages/unread";
import { createCourse, createSignedInUser, enrol } from "../factories";
import { createTestAuth, routerContext, TEST_PUBLIC_URL } from "../setup/auth";
import { createTestDatabase, serverDatabaseUrl } from "../setup/db";
import { sessionOf } from "../setup/routes";

let first: DatabaseHandle;
/** The database as the second process sees it (its own pool and listening connection on PostgreSQL). */
let second: DatabaseHandle;
let campusAuth: CampusAuth;
const servers: Array<{ http: http.Server; realtime: RealtimeServer; origin: string }> = [];

async function startProcess(database: DatabaseHandle, publicUrl?: string) {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = publicUrl ?? `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realtime = createRealtimeServer({
    database,
    auth: campusAuth.auth,
    publicUrl: origin,
    rules: messagingTopicRules,
    onError: () => {},
  });
  server.on("upgrade", (req, socket, head) => realtime.handleUpgrade(req, socket, head));
  await realtime.start();
  const started = { http: server, realtime, origin, port: (server.address() as AddressInfo).port };
  servers.push(started);
  return started;
}

beforeAll(async () => {
  first = await createTestDatabase();
  if (first.kind === "postgres") {
    const rows = (await first.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    second = await openDatabase({ databaseUrl: serverDatabaseUrl(rows.rows[0]!.name), dataDir: "memory://" });
  } else {
    second = first;
  }
  campusAuth = createTestAuth(first.db);
});

afterAll(async () => {
  for (const server of servers) {
    await server.realtime.close();
    server.http.closeAllConnections();
    await new Promise((resolve) => server.http.close(resolve));
  }
  if (second && second !== first) await second.close();
  await first?.close();
});

async function connect(port: number, origin: string, cookie: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}${REALTIME_PATH}`, { headers: { Origin: origin, Cookie: cookie } });
  const frames: ServerFrame[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data)) as ServerFrame));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once("error", reject);
  });
  await vi.waitFor(() => expect(frames.some((frame) => frame.type === "ready")).toBe(true));
  const events = () => frames.filter((frame): frame is Extract<ServerFrame, { type: "event" }> => frame.type === "event");
  return { socket, frames, events, send: (frame: object) => socket.send(JSON.stringify(frame)) };
}

it("delivers a message sent through one process to a WebSocket connected to the other, and to nobody else", async () => {
  const processA = await startProcess(first);
  // Both processes answer for the same site (behind one address).
  const processB = await startProcess(second, processA.origin);

  const teacher = await createSignedInUser(campusAuth, first.db, { role: "teacher" });
  const learner = await createSignedInUser(campusAuth, first.db);
  const outsider = await createSignedInUser(campusAuth, first.db);
  const { course } = await createCourse(first.db, { instructor: teacher.user, priceFcfa: 0 });
  await enrol(first.db, learner.user, course);
  const { conversationId } = await startConversation(first.db, teacher.user, learner.user.id);

  const learnerOnB = await connect(processB.port, processA.origin, learner.cookie);
  const outsiderOnB = await connect(processB.port, processA.origin, outsider.cookie);
  learnerOnB.send({ type: "subscribe", topics: [`conversation:${conversationId}`], ref: "c" });
  outsiderOnB.send({ type: "subscribe", topics: [`conversation:${conversationId}`], ref: "c" });
  await vi.waitFor(() => expect(learnerOnB.frames.find((frame) => frame.type === "subscribed")).toBeTruthy());
  await vi.waitFor(() => expect(outsiderOnB.frames.find((frame) => frame.type === "subscribed")).toBeTruthy());
  expect(outsiderOnB.frames.find((frame) => frame.type === "subscribed")).toMatchObject({
    topics: [],
    refused: [`conversation:${conversationId}`],
  });

  // Sent through process A (its pool), heard on process B.
  const sent = await sendMessage(first.db, teacher.user, conversationId, { body: "Bonjour depuis l'autre processus" });
  await vi.waitFor(() =>
    expect(learnerOnB.events()).toEqual(
      expect.arrayContaining([
        { type: "event", topic: `conversation:${conversationId}`, event: { type: "message", id: sent.id } },
        { type: "event", topic: `user:${learner.user.id}`, event: { type: "conversation", id: conversationId } },
      ]),
    ),
  );
  // Online on B: no "message while away" notification for the learner.
  expect(learnerOnB.events().some((frame) => frame.event.type === "notification")).toBe(false);
  expect(outsiderOnB.events()).toEqual([]);
  learnerOnB.socket.close();
  outsiderOnB.socket.close();
});

it("keeps the unread badge live through the other process: a message and its reading reach the person's topic there", async () => {
  const processA = await startProcess(first);
  const processB = await startProcess(second, processA.origin);
  const teacher = await createSignedInUser(campusAuth, first.db, { role: "teacher", firstName: "Seydou", lastName: "Konaté" });
  const learner = await createSignedInUser(campusAuth, first.db);
  const { course } = await createCourse(first.db, { instructor: teacher.user, priceFcfa: 0 });
  await enrol(first.db, learner.user, course);

  // Signed in on another page of process B: no conversation topic, only the person's own.
  const learnerOnB = await connect(processB.port, processA.origin, learner.cookie);
  const { conversationId } = await sendMessageTo(first.db, teacher.user, learner.user.id, { body: "Le cours commence à 10 h" });
  await vi.waitFor(() =>
    expect(learnerOnB.events()).toContainEqual({
      type: "event",
      topic: `user:${learner.user.id}`,
      event: { type: "conversation", id: conversationId },
    }),
  );
  // What the shell on B then asks (B's own pool): the badge's count and the toast's words.
  const ask = () => {
    const request = new Request(`${TEST_PUBLIC_URL}/dashboard/messages/non-lus?conversation=${conversationId}`);
    const context = routerContext(second.db, campusAuth, { user: sessionOf(learner.user) });
    return unreadLoader({ request, params: {}, context, url: new URL(request.url), pattern: "" } as never);
  };
  expect(await ask()).toMatchObject({
    unread: 1,
    alert: { title: "Nouveau message de Seydou Konaté", excerpt: "Le cours commence à 10 h" },
  });

  // Read in a tab served by process A: B hears of it, and the badge drops to zero.
  await markConversationRead(first.db, learner.user, conversationId);
  await vi.waitFor(() =>
    expect(learnerOnB.events()).toContainEqual({
      type: "event",
      topic: `user:${learner.user.id}`,
      event: { type: "conversation_read", id: conversationId },
    }),
  );
  expect(await ask()).toEqual({ unread: 0, alert: null });
  learnerOnB.socket.close();
});
