import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/.server/db/client";
import { jobs, jobSchedules, rateLimits } from "~/.server/db/schema";
import { loadEnv } from "~/.server/env";
import { createCampusApp } from "~/.server/http/app";
import { createJobService, enqueueJob, FINISHED_JOB_RETENTION_MS, type JobService, type JobServiceOptions } from "~/.server/jobs";
import { claimJobs, retryDelayMs } from "~/.server/jobs/queue";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(async () => {
  await handle?.close();
});

const HOUR = 60 * 60 * 1000;
let clock: Date;
const services: JobService[] = [];

beforeEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.stop({ graceMs: 100 })));
  await handle.db.delete(jobs);
  await handle.db.delete(jobSchedules);
  clock = new Date("2026-11-23T10:00:00Z");
});

/** A service driven by the test's clock and `runDue()` only (its own timers wait an hour). */
function service(options: Omit<JobServiceOptions, "database"> = {}) {
  const created = createJobService({
    database: handle,
    now: () => clock,
    tickMs: HOUR,
    pollMs: HOUR,
    onError: () => {},
    ...options,
  });
  services.push(created);
  return created;
}

const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

describe("schedules", () => {
  it("run once per period across processes, and not again after a restart", async () => {
    const runs: string[] = [];
    const sweep = (who: string) => ({ name: "test.sweep", everyMs: HOUR, run: async () => void runs.push(who) });
    const a = service({ schedules: [sweep("a")] });
    const b = service({ schedules: [sweep("b")] });
    await Promise.all([a.start(), b.start()]);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toHaveLength(1);

    advance(30 * 60 * 1000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toHaveLength(1);

    // A restarted process finds the schedule in the database: not due yet.
    await a.stop();
    const restarted = service({ schedules: [sweep("restarted")] });
    await restarted.start();
    await restarted.runDue();
    expect(runs).toHaveLength(1);

    advance(31 * 60 * 1000);
    await Promise.all([b.runDue(), restarted.runDue()]);
    expect(runs).toHaveLength(2);
    const [row] = await handle.db.select().from(jobSchedules).where(eq(jobSchedules.name, "test.sweep"));
    expect(row!.lockedBy).toBeNull();
    expect(row!.nextRunAt.getTime()).toBe(clock.getTime() + HOUR);
  });

  it("are taken over when the process running them dies, once its lease has expired", async () => {
    let runs = 0;
    const hanging = service({
      schedules: [{ name: "test.long", everyMs: HOUR, leaseMs: 5 * 60 * 1000, run: () => new Promise(() => {}) }],
    });
    void hanging.start(); // never finishes its first run: a process that died mid-run
    await vi.waitFor(async () => {
      const [row] = await handle.db.select().from(jobSchedules).where(eq(jobSchedules.name, "test.long"));
      expect(row?.lockedBy).toBe(hanging.worker);
    });
    services.splice(services.indexOf(hanging), 1);

    const survivor = service({ schedules: [{ name: "test.long", everyMs: HOUR, leaseMs: 5 * 60 * 1000, run: async () => void runs++ }] });
    await survivor.start();
    await survivor.runDue();
    expect(runs).toBe(0); // still leased

    advance(5 * 60 * 1000 + 1);
    await survivor.runDue();
    expect(runs).toBe(1);
  });

  it("record a failure and still come back next period", async () => {
    let calls = 0;
    const failing = service({
      schedules: [
        {
          name: "test.failing",
          everyMs: HOUR,
          run: async () => {
            calls++;
            throw new Error("disque plein");
          },
        },
      ],
    });
    await failing.start();
    await failing.runDue();
    const [row] = await handle.db.select().from(jobSchedules).where(eq(jobSchedules.name, "test.failing"));
    expect(row!.lastError).toBe("disque plein");
    advance(HOUR);
    await failing.runDue();
    expect(calls).toBe(2);
  });
});

describe("the queue", () => {
  it("runs each job once although two processes drain it at the same time", async () => {
    const seen: number[] = [];
    const queue = (name: string) => ({
      queue: "test.work",
      concurrency: 3,
      run: async (payload: { n: number }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        seen.push(payload.n);
        void name;
      },
    });
    const a = service({ queues: [queue("a")] });
    const b = service({ queues: [queue("b")] });
    await Promise.all([a.start(), b.start()]);
    for (let n = 0; n < 40; n++) await enqueueJob(handle.db, "test.work", { n }, { now: clock });
    await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(seen.sort((x, y) => x - y)).toEqual([...Array(40).keys()]);
    const statuses = await handle.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs);
    expect(statuses.every((row) => row.status === "done" && row.attempts === 1)).toBe(true);
  });

  it("creates a keyed job once, whoever asks twice", async () => {
    const first = await enqueueJob(handle.db, "test.mail", { to: "awa" }, { key: "reminder:42:24h" });
    const second = await enqueueJob(handle.db, "test.mail", { to: "awa" }, { key: "reminder:42:24h" });
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    expect(await handle.db.select().from(jobs)).toHaveLength(1);
  });

  it("keeps jobs across a restart and waits for their time", async () => {
    await enqueueJob(handle.db, "test.later", { id: 1 }, { runAt: new Date(clock.getTime() + HOUR), now: clock });
    const ran: unknown[] = [];
    const worker = service({ queues: [{ queue: "test.later", run: async (payload) => void ran.push(payload) }] });
    await worker.start();
    await worker.runDue();
    expect(ran).toEqual([]);
    advance(HOUR);
    await worker.runDue();
    expect(ran).toEqual([{ id: 1 }]);
  });

  it("retries a failing job later, then marks it failed after its last attempt", async () => {
    let attempts = 0;
    const worker = service({
      queues: [
        {
          queue: "test.flaky",
          run: async () => {
            attempts++;
            throw new Error(`passerelle indisponible (${attempts})`);
          },
        },
      ],
    });
    await worker.start();
    const { id } = await enqueueJob(handle.db, "test.flaky", {}, { maxAttempts: 2, now: clock });
    await worker.runDue();
    expect(attempts).toBe(1);
    let [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "passerelle indisponible (1)" });
    expect(row!.runAt.getTime()).toBe(clock.getTime() + retryDelayMs(1));

    await worker.runDue(); // not yet
    expect(attempts).toBe(1);
    advance(retryDelayMs(1));
    await worker.runDue();
    expect(attempts).toBe(2);
    [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "failed", attempts: 2, lastError: "passerelle indisponible (2)" });
    advance(HOUR * 24);
    await worker.runDue();
    expect(attempts).toBe(2);
  });

  it("takes over a job whose process died, once its lease has expired", async () => {
    const { id } = await enqueueJob(handle.db, "test.video", { file: 7 }, { now: clock });
    const [claimed] = await claimJobs(handle.db, { queues: ["test.video"], worker: "dead-process", limit: 1, leaseMs: 60_000, now: clock });
    expect(claimed!.id).toBe(id);

    const ran: unknown[] = [];
    const survivor = service({ queues: [{ queue: "test.video", leaseMs: 60_000, run: async (payload) => void ran.push(payload) }] });
    await survivor.start();
    await survivor.runDue();
    expect(ran).toEqual([]);
    advance(60_001);
    await survivor.runDue();
    expect(ran).toEqual([{ file: 7 }]);
    const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "done", attempts: 2 });
  });

  it("exists only if the transaction that enqueued it commits, and wakes a worker without polling", async () => {
    await handle.db
      .transaction(async (tx) => {
        await enqueueJob(tx, "test.notify", { n: "rolled back" });
        throw new Error("rollback");
      })
      .catch(() => {});
    expect(await handle.db.select().from(jobs)).toHaveLength(0);

    const ran: unknown[] = [];
    const worker = createJobService({
      database: handle,
      pollMs: HOUR,
      tickMs: HOUR,
      queues: [{ queue: "test.notify", run: async (payload) => void ran.push(payload) }],
    });
    services.push(worker);
    await worker.start();
    await handle.db.transaction(async (tx) => {
      await enqueueJob(tx, "test.notify", { n: "committed" });
    });
    await vi.waitFor(() => expect(ran).toEqual([{ n: "committed" }]), { timeout: 5_000 });
  });

  it("gives a running job back, uncounted, when the process stops", async () => {
    const { id } = await enqueueJob(handle.db, "test.stop", {}, { now: clock });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = service({
      queues: [
        {
          queue: "test.stop",
          run: (_payload, { signal }) =>
            new Promise((_resolve, reject) => {
              started();
              signal.addEventListener("abort", () => reject(signal.reason));
            }),
        },
      ],
    });
    await worker.start();
    await running;
    await worker.stop({ graceMs: 50 });
    const [row] = await handle.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: "pending", attempts: 0, lockedBy: null });
  });

  it("prunes finished jobs after their retention", async () => {
    await handle.db.insert(jobs).values([
      { queue: "q", payload: {}, status: "done", runAt: clock, finishedAt: new Date(clock.getTime() - FINISHED_JOB_RETENTION_MS - 1) },
      { queue: "q", payload: {}, status: "done", runAt: clock, finishedAt: new Date(clock.getTime() - HOUR) },
      { queue: "q", payload: {}, status: "pending", runAt: new Date(clock.getTime() - FINISHED_JOB_RETENTION_MS * 2) },
    ]);
    const worker = service();
    await worker.start();
    await worker.runDue();
    expect(await handle.db.select({ status: jobs.status }).from(jobs)).toHaveLength(2);
  });
});

describe("the Campus app", () => {
  it("runs its housekeeping at start-up on timers that never keep the process alive", async () => {
    const old = new Date(Date.now() - 48 * HOUR);
    await handle.db.delete(rateLimits);
    await handle.db.insert(rateLimits).values([
      { key: "old", count: 3, windowStartedAt: old },
      { key: "recent", count: 1, windowStartedAt: new Date() },
    ]);
    const env = loadEnv({ NODE_ENV: "test", DATA_DIR: "memory://", LOG_LEVEL: "silent" });
    const intervals = new Set<NodeJS.Timeout>();
    const realSetInterval = globalThis.setInterval;
    const spy = vi.spyOn(globalThis, "setInterval").mockImplementation(((fn: () => void, ms?: number) => {
      const timer = realSetInterval(fn, ms);
      intervals.add(timer);
      return timer;
    }) as typeof setInterval);
    try {
      const campus = await createCampusApp({ env, database: handle });
      await vi.waitFor(async () => expect((await handle.db.select().from(rateLimits)).map((row) => row.key)).toEqual(["recent"]));
      const names = (await handle.db.select({ name: jobSchedules.name }).from(jobSchedules)).map((row) => row.name).sort();
      expect(names).toEqual([
        "files.sweep",
        "files.transcode-missing",
        "finance.payouts-check",
        "jobs.prune",
        "notifications.prune",
        "payments.expire",
        "rate-limits.prune",
        "realtime.presence-sweep",
      ]);
      expect(intervals.size).toBeGreaterThan(0);
      for (const timer of intervals) expect(timer.hasRef()).toBe(false);
      await campus.close();
      // The caller's database is still the caller's: open.
      expect(await handle.db.select().from(rateLimits)).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
});
