/**
 * Small charts drawn with HTML and CSS on the server: they show before (and without) JavaScript,
 * weigh nothing, and read as lists to screen readers (docs/decisions/0015-server-rendered-charts.md).
 */

/** Vertical bars, one per period: "janv 20 %", "févr 35 %"... on a 0–100 scale. */
export function BarChart({ data, unit, caption }: { data: Array<{ label: string; value: number }>; unit: string; caption: string }) {
  return (
    <figure>
      <ol className="flex h-48 items-end gap-2 border-b border-slate-300 sm:gap-4" aria-label={caption}>
        {data.map((point) => {
          const height = Math.max(0, Math.min(100, point.value));
          return (
            <li key={point.label} className="flex h-full flex-1 flex-col items-center justify-end gap-1">
              <span className="text-xs font-semibold text-slate-900 tabular-nums">
                {point.value}
                {unit === "%" ? " %" : ` ${unit}`}
              </span>
              <span
                aria-hidden="true"
                className="w-full max-w-12 rounded-t bg-brand-600"
                style={{ height: `${height}%`, minHeight: height > 0 ? "2px" : 0 }}
              />
              <span className="sr-only">{point.label}</span>
            </li>
          );
        })}
      </ol>
      <div aria-hidden="true" className="mt-1 flex gap-2 sm:gap-4">
        {data.map((point) => (
          <span key={point.label} className="flex-1 text-center text-xs text-slate-600">
            {point.label}
          </span>
        ))}
      </div>
      <figcaption className="sr-only">{caption}</figcaption>
    </figure>
  );
}

const shareColours = ["bg-brand-600", "bg-accent-500", "bg-emerald-600", "bg-sky-600", "bg-rose-600", "bg-slate-500"];

/** Horizontal bars of shares that add up to 100 %: "Énergie 50 % (1 formation)". */
export function ShareChart({ data }: { data: Array<{ label: string; value: number; detail: string }> }) {
  return (
    <ul className="space-y-3">
      {data.map((item, index) => (
        <li key={item.label}>
          <div className="flex justify-between gap-3 text-sm">
            <span className="font-medium text-slate-900">{item.label}</span>
            <span className="text-slate-700 tabular-nums">
              {item.value} % · {item.detail}
            </span>
          </div>
          <div aria-hidden="true" className="mt-1 h-2.5 overflow-hidden rounded-full bg-slate-200">
            <div className={`h-full rounded-full ${shareColours[index % shareColours.length]}`} style={{ width: `${item.value}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
