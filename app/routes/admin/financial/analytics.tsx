import { MonthlyRevenueBars } from "~/components/admin/charts";
import { BarsCard } from "~/components/ui/bars";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatFcfa, plural } from "~/lib/format";
import type { FinanceView } from "./shared";

import type { AnalyticsPanel } from "./analytics.server";

export function FinanceAnalyticsTab({ panel, view: { periodLabel } }: { panel: AnalyticsPanel; view: FinanceView }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Revenus mensuels</CardTitle>
        </CardHeader>
        <CardContent>
          <MonthlyRevenueBars caption="Encaissé chaque mois, six derniers mois" months={panel.months} />
        </CardContent>
      </Card>
      <BarsCard
        title="Top 5 des formations"
        caption={`Par inscriptions sur ${periodLabel}`}
        tone="accent"
        data={panel.top.map((course) => ({
          label: course.title,
          value: course.enrolments,
          display: plural(course.enrolments, "inscription", "inscriptions"),
          note: formatFcfa(course.revenue),
        }))}
      />
    </div>
  );
}
