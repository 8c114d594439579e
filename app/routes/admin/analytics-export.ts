import { dbContext, userContext } from "~/.server/context";
import { getAdvancedAnalytics, windowOf } from "~/.server/reports";
import { isoDay } from "~/lib/dates";
import { financePeriods, periodFrom, revenueNote } from "~/lib/finance";
import type { Route } from "./+types/analytics-export";

/**
 * "Exporter (JSON)" of the advanced analytics: every figure of the screen for the chosen period
 * (rapport-analytics-{date}.json: dateGenerated, timeRange and each section), read like the page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const period = periodFrom(new URL(request.url).searchParams.get("periode"));
  const now = new Date();
  const { period: timeRange, ...figures } = await getAdvancedAnalytics(db, admin, windowOf(period, now), now);
  const report = {
    dateGenerated: now.toISOString(),
    timeRange,
    timeRangeLabel: financePeriods[timeRange].label,
    definitions: revenueNote,
    ...figures,
    projection: {
      method: "Tendance linéaire (moindres carrés) des revenus encaissés et des inscriptions des mois complets, prolongée de trois mois.",
      ...figures.projection,
    },
  };
  return new Response(JSON.stringify(report, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="rapport-analytics-${isoDay(now)}.json"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
