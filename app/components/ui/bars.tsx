import type { ComponentProps } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * Horizontal bars scaled to the largest value (or to `scale`: 100 for shares in percent), rendered
 * on the server (decision 0015): each row names its label and its value in text, the bar is
 * decoration. Reads well at 360 px, whatever the number of rows (twelve months, five courses); a
 * long label wraps rather than being cut.
 */
export function HorizontalBars({
  data,
  caption,
  tone = "brand",
  scale,
}: {
  data: ReadonlyArray<{ label: string; value: number; display: string; note?: string }>;
  caption: string;
  tone?: "brand" | "accent" | "red" | "green";
  scale?: number;
}) {
  const max = scale ?? Math.max(0, ...data.map((item) => item.value));
  const colour = { brand: "bg-brand-600", accent: "bg-accent-500", red: "bg-red-600", green: "bg-emerald-600" }[tone];
  return (
    <figure>
      <figcaption className="mb-3 text-sm font-medium text-slate-700">{caption}</figcaption>
      {data.length === 0 ? (
        <p className="text-sm text-slate-600">Aucune donnée sur cette période.</p>
      ) : (
        <ul className="space-y-2.5">
          {data.map((item, index) => (
            <li key={`${index}-${item.label}`}>
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span className="min-w-0 font-medium [overflow-wrap:anywhere] text-slate-900">{item.label}</span>
                <span className="shrink-0 text-right text-slate-700 tabular-nums">
                  {item.display}
                  {item.note ? <span className="text-slate-600"> · {item.note}</span> : null}
                </span>
              </div>
              <div aria-hidden="true" className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100">
                <div
                  className={`h-full rounded-full ${colour}`}
                  style={{ width: `${max > 0 ? Math.min(100, Math.max(0, (item.value / max) * 100)) : 0}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** A card holding one bar chart under its title: how the dashboards lay their figures out. */
export function BarsCard({ title, ...bars }: { title: string } & ComponentProps<typeof HorizontalBars>) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <HorizontalBars {...bars} />
      </CardContent>
    </Card>
  );
}
