import { FileSpreadsheet, FileText } from "~/components/icons";
import { Form, href } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { formatDateTime } from "~/lib/dates";
import { REPORT_PDF_MAX_ROWS, type FinancePeriod } from "~/lib/finance";

export type ReportHistoryItem = { id: number; title: string; createdAt: Date | string; generatedBy: string; rowCount: number };

/**
 * Report buttons (each generates the report over the chosen period, keeps it, and downloads it as
 * CSV or PDF) and the history of reports generated, with who and when. Plain HTML posts: the
 * browser follows the answer to the file.
 */
export function ReportPanel({
  reports,
  period,
  history,
  back,
}: {
  reports: ReadonlyArray<{ kind: string; label: string; description: string }>;
  period: FinancePeriod;
  history: ReadonlyArray<ReportHistoryItem>;
  back: string;
}) {
  return (
    <div className="space-y-6">
      <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {reports.map((report) => (
          <li key={report.kind} className="flex flex-col justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <div>
              <h3 className="font-semibold text-slate-900">{report.label}</h3>
              <p className="mt-1 text-sm text-slate-600">{report.description}</p>
            </div>
            <Form method="post" action="/admin/rapports" reloadDocument className="flex flex-wrap gap-2">
              <input type="hidden" name="kind" value={report.kind} />
              <input type="hidden" name="periode" value={period} />
              <input type="hidden" name="back" value={back} />
              <button type="submit" name="format" value="csv" className={buttonClasses({ variant: "outline", size: "sm" })}>
                <FileSpreadsheet aria-hidden="true" className="size-4" />
                CSV<span className="sr-only"> : {report.label}</span>
              </button>
              <button type="submit" name="format" value="pdf" className={buttonClasses({ variant: "outline", size: "sm" })}>
                <FileText aria-hidden="true" className="size-4" />
                PDF<span className="sr-only"> : {report.label}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <section aria-labelledby="historique-rapports">
        <h3 id="historique-rapports" className="mb-2 font-semibold text-slate-900">
          Historique des rapports
        </h3>
        {history.length === 0 ? (
          <p className="text-sm text-slate-600">Aucun rapport généré pour l'instant.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {history.map((item) => (
              <li key={item.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{item.title}</p>
                  <p className="text-sm text-slate-600">
                    {formatDateTime(new Date(item.createdAt))} · {item.generatedBy} · {item.rowCount} ligne{item.rowCount > 1 ? "s" : ""}
                    {item.rowCount > REPORT_PDF_MAX_ROWS && ` (PDF : les ${REPORT_PDF_MAX_ROWS} premières, toutes dans le CSV)`}
                  </p>
                </div>
                <div className="flex shrink-0 gap-2">
                  <a
                    href={href("/admin/rapports/:id/:format", { id: String(item.id), format: "csv" })}
                    className={buttonClasses({ variant: "ghost", size: "sm" })}
                    download
                  >
                    CSV<span className="sr-only"> : {item.title}</span>
                  </a>
                  <a
                    href={href("/admin/rapports/:id/:format", { id: String(item.id), format: "pdf" })}
                    className={buttonClasses({ variant: "ghost", size: "sm" })}
                    download
                  >
                    PDF<span className="sr-only"> : {item.title}</span>
                  </a>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
