import { Download, Percent, Receipt, RotateCcw, Scale, TrendingUp, Wallet } from "~/components/icons";
import { Link } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure } from "~/.server/http/errors";
import { getFinanceSummary, windowOf } from "~/.server/reports";
import { PeriodSelector } from "~/components/admin/period-selector";
import { RevenueNote } from "~/components/admin/revenue-note";
import { buttonClasses } from "~/components/ui/button";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { financePeriods, formatSignedPercent, periodFrom, revenueLabels } from "~/lib/finance";
import { formatFcfa, formatPercent, plural } from "~/lib/format";
import { summaryOf } from "~/lib/form-result";
import { FinanceAnalyticsTab } from "./financial/analytics";
import { loadFinanceAnalytics } from "./financial/analytics.server";
import { CommissionsTab } from "./financial/commissions";
import { commissionIntents, handleCommissionIntent, loadCommissions } from "./financial/commissions.server";
import { FinanceReportsTab } from "./financial/reports";
import { loadFinanceReports } from "./financial/reports.server";
import { financeFiltersSchema, financeTabLabels, financeTabs, statusWords, useRowState, type FinanceView } from "./financial/shared";
import { RefundConfirmation, TransactionsTab } from "./financial/transactions";
import { handleTransactionIntent, loadPaymentNotices, loadTransactions, transactionIntents } from "./financial/transactions.server";
import type { Route } from "./+types/financial";

/**
 * « Gestion financière »: the period's figures above four tabs (?onglet=), each in its own module
 * under ./financial with its reads, its intents and its panel.
 */
export async function loader(args: Route.LoaderArgs) {
  const admin = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const url = new URL(args.request.url);
  const filters = financeFiltersSchema.parse({
    q: url.searchParams.get("q") ?? "",
    statut: url.searchParams.get("statut") ?? undefined,
    onglet: url.searchParams.get("onglet") ?? "transactions",
  });
  const period = periodFrom(url.searchParams.get("periode"));
  const now = new Date();
  const window = windowOf(period, now);
  const [summary, notices, panel] = await Promise.all([
    getFinanceSummary(db, admin, window),
    loadPaymentNotices(db, admin, url),
    filters.onglet === "commissions"
      ? loadCommissions(args.context, db, admin, window, now)
      : filters.onglet === "analytics"
        ? loadFinanceAnalytics(db, admin, window, now)
        : filters.onglet === "rapports"
          ? loadFinanceReports(db, admin)
          : loadTransactions(db, admin, filters, window),
  ]);
  return { filters, period, summary, ...notices, panel };
}

const actionSchema = z.discriminatedUnion("intent", [...transactionIntents, ...commissionIntents]);

export async function action(args: Route.ActionArgs) {
  const admin = args.context.get(userContext);
  const url = args.url;
  const params = new URLSearchParams(url.search);
  params.delete("rembourser");
  const back = `${url.pathname}${params.size ? `?${params}` : ""}`;
  const form = Object.fromEntries(await args.request.formData());
  const parsed = actionSchema.safeParse(form);
  const key = String(form.reference ?? `${form.instructorId ?? ""}|${form.period ?? ""}`);
  const values = { key, reference: String(form.reference ?? ""), reason: String(form.reason ?? "") };
  if (!parsed.success) return formFailure(parsed.error, { intent: String(form.intent ?? ""), values });
  const db = args.context.get(dbContext);
  const data = parsed.data;
  try {
    return data.intent === "record-cash" || data.intent === "refund"
      ? await handleTransactionIntent(args.context, db, admin, data, back)
      : await handleCommissionIntent(args.context, db, admin, data, back);
  } catch (error) {
    // Shown beside the row it concerns.
    return formFailure(error, { intent: data.intent, values });
  }
}

export const meta = () => [{ title: "Gestion Financière · Administration" }];

/** "Gestion Financière": the period's figures, transactions and refunds, commissions, analytics and reports. */
export default function FinancialPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, period, summary, toReconcile, refund, panel } = loaderData;
  const { failure } = useRowState(actionData);
  const keep: Record<string, string> = { periode: period, onglet: filters.onglet };
  if (filters.q) keep.q = filters.q;
  if (filters.statut !== "all") keep.statut = statusWords[filters.statut];
  const here = `/admin/financial?${new URLSearchParams(keep).toString()}`;
  const periodLabel = financePeriods[period].label;
  const view: FinanceView = { filters, period, periodLabel, keep, here };
  const icon = "size-5";
  return (
    <div className="space-y-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Gestion Financière</h1>
          <p className="mt-1 text-slate-600">
            Les paiements des formations, les remboursements, les commissions des enseignants et les rapports.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <PeriodSelector period={period} keep={{ onglet: filters.onglet }} />
          <a href={`/admin/financial/export?periode=${period}`} className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" className="size-4" />
            Exporter
          </a>
          <a href={`/admin/financial/export?periode=${period}&format=csv`} className={buttonClasses({ variant: "outline" })} download>
            <Download aria-hidden="true" className="size-4" />
            CSV
          </a>
        </div>
      </header>
      {toReconcile > 0 ? (
        <p role="status" className="rounded-md border border-blue-300 bg-blue-50 px-4 py-3 text-blue-950">
          {toReconcile === 1
            ? "1 paiement, payé après son échec, attend votre décision."
            : `${toReconcile} paiements, payés après leur échec, attendent votre décision.`}{" "}
          <Link to="/admin/financial/rapprochement" className="font-semibold underline">
            Voir les paiements à rapprocher
          </Link>
        </p>
      ) : null}
      {failure && !failure.values?.key ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900">
          {summaryOf(failure)}
        </p>
      ) : null}

      <section aria-labelledby="resume-financier">
        <h2 id="resume-financier" className="sr-only">
          Résumé sur {periodLabel}
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:gap-4 xl:grid-cols-3">
          <StatCard
            label={revenueLabels.collected}
            value={formatFcfa(summary.totalRevenue)}
            note={`sur ${periodLabel} · ${summary.revenueGrowth === null ? "aucun revenu sur la période précédente" : `${formatSignedPercent(summary.revenueGrowth)} vs période précédente`}`}
            icon={<TrendingUp className={icon} />}
          />
          <StatCard
            label={`${revenueLabels.collected}, 30 jours`}
            value={formatFcfa(summary.monthlyRevenue)}
            note="sur les 30 derniers jours, quelle que soit la période"
            icon={<Wallet className={icon} />}
          />
          <StatCard
            label={revenueLabels.commissions}
            value={formatFcfa(summary.commissionsDue)}
            note={`gagnées sur ${periodLabel} · ${formatFcfa(summary.commissionsUnpaid)} restent à payer en tout`}
            icon={<Percent className={icon} />}
          />
          <StatCard
            label={revenueLabels.refunds}
            value={formatFcfa(summary.refunds)}
            note={`${plural(summary.refundCount, "remboursement", "remboursements")} sur ${periodLabel}`}
            icon={<RotateCcw className={icon} />}
          />
          <StatCard
            label="Transactions"
            value={summary.transactions}
            note={`paiements ouverts sur ${periodLabel}`}
            icon={<Receipt className={icon} />}
          />
          <StatCard
            label="Marge Nette"
            value={summary.netMargin === null ? "—" : formatPercent(summary.netMargin, { decimals: 1, fixed: true })}
            note="(encaissé − commissions − remboursements) / encaissé"
            icon={<Scale className={icon} />}
          />
        </dl>
        <RevenueNote refunds={summary.refunds} net={summary.netRevenue} period={periodLabel} />
      </section>

      {refund ? <RefundConfirmation refund={refund} here={here} actionData={actionData} /> : null}

      <LinkTabs
        label="Sections des finances"
        current={panel.tab}
        items={financeTabs.map((tab) => ({
          value: tab,
          label: financeTabLabels[tab],
          to: `/admin/financial?periode=${period}&onglet=${tab}`,
        }))}
      />

      {panel.tab === "transactions" ? <TransactionsTab panel={panel} view={view} actionData={actionData} /> : null}
      {panel.tab === "commissions" ? <CommissionsTab panel={panel} view={view} actionData={actionData} /> : null}
      {panel.tab === "analytics" ? <FinanceAnalyticsTab panel={panel} view={view} /> : null}
      {panel.tab === "rapports" ? <FinanceReportsTab panel={panel} view={view} /> : null}
    </div>
  );
}
