import { and, eq, gt, inArray, lte, ne, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { realtimePresence } from "../db/schema";
import { presenceTopic, publish } from "./publish";

/**
 * Who is online: a person with a WebSocket open in any server process. Each process keeps one row
 * per person it holds connections for (./server.ts), refreshed by its heartbeat; a row older than
 * PRESENCE_STALE_MS was left by a process that died and no longer counts.
 */
export const PRESENCE_STALE_MS = 75_000;

const freshSince = (now: Date) => new Date(now.getTime() - PRESENCE_STALE_MS);

/** Whether `userId` has a fresh presence row in another process than `worker`. */
async function onlineElsewhere(db: Database, userId: string, worker: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ worker: realtimePresence.worker })
    .from(realtimePresence)
    .where(and(eq(realtimePresence.userId, userId), ne(realtimePresence.worker, worker), gt(realtimePresence.seenAt, freshSince(now))))
    .limit(1);
  return Boolean(row);
}

/**
 * Records that this process now holds `connections` connections of `userId` (0: none left), and
 * tells whoever watches that person when they come online or go offline everywhere.
 */
export async function setPresence(db: Database, userId: string, worker: string, connections: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ connections: realtimePresence.connections })
      .from(realtimePresence)
      .where(and(eq(realtimePresence.userId, userId), eq(realtimePresence.worker, worker)));
    const wasHere = (before?.connections ?? 0) > 0;
    if (connections > 0) {
      await tx
        .insert(realtimePresence)
        .values({ userId, worker, connections, seenAt: now })
        .onConflictDoUpdate({ target: [realtimePresence.userId, realtimePresence.worker], set: { connections, seenAt: now } });
    } else {
      await tx.delete(realtimePresence).where(and(eq(realtimePresence.userId, userId), eq(realtimePresence.worker, worker)));
    }
    const isHere = connections > 0;
    if (wasHere === isHere) return;
    if (await onlineElsewhere(tx, userId, worker, now)) return;
    await publish(tx, presenceTopic(userId), { type: "presence", userId, online: isHere });
  });
}

/** The heartbeat of a process: its rows stay fresh. */
export async function refreshPresence(db: Database, worker: string, now: Date): Promise<void> {
  await db.update(realtimePresence).set({ seenAt: now }).where(eq(realtimePresence.worker, worker));
}

/** Removes every row of a stopping process, telling watchers of those who are now offline. */
export async function leaveAll(db: Database, worker: string, now: Date): Promise<void> {
  const rows = await db.select({ userId: realtimePresence.userId }).from(realtimePresence).where(eq(realtimePresence.worker, worker));
  for (const { userId } of rows) await setPresence(db, userId, worker, 0, now);
}

/** Deletes the rows of processes that died (a schedule), telling watchers of those now offline. */
export async function sweepPresence(db: Database, now: Date): Promise<number> {
  const stale = await db
    .delete(realtimePresence)
    .where(lte(realtimePresence.seenAt, freshSince(now)))
    .returning({ userId: realtimePresence.userId });
  const gone = [...new Set(stale.map((row) => row.userId))];
  if (!gone.length) return 0;
  const stillOnline = await onlineUserIds(db, gone, now);
  for (const userId of gone) {
    if (!stillOnline.has(userId)) await publish(db, presenceTopic(userId), { type: "presence", userId, online: false });
  }
  return stale.length;
}

/** Which of `userIds` are online now. */
export async function onlineUserIds(db: Database, userIds: readonly string[], now: Date): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .selectDistinct({ userId: realtimePresence.userId })
    .from(realtimePresence)
    .where(
      and(
        inArray(realtimePresence.userId, [...userIds]),
        gt(realtimePresence.seenAt, freshSince(now)),
        sql`${realtimePresence.connections} > 0`,
      ),
    );
  return new Set(rows.map((row) => row.userId));
}
