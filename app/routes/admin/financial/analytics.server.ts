import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { getMonthlyFigures, getTopCourses, type Window } from "~/.server/reports";

/** « Analytics » of « Gestion financière »: six months of revenue and the period's top courses. */

export async function loadFinanceAnalytics(db: Database, admin: Actor, window: Window, now: Date) {
  const [months, top] = await Promise.all([getMonthlyFigures(db, admin, now, 6, ["revenue", "refunds"]), getTopCourses(db, admin, window)]);
  return { tab: "analytics" as const, months, top };
}

export type AnalyticsPanel = Awaited<ReturnType<typeof loadFinanceAnalytics>>;
