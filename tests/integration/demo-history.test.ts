/**
 * `npm run seed:demo`: a plausible past year written into a trial database, spread over the
 * months, paid by every method, with abandoned payments, refunds, progress, quiz attempts and
 * completions, in states the capabilities would leave; refused on a deployment; run twice, it adds.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type DatabaseHandle } from "~/.server/db/client";
import { demoHistoryRefusal, seedDemoHistory, type DemoHistorySummary } from "~/.server/db/seed/demo-history";
import { getAdvancedAnalytics, windowOf } from "~/.server/reports";
import { createUser, type TestUser } from "../factories";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
let admin: TestUser;
let summary: DemoHistorySummary;
const now = new Date();

const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(handle.db, query))[0]!.n);

beforeAll(async () => {
  handle = await createTestDatabase();
  admin = await createUser(handle.db, { role: "admin", createdAt: new Date(now.getTime() - 400 * 86_400_000) });
  summary = await seedDemoHistory(handle.db, { learners: 150, now, seed: 7 });
}, 120_000);
afterAll(async () => handle?.close());

describe("the demo history", () => {
  it("adds the learners with a year of enrolments and payments, all before now", async () => {
    expect(summary.learners).toBe(150);
    expect(await count(sql`select count(*)::int as n from users where email like '%@demo.campus.test'`)).toBe(150);
    expect(await count(sql`select count(*)::int as n from enrolments`)).toBe(summary.enrolments);
    expect(summary.enrolments).toBeGreaterThan(150);
    expect(await count(sql`select count(*)::int as n from users where created_at > ${now.toISOString()}::timestamptz`)).toBe(0);
    expect(
      await count(sql`select count(*)::int as n from payments where completed_at > ${now.toISOString()}::timestamptz
        or refunded_at > ${now.toISOString()}::timestamptz`),
    ).toBe(0);
    // Sign-ups in at least eight different months of the year.
    expect(await count(sql`select count(distinct to_char(created_at, 'YYYY-MM'))::int as n from users`)).toBeGreaterThanOrEqual(8);
  });

  it("pays by each method, abandons some, refunds a few, in consistent states", async () => {
    for (const method of ["mobile_money", "card", "cash"])
      expect(await count(sql`select count(*)::int as n from payments where method = ${method}`), method).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from payments where status = 'failed'`)).toBe(summary.abandoned);
    expect(await count(sql`select count(*)::int as n from payments where status = 'refunded' and refunded_at is not null`)).toBe(
      summary.refunds,
    );
    expect(summary.abandoned + summary.refunds).toBeGreaterThan(0);
    // A failed or refunded payment leaves its enrolment cancelled; a completed one opened it.
    expect(
      await count(sql`select count(*)::int as n from payments p join enrolments e on e.id = p.enrolment_id
        where (p.status in ('failed', 'refunded') and e.status <> 'cancelled')
           or (p.status = 'completed' and (e.status not in ('active', 'completed') or e.activated_at is null))`),
    ).toBe(0);
    // Course cards count the open enrolments.
    expect(await count(sql`select coalesce(sum(learners), 0)::int as n from course_learner_counts`)).toBe(
      await count(sql`select count(*)::int as n from enrolments where status in ('active', 'completed')`),
    );
  });

  it("progresses, sends quiz attempts and finishes courses over the months", async () => {
    expect(summary.completions).toBeGreaterThan(0);
    expect(await count(sql`select count(*)::int as n from enrolments where status = 'completed' and completed_at is not null`)).toBe(
      summary.completions,
    );
    expect(await count(sql`select count(*)::int as n from quiz_attempts where status = 'submitted'`)).toBe(summary.quizAttempts);
    expect(await count(sql`select count(*)::int as n from lesson_progress`)).toBeGreaterThan(summary.completions);
    // A finished enrolment has every lesson done and 100 % progress.
    expect(
      await count(sql`select count(*)::int as n from enrolments e where e.status = 'completed' and (e.progress <> 100
        or (select count(*) from lesson_progress lp where lp.enrolment_id = e.id and lp.completed_at is not null)
           <> (select count(*) from lessons l where l.course_id = e.course_id))`),
    ).toBe(0);
  });

  it("gives the analytics something to show, the projection included", async () => {
    const year = await getAdvancedAnalytics(handle.db, admin, windowOf("1an", now), now);
    expect(year.revenue.methods.every((row) => row.value > 0)).toBe(true);
    expect(year.revenue.months.filter((month) => month.revenue > 0).length).toBeGreaterThanOrEqual(8);
    expect(year.kpis.activeLearners.current).toBeGreaterThan(0);
    expect(year.projection.months).toHaveLength(3);
  });

  it("adds more when run again", async () => {
    await seedDemoHistory(handle.db, { learners: 5, now, seed: 8 });
    expect(await count(sql`select count(*)::int as n from users where email like '%@demo.campus.test'`)).toBe(155);
  });

  it("has the indexes the admin figures and the sign-up lookup read at that size (drizzle/0018)", async () => {
    const rows = await queryRows<{ name: string }>(handle.db, sql`select indexname as name from pg_indexes where schemaname = 'public'`);
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([
        "users_email_lower_idx",
        "users_created_idx",
        "enrolments_activated_idx",
        "enrolments_completed_idx",
        "lesson_progress_updated_at_idx",
        "lesson_progress_completed_at_idx",
        "payments_completed_idx",
        "payments_refunded_idx",
        "payments_created_idx",
        "quiz_attempts_submitted_idx",
      ]),
    );
  });

  it("refuses a deployment", () => {
    expect(demoHistoryRefusal({ NODE_ENV: "production" })).toMatch(/jamais sur un déploiement/);
    expect(demoHistoryRefusal({ CAMPUS_MODE: "production" })).toMatch(/jamais sur un déploiement/);
    expect(demoHistoryRefusal({ NODE_ENV: "development", CAMPUS_MODE: "trial" })).toBeNull();
  });
});
