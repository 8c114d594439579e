import { revenueLabels, revenueNote } from "~/lib/finance";
import { formatFcfa } from "~/lib/format";

/**
 * Under the revenue figures of a screen: the period's refunds and net revenue, and what each
 * figure counts (the same words on every screen, report and export).
 */
export function RevenueNote({ refunds, net, period }: { refunds: number; net: number; period: string }) {
  return (
    <div className="mt-3 rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700" id="definitions-revenus">
      <p>
        Sur {period} : {revenueLabels.refunds.toLowerCase()} <strong className="whitespace-nowrap">{formatFcfa(refunds)}</strong> ·{" "}
        {revenueLabels.net.toLowerCase()} <strong className="whitespace-nowrap">{formatFcfa(net)}</strong>.
      </p>
      <p className="mt-1 text-slate-600">{revenueNote}</p>
    </div>
  );
}
