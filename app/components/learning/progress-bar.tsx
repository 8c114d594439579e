/** A progress bar with its figure, announced as one: "Progression … 40 %". */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2.5 flex-1 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-700" style={{ width: `${percent}%` }} />
      </div>
      <span className="min-w-12 shrink-0 text-right text-sm font-semibold whitespace-nowrap text-slate-900 tabular-nums">{percent} %</span>
    </div>
  );
}
