import type { RealtimeEventData } from "~/lib/realtime";
import type { Database } from "../db/client";
import { notify } from "../db/notifications";

/**
 * Publishing to the browsers connected over WebSocket (./server.ts), from any capability and any
 * process: one PostgreSQL NOTIFY on one channel, which every process LISTENs to and hands to its
 * own connections subscribed to the topic. Called with a transaction, the event leaves when the
 * transaction commits, and never if it rolls back.
 *
 * An event carries ids and small facts only (PostgreSQL's limit is 8000 bytes, and a browser
 * reads the data itself through the pages' loaders, which check who may see it).
 */
export const REALTIME_CHANNEL = "campus_realtime";

/**
 * Topics: `user:<id>` (that person's connections: notifications, conversation list changes),
 * `conversation:<id>` (its members), `presence:<userId>` (who may see that person online), `forum`
 * and `thread:<id>` (signed-in readers of the forum). Who may subscribe to which is decided by
 * the capability owning the topic (./server.ts `TopicRule`).
 */
export type Topic = `user:${string}` | `conversation:${number}` | `presence:${string}` | "forum" | `thread:${number}`;

export type RealtimeEvent = RealtimeEventData;

export type Published = { topic: Topic; event: RealtimeEvent };

const MAX_PAYLOAD_BYTES = 7_900;

export const userTopic = (userId: string): Topic => `user:${userId}`;
export const conversationTopic = (conversationId: number): Topic => `conversation:${conversationId}`;
export const presenceTopic = (userId: string): Topic => `presence:${userId}`;
export const threadTopic = (threadId: number): Topic => `thread:${threadId}`;

/** Sends `event` to every connection subscribed to `topic`, on commit when `db` is a transaction. */
export async function publish(db: Database, topic: Topic, event: RealtimeEvent): Promise<void> {
  const payload = JSON.stringify({ topic, event } satisfies Published);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error(`realtime event too large for NOTIFY (${topic} ${event.type})`);
  await notify(db, REALTIME_CHANNEL, payload);
}

/** A NOTIFY payload back into a published event (null if it is not one). */
export function parsePublished(payload: string): Published | null {
  try {
    const value = JSON.parse(payload) as Partial<Published>;
    if (typeof value?.topic !== "string" || typeof value.event?.type !== "string") return null;
    return value as Published;
  } catch {
    return null;
  }
}
