export interface PeriodicTask {
  /** Stops the timer and waits for a run in progress, so the database can close after it. */
  stop(): Promise<void>;
  /** The run in progress (or the last one), settled when it ends; never rejects. */
  readonly current: Promise<void>;
}

/**
 * Runs `task` once now, then every `intervalMs`, one run at a time, on an unref'd timer that
 * never keeps the process alive. Errors go to `onError`, never up: housekeeping must not crash
 * the server.
 */
export function startPeriodicTask(task: () => Promise<unknown>, options: { intervalMs: number; onError: (error: unknown) => void }): PeriodicTask {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();

  const run = () => {
    if (stopped) return;
    current = current.then(async () => {
      if (stopped) return;
      try {
        await task();
      } catch (error) {
        try {
          options.onError(error);
        } catch {
          // A failing logger must not crash the process either.
        }
      }
    });
  };

  run();
  const timer = setInterval(run, options.intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
    get current() {
      return current;
    },
  };
}
