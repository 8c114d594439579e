import { formatNumber } from "~/lib/format";
import type { ReactNode } from "react";
import { cx } from "./control";

/** One figure of a stat-card row (users, courses); a number is written the French way. */
export function StatCard({
  label,
  value,
  note,
  icon,
  wide,
}: {
  label: string;
  value: number | string;
  note?: string;
  icon: ReactNode;
  wide?: boolean;
}) {
  const shown = typeof value === "number" ? formatNumber(value) : value;
  // A long figure (« 12 345 678 FCFA ») would break over two lines in a narrow card (two columns
  // beside the sidebar): it takes a size that follows the card's width instead.
  const long = shown.length > 10;
  // dt and dd sit directly in a div directly in the dl, as HTML allows.
  return (
    <div className={cx("@container rounded-lg border border-slate-200 bg-white p-4 shadow-sm", wide && "col-span-2 md:col-span-1")}>
      <dt className="flex items-start justify-between gap-2 text-sm font-medium text-slate-600">
        {label}
        <span aria-hidden="true" className="text-brand-700">
          {icon}
        </span>
      </dt>
      <dd className={cx("mt-2 font-bold text-slate-900", long ? "text-[length:clamp(1.125rem,10cqi,1.875rem)] leading-tight" : "text-3xl")}>
        {shown}
      </dd>
      {note && <dd className="mt-1 text-xs text-slate-600">{note}</dd>}
    </div>
  );
}
