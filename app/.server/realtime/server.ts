import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { fromNodeHeaders } from "better-auth/node";
import { and, eq, gt, inArray } from "drizzle-orm";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { CLOSE, HEARTBEAT_MS, REALTIME_PATH, type ClientFrame, type ServerFrame } from "~/lib/realtime";
import type { Actor } from "../auth/actor";
import type { Auth } from "../auth/auth";
import { resolveSession, type SessionUser } from "../auth/session";
import type { Database, DatabaseHandle } from "../db/client";
import { sessions, users } from "../db/schema";
import { leaveAll, refreshPresence, setPresence } from "./presence";
import { parsePublished, REALTIME_CHANNEL, userTopic, type Published } from "./publish";

/**
 * The WebSocket endpoint (docs/decisions/0021-realtime-and-notifications.md), on the same HTTP server as the pages:
 * - the upgrade is refused unless its Origin is the site's own and its session cookie is valid;
 * - each connection receives its person's `user:<id>` topic, and subscribes to others
 *   (`conversation:12`, `presence:<id>`...) which the capability owning them allows or refuses;
 * - events published anywhere (./publish.ts, a PostgreSQL NOTIFY on commit) reach every process
 *   through LISTEN, and each process hands them to its own subscribed connections;
 * - a heartbeat (25 s) drops dead connections and keeps presence fresh; sessions are checked
 *   again every minute, so a signed-out or closed account stops receiving.
 */

/** How a capability says who may follow its topics ("conversation" for `conversation:<id>`). */
export interface TopicRule {
  prefix: string;
  /** Of `ids` (the part after "prefix:"), those `actor` may follow. */
  allowed(db: Database, actor: Actor, ids: string[]): Promise<Set<string>>;
  /**
   * Checked again before each delivery when access can be lost (a learner leaving a course
   * group): of the subscribers `userIds`, those who may still receive events of topic `id`.
   */
  audience?(db: Database, id: string, userIds: string[]): Promise<Set<string>>;
}

export interface RealtimeOptions {
  database: Pick<DatabaseHandle, "db" | "listen">;
  auth: Auth;
  /** The site's public address: the only Origin accepted. */
  publicUrl: string;
  rules?: TopicRule[];
  now?: () => Date;
  heartbeatMs?: number;
  /** How often sessions are checked again (default 60 s). */
  sessionCheckMs?: number;
  onError?: (error: unknown, what: string) => void;
}

export interface RealtimeServer {
  /** For `server.on("upgrade")`: takes the requests for REALTIME_PATH, refuses the others. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Starts listening to the database's notifications and the timers. */
  start(): Promise<void>;
  /** Closes every connection ("restarting": browsers reconnect to another process) and stops. */
  close(): Promise<void>;
  readonly worker: string;
  connectionCount(): number;
}

const MAX_FRAME_BYTES = 8 * 1024;
const MAX_TOPICS_PER_CONNECTION = 500;
const MAX_CONNECTIONS_PER_USER = 20;
/** Frames a browser may send per 10 s before it is cut off. */
const FRAME_BUDGET = 60;
const FRAME_WINDOW_MS = 10_000;
const TOPIC = /^[a-z]+(?::[A-Za-z0-9_-]{1,64})?$/;

interface Client {
  socket: WebSocket;
  user: SessionUser;
  topics: Set<string>;
  alive: boolean;
  frames: number;
  windowStart: number;
}

export function createRealtimeServer(options: RealtimeOptions): RealtimeServer {
  const { database, auth } = options;
  const db = database.db;
  const now = options.now ?? (() => new Date());
  const worker = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const allowedOrigin = new URL(options.publicUrl).origin;
  const rules = new Map((options.rules ?? []).map((rule) => [rule.prefix, rule]));
  const onError = options.onError ?? ((error, what) => console.error(`Temps réel : ${what}`, error));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false, clientTracking: false });

  const clients = new Set<Client>();
  const byTopic = new Map<string, Set<Client>>();
  const byUser = new Map<string, Set<Client>>();
  /** Presence writes of one person, one after another (a tab closing while another opens). */
  const presenceChains = new Map<string, Promise<void>>();
  let unlisten: (() => Promise<void>) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let sessionCheck: NodeJS.Timeout | undefined;
  let closing = false;
  let closed: Promise<void> | undefined;

  const send = (client: Client, frame: ServerFrame) => {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(frame));
  };

  const updatePresence = (userId: string) => {
    const previous = presenceChains.get(userId) ?? Promise.resolve();
    const next = previous
      .then(() => setPresence(db, userId, worker, byUser.get(userId)?.size ?? 0, now()))
      .catch((error) => onError(error, "présence"));
    presenceChains.set(userId, next);
    void next.finally(() => {
      if (presenceChains.get(userId) === next) presenceChains.delete(userId);
    });
  };

  const subscribe = (client: Client, topic: string) => {
    if (client.topics.has(topic)) return;
    client.topics.add(topic);
    let set = byTopic.get(topic);
    if (!set) byTopic.set(topic, (set = new Set()));
    set.add(client);
  };

  const unsubscribe = (client: Client, topic: string) => {
    client.topics.delete(topic);
    const set = byTopic.get(topic);
    set?.delete(client);
    if (set && !set.size) byTopic.delete(topic);
  };

  const drop = (client: Client) => {
    if (!clients.delete(client)) return;
    for (const topic of [...client.topics]) unsubscribe(client, topic);
    const own = byUser.get(client.user.id);
    own?.delete(client);
    if (own && !own.size) byUser.delete(client.user.id);
    if (!closing) updatePresence(client.user.id);
  };

  /** Which of `topics` the client may follow, by the rule of each topic's capability (in the order asked). */
  const authorize = async (client: Client, topics: string[]): Promise<{ granted: string[]; refused: string[] }> => {
    const verdicts = new Map<string, boolean>();
    const asked = new Map<TopicRule, Map<string, string>>();
    for (const topic of topics) {
      const [prefix, id] = topic.split(":") as [string, string | undefined];
      const rule = rules.get(prefix);
      if (topic === userTopic(client.user.id) || !rule) {
        verdicts.set(topic, topic === userTopic(client.user.id));
        continue;
      }
      let ids = asked.get(rule);
      if (!ids) asked.set(rule, (ids = new Map()));
      ids.set(id ?? "", topic);
    }
    for (const [rule, ids] of asked) {
      const allowed = await rule.allowed(db, client.user, [...ids.keys()]);
      for (const [id, topic] of ids) verdicts.set(topic, allowed.has(id));
    }
    return { granted: topics.filter((topic) => verdicts.get(topic)), refused: topics.filter((topic) => !verdicts.get(topic)) };
  };

  const onFrame = async (client: Client, raw: RawData) => {
    client.alive = true;
    const at = Date.now();
    if (at - client.windowStart > FRAME_WINDOW_MS) {
      client.windowStart = at;
      client.frames = 0;
    }
    if (++client.frames > FRAME_BUDGET) return client.socket.close(CLOSE.policy, "Trop de messages");
    let frame: ClientFrame;
    try {
      frame = JSON.parse(raw.toString()) as ClientFrame;
    } catch {
      return client.socket.close(CLOSE.policy, "Message illisible");
    }
    if (frame?.type === "ping") return send(client, { type: "pong", ref: stringOrUndefined(frame.ref) });
    if (frame?.type !== "subscribe" && frame?.type !== "unsubscribe") return client.socket.close(CLOSE.policy, "Message inconnu");
    const topics = Array.isArray(frame.topics)
      ? frame.topics.filter((topic): topic is string => typeof topic === "string" && TOPIC.test(topic))
      : [];
    if (frame.type === "unsubscribe") {
      for (const topic of topics) if (topic !== userTopic(client.user.id)) unsubscribe(client, topic);
      return;
    }
    const wanted = [...new Set(topics)].filter((topic) => !client.topics.has(topic));
    if (client.topics.size + wanted.length > MAX_TOPICS_PER_CONNECTION) return client.socket.close(CLOSE.policy, "Trop d'abonnements");
    const { granted, refused } = await authorize(client, wanted);
    if (!clients.has(client)) return;
    for (const topic of granted) subscribe(client, topic);
    send(client, { type: "subscribed", topics: granted, refused, ref: stringOrUndefined(frame.ref) });
  };

  /** One event from the database: to the local subscribers of its topic (checked again if the topic's rule asks). */
  const deliver = async (published: Published) => {
    const subscribers = byTopic.get(published.topic);
    if (!subscribers?.size) return;
    let recipients = [...subscribers];
    const [prefix, id] = published.topic.split(":") as [string, string | undefined];
    const rule = rules.get(prefix);
    if (rule?.audience && id !== undefined) {
      const still = await rule.audience(db, id, [...new Set(recipients.map((client) => client.user.id))]);
      for (const client of recipients) if (!still.has(client.user.id)) unsubscribe(client, published.topic);
      recipients = recipients.filter((client) => still.has(client.user.id));
    }
    const frame = JSON.stringify({ type: "event", topic: published.topic, event: published.event } satisfies ServerFrame);
    for (const client of recipients) if (client.socket.readyState === client.socket.OPEN) client.socket.send(frame);
  };

  const accept = (socket: WebSocket, user: SessionUser) => {
    const client: Client = { socket, user, topics: new Set(), alive: true, frames: 0, windowStart: Date.now() };
    clients.add(client);
    let own = byUser.get(user.id);
    if (!own) byUser.set(user.id, (own = new Set()));
    own.add(client);
    subscribe(client, userTopic(user.id));
    if (own.size === 1) updatePresence(user.id);
    socket.on("message", (raw) => void onFrame(client, raw).catch((error) => onError(error, "message")));
    socket.on("pong", () => {
      client.alive = true;
    });
    socket.on("close", () => drop(client));
    socket.on("error", () => drop(client));
    send(client, { type: "ready", userId: user.id });
  };

  /** Ends the connections whose session is gone or expired, or whose account was closed. */
  const checkSessions = async () => {
    const bySession = new Map<string, Client[]>();
    for (const client of clients) {
      const list = bySession.get(client.user.sessionId) ?? [];
      list.push(client);
      bySession.set(client.user.sessionId, list);
    }
    if (!bySession.size) return;
    const valid = await db
      .select({ id: sessions.id, banned: users.banned })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(inArray(sessions.id, [...bySession.keys()]), gt(sessions.expiresAt, now())));
    const alive = new Set(valid.filter((row) => !row.banned).map((row) => row.id));
    for (const [sessionId, list] of bySession) {
      if (!alive.has(sessionId)) for (const client of list) client.socket.close(CLOSE.signedOut, "Session terminée");
    }
  };

  const reject = (socket: Duplex, status: number, reason: string) => {
    socket.on("error", () => {});
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  };

  return {
    worker,
    connectionCount: () => clients.size,

    handleUpgrade(request, socket, head) {
      socket.on("error", () => {});
      const url = new URL(request.url ?? "/", "http://localhost");
      if (url.pathname !== REALTIME_PATH) return reject(socket, 404, "Not Found");
      if (closing) return reject(socket, 503, "Service Unavailable");
      if (request.headers.origin !== allowedOrigin) return reject(socket, 403, "Forbidden");
      resolveSession(auth, fromNodeHeaders(request.headers))
        .then(({ user }) => {
          if (!user) return reject(socket, 401, "Unauthorized");
          if ((byUser.get(user.id)?.size ?? 0) >= MAX_CONNECTIONS_PER_USER) return reject(socket, 429, "Too Many Requests");
          if (closing || socket.destroyed) return reject(socket, 503, "Service Unavailable");
          wss.handleUpgrade(request, socket, head, (ws) => accept(ws, user));
        })
        .catch((error) => {
          onError(error, "connexion");
          reject(socket, 500, "Internal Server Error");
        });
    },

    async start() {
      unlisten = await database.listen(
        REALTIME_CHANNEL,
        (payload) => {
          const published = parsePublished(payload);
          if (published) void deliver(published).catch((error) => onError(error, "diffusion"));
        },
        {
          // Notifications may have been lost while the listening connection was down.
          onGap: () => {
            for (const client of clients) send(client, { type: "resync" });
          },
        },
      );
      const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
      heartbeat = setInterval(() => {
        for (const client of clients) {
          if (!client.alive) {
            client.socket.terminate();
            drop(client);
            continue;
          }
          client.alive = false;
          client.socket.ping();
        }
        if (byUser.size) void refreshPresence(db, worker, now()).catch((error) => onError(error, "présence"));
      }, heartbeatMs);
      heartbeat.unref();
      sessionCheck = setInterval(() => void checkSessions().catch((error) => onError(error, "sessions")), options.sessionCheckMs ?? 60_000);
      sessionCheck.unref();
    },

    close() {
      closed ??= shutdown();
      return closed;
    },
  };

  async function shutdown() {
    closing = true;
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    for (const client of [...clients]) {
      client.socket.close(CLOSE.restart, "Redémarrage du serveur");
      drop(client);
    }
    await Promise.all([...presenceChains.values()]);
    await leaveAll(db, worker, now()).catch((error) => onError(error, "présence"));
    await unlisten?.();
    wss.close();
  }
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value.slice(0, 40) : undefined;
}
