/**
 * The realtime protocol, shared by the server (app/.server/realtime/server.ts) and the browser
 * (app/lib/realtime-client.ts). The constants are the specification's (document 1, § 9).
 */

/** Where browsers open their WebSocket (same origin; the session cookie authenticates it). */
export const REALTIME_PATH = "/api/temps-reel";

/** A ping every 25 s; no answer (or no connection) within 10 s counts as a lost connection. */
export const HEARTBEAT_MS = 25_000;
export const TIMEOUT_MS = 10_000;
/** Waits before reconnecting: 1, 2, 5, then 10 s for every later try. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000] as const;

/** Close codes the server uses (4000–4999 are the application's). */
export const CLOSE = {
  /** The session ended (signed out, expired, account closed): do not reconnect. */
  signedOut: 4401,
  /** The client broke the protocol or sent too much. */
  policy: 1008,
  /** The server is restarting: reconnect. */
  restart: 1012,
} as const;

/** What a browser sends. `ref` comes back in the answer. */
export type ClientFrame =
  { type: "subscribe"; topics: string[]; ref?: string } | { type: "unsubscribe"; topics: string[] } | { type: "ping"; ref?: string };

/** What the server sends. An event carries ids and small facts; pages load the rest through their loaders. */
export type ServerFrame =
  | { type: "ready"; userId: string }
  | { type: "subscribed"; topics: string[]; refused: string[]; ref?: string }
  | { type: "pong"; ref?: string }
  | { type: "event"; topic: string; event: RealtimeEventData }
  /** Events may have been missed (the server lost its database notifications for a moment): reload what is shown. */
  | { type: "resync" };

export type RealtimeEventData = { type: string } & Record<string, string | number | boolean | null>;
