import { and, eq, sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { jobSchedules } from "../db/schema";

/**
 * Registers schedules that do not exist yet, due at once (a fresh database runs its housekeeping
 * at the first start); existing ones keep their next run, so restarts do not run them again.
 */
export async function registerSchedules(db: Database, names: string[], now: Date) {
  if (!names.length) return;
  await db
    .insert(jobSchedules)
    .values(names.map((name) => ({ name, nextRunAt: now })))
    .onConflictDoNothing({ target: jobSchedules.name });
}

/**
 * Takes the due schedules among `names` for `worker`: one UPDATE, so of several processes asking
 * at once exactly one gets each. A schedule whose lease expired (its process died mid-run) is due
 * again.
 */
export async function claimDueSchedules(
  db: Database,
  options: { schedules: { name: string; leaseMs: number }[]; worker: string; now: Date },
): Promise<string[]> {
  if (!options.schedules.length) return [];
  const now = options.now.toISOString();
  const names = sql.join(
    options.schedules.map(({ name }) => sql`${name}`),
    sql`, `,
  );
  const leaseEnd = sql.join(
    options.schedules.map(
      ({ name, leaseMs }) => sql`when ${name} then ${new Date(options.now.getTime() + leaseMs).toISOString()}::timestamptz`,
    ),
    sql` `,
  );
  const rows = await queryRows<{ name: string }>(
    db,
    sql`
    update ${jobSchedules}
    set locked_by = ${options.worker}, locked_until = case name ${leaseEnd} end, last_started_at = ${now}::timestamptz
    where name in (${names}) and next_run_at <= ${now}::timestamptz
      and (locked_until is null or locked_until <= ${now}::timestamptz)
    returning name`,
  );
  return rows.map((row) => row.name);
}

/** Ends a run: next one `everyMs` after this one started; the error (or none) is kept. */
export async function finishSchedule(
  db: Database,
  options: { name: string; worker: string; startedAt: Date; everyMs: number; now: Date; error?: unknown },
) {
  const error = options.error === undefined ? null : options.error instanceof Error ? options.error.message : String(options.error);
  await db
    .update(jobSchedules)
    .set({
      nextRunAt: new Date(options.startedAt.getTime() + options.everyMs),
      lockedBy: null,
      lockedUntil: null,
      lastFinishedAt: options.now,
      lastError: error?.slice(0, 2000) ?? null,
    })
    .where(and(eq(jobSchedules.name, options.name), eq(jobSchedules.lockedBy, options.worker)));
}
