import { HorizontalBars } from "~/components/ui/bars";
import { formatPeriodMonth } from "~/lib/finance";
import { formatFcfa } from "~/lib/format";

/** Payments collected each month (refunded ones included), with the month's refunds beside them. */
export function MonthlyRevenueBars({
  months,
  caption,
}: {
  months: ReadonlyArray<{ month: string; revenue: number; refunds: number }>;
  caption: string;
}) {
  return (
    <HorizontalBars
      caption={caption}
      data={months.map((month) => ({
        label: formatPeriodMonth(month.month),
        value: month.revenue,
        display: formatFcfa(month.revenue),
        note: month.refunds ? `${formatFcfa(month.refunds)} remboursés` : undefined,
      }))}
    />
  );
}
