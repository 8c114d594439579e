import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Database, DatabaseHandle } from "../db/client";
import { claimJobs, completeJob, extendJobLease, failJob, JOBS_CHANNEL, pruneFinishedJobs, type ClaimedJob } from "./queue";
import { claimDueSchedules, finishSchedule, registerSchedules } from "./schedules";

/**
 * Background work that runs once however many server processes share the database
 * (docs/decisions/0018-jobs-in-postgresql.md):
 *
 * - schedules: `{ name, everyMs, run }`, run by one process when due (a leased row in
 *   `job_schedules`), again `everyMs` after that run started; a run cut short by a crash is taken
 *   over when its lease expires;
 * - queues: `enqueueJob(db, queue, payload, { key, runAt })` (./queue.ts) stores a job; a process
 *   whose service handles that queue claims it (FOR UPDATE SKIP LOCKED), runs it, and marks it
 *   done, or retries it later (30 s, 2 min, 8 min...) until `maxAttempts`. Jobs survive restarts.
 *   Delivery is at least once: a handler whose process dies mid-run is run again, so handlers
 *   make their effects idempotent (the job id, or the key, is a natural idempotency key).
 *
 * Workers wake on NOTIFY (`enqueueJob` sends one on commit) and also poll every `pollMs`.
 */

export { enqueueJob, JOBS_CHANNEL, type ClaimedJob, type EnqueueOptions } from "./queue";

export interface JobContext {
  db: Database;
  /** The clock of the service (tests pass their own). */
  now: () => Date;
  /** Aborted when the process stops or the job's lease was lost: stop work, throw. */
  signal: AbortSignal;
}

export interface ScheduleDefinition {
  /** Stable, unique: "files.sweep". */
  name: string;
  everyMs: number;
  run: (context: JobContext) => Promise<unknown>;
  /** Longest run expected; past it, another process may take over (default 10 min). */
  leaseMs?: number;
}

export interface QueueDefinition<Payload = unknown> {
  queue: string;
  run: (payload: Payload, context: JobContext & { job: ClaimedJob }) => Promise<unknown>;
  /** Jobs of this queue run at once in one process (default 1). */
  concurrency?: number;
  /** Renewed every third of it while the job runs (default 60 s). */
  leaseMs?: number;
}

export interface JobServiceOptions {
  database: Pick<DatabaseHandle, "db" | "listen">;
  schedules?: ScheduleDefinition[];
  queues?: QueueDefinition<never>[];
  now?: () => Date;
  /** How often schedules are checked (default 30 s, or the shortest schedule if shorter). */
  tickMs?: number;
  /** How often queues are checked besides notifications (default 5 s). */
  pollMs?: number;
  onError?: (error: unknown, what: string) => void;
}

export interface JobService {
  start(): Promise<void>;
  /** One pass now: due schedules run, queues are drained of due jobs (tests, and the timers). */
  runDue(): Promise<void>;
  /** Stops taking work; running jobs get `graceMs` to finish, then their signal aborts. */
  stop(options?: { graceMs?: number }): Promise<void>;
  readonly worker: string;
}

const DEFAULT_SCHEDULE_LEASE_MS = 10 * 60 * 1000;
const DEFAULT_JOB_LEASE_MS = 60 * 1000;

/** Finished jobs are kept this long (a key stays once-only for as long). */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Deletes finished jobs past their retention; every service runs it. */
const pruneJobs: ScheduleDefinition = {
  name: "jobs.prune",
  everyMs: 24 * 60 * 60 * 1000,
  run: ({ db, now }) => pruneFinishedJobs(db, new Date(now().getTime() - FINISHED_JOB_RETENTION_MS)),
};

export function createJobService(options: JobServiceOptions): JobService {
  const { db } = options.database;
  const now = options.now ?? (() => new Date());
  const schedules = new Map([pruneJobs, ...(options.schedules ?? [])].map((schedule) => [schedule.name, schedule]));
  const queues = new Map((options.queues ?? []).map((queue) => [queue.queue, queue as QueueDefinition<unknown>]));
  const worker = `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const onError = (error: unknown, what: string) => {
    try {
      (options.onError ?? ((e, w) => console.error(`Tâche de fond ${w} interrompue :`, e)))(error, what);
    } catch {
      // a failing logger must not stop the service
    }
  };
  const shortest = Math.min(...[...schedules.values()].map((schedule) => schedule.everyMs));
  const tickMs = options.tickMs ?? Math.min(30_000, shortest);
  const pollMs = options.pollMs ?? 5_000;

  let stopped = false;
  let started = false;
  const stopController = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let unlisten: (() => Promise<void>) | undefined;
  let ticking: Promise<void> | undefined;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  /** Running jobs, by queue. */
  const running = new Map<string, Set<Promise<void>>>();
  const runningControllers = new Set<AbortController>();

  async function tick() {
    if (stopped) return;
    let due: string[];
    try {
      due = await claimDueSchedules(db, {
        schedules: [...schedules.values()].map(({ name, leaseMs }) => ({ name, leaseMs: leaseMs ?? DEFAULT_SCHEDULE_LEASE_MS })),
        worker,
        now: now(),
      });
    } catch (error) {
      onError(error, "(planification)");
      return;
    }
    for (const name of due) {
      const schedule = schedules.get(name)!;
      const startedAt = now();
      let failure: unknown;
      try {
        await schedule.run({ db, now, signal: stopController.signal });
      } catch (error) {
        failure = error ?? new Error("échec");
        onError(error, name);
      }
      try {
        await finishSchedule(db, { name, worker, startedAt, everyMs: schedule.everyMs, now: now(), error: failure });
      } catch (error) {
        onError(error, name);
      }
    }
  }

  function runJob(definition: QueueDefinition<unknown>, job: ClaimedJob): Promise<void> {
    const controller = new AbortController();
    runningControllers.add(controller);
    const leaseMs = definition.leaseMs ?? DEFAULT_JOB_LEASE_MS;
    const heartbeat = setInterval(
      () => {
        extendJobLease(db, { id: job.id, worker, leaseMs, now: now() })
          .then((held) => {
            if (!held) controller.abort(new Error("bail perdu"));
          })
          .catch((error) => onError(error, job.queue));
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    return (async () => {
      try {
        if (job.attempt > job.maxAttempts) throw new Error("abandonnée : le processus qui la traitait s'est arrêté trop souvent");
        await definition.run(job.payload, { db, now, signal: controller.signal, job });
        clearInterval(heartbeat);
        await completeJob(db, { id: job.id, worker, now: now() });
      } catch (error) {
        clearInterval(heartbeat);
        const release = stopped && controller.signal.aborted;
        if (!release) onError(error, job.queue);
        await failJob(db, { id: job.id, worker, now: now(), error, release }).catch((failure) => onError(failure, job.queue));
      } finally {
        clearInterval(heartbeat);
        runningControllers.delete(controller);
      }
    })();
  }

  /** Claims due jobs for every free slot, until none is left. */
  async function pump() {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        for (const [queue, definition] of queues) {
          if (stopped) return;
          const active = running.get(queue) ?? new Set();
          running.set(queue, active);
          const free = (definition.concurrency ?? 1) - active.size;
          if (free < 1) continue;
          let claimed: ClaimedJob[];
          try {
            claimed = await claimJobs(db, {
              queues: [queue],
              worker,
              limit: free,
              leaseMs: definition.leaseMs ?? DEFAULT_JOB_LEASE_MS,
              now: now(),
            });
          } catch (error) {
            onError(error, queue);
            continue;
          }
          for (const job of claimed) {
            const promise: Promise<void> = runJob(definition, job).finally(() => {
              active.delete(promise);
              if (!stopped) void pump();
            });
            active.add(promise);
          }
          if (claimed.length === free) pumpAgain = true;
        }
      } while (pumpAgain && !stopped);
    })().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }

  const allRunning = () => [...running.values()].flatMap((set) => [...set]);

  return {
    worker,
    async start() {
      if (started) return;
      started = true;
      await registerSchedules(db, [...schedules.keys()], now());
      if (queues.size) {
        unlisten = await options.database.listen(
          JOBS_CHANNEL,
          (queue) => {
            if (queues.has(queue)) void pump();
          },
          { onGap: () => void pump() },
        );
      }
      const every = (ms: number, fn: () => void) => {
        const timer = setInterval(fn, ms);
        timer.unref();
        timers.push(timer);
      };
      every(tickMs, () => {
        ticking ??= tick().finally(() => (ticking = undefined));
      });
      if (queues.size) every(pollMs, () => void pump());
      ticking = tick().finally(() => (ticking = undefined));
      void pump();
    },
    async runDue() {
      await (ticking ?? tick());
      for (;;) {
        await pump();
        const active = allRunning();
        if (!active.length) break;
        await Promise.all(active);
      }
    },
    async stop({ graceMs = 5_000 } = {}) {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await unlisten?.().catch(() => {});
      await pumping;
      const settled = Promise.all(allRunning());
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs)))]);
      clearTimeout(graceTimer);
      stopController.abort(new Error("arrêt du serveur"));
      for (const controller of runningControllers) controller.abort(new Error("arrêt du serveur"));
      // A handler that ignores its signal is not waited for beyond a second grace: its lease
      // expires and another process takes the job over.
      await Promise.race([Promise.all([settled, ticking]), new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs)))]);
      clearTimeout(graceTimer);
    },
  };
}
