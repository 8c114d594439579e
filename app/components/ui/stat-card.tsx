import type { ReactNode } from "react";

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
  // dt and dd sit directly in a div directly in the dl, as HTML allows.
  return (
    <div className={`rounded-lg border border-slate-200 bg-white p-4 shadow-sm ${wide ? "col-span-2 md:col-span-1" : ""}`}>
      <dt className="flex items-start justify-between gap-2 text-sm font-medium text-slate-600">
        {label}
        <span aria-hidden="true" className="text-brand-700">
          {icon}
        </span>
      </dt>
      <dd className="mt-2 text-3xl font-bold text-slate-900">{typeof value === "number" ? value.toLocaleString("fr-FR") : value}</dd>
      {note && <dd className="mt-1 text-xs text-slate-600">{note}</dd>}
    </div>
  );
}
