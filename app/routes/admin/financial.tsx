import { Banknote, Download, Percent, Receipt, RotateCcw, Scale, TrendingUp, Wallet } from "~/components/icons";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import {
  currentCommissionRate,
  financeContext,
  listCommissionMonths,
  listReports,
  payCommission,
  setCommissionRate,
} from "~/.server/finance";
import { formFailure } from "~/.server/http/errors";
import { countPaymentsToReconcile, getPaymentForViewer, listPayments, recordCashPayment, refundPayment } from "~/.server/payments";
import { paymentsContext } from "~/.server/payments/setup";
import { getFinanceSummary, getMonthlyFigures, getTopCourses, windowOf } from "~/.server/reports";
import { redirectWithToast } from "~/.server/toast";
import { MonthlyRevenueBars } from "~/components/admin/charts";
import { BarsCard } from "~/components/ui/bars";
import { PeriodSelector } from "~/components/admin/period-selector";
import { ReportPanel } from "~/components/admin/report-panel";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FilterBar } from "~/components/ui/filter-bar";
import { Input } from "~/components/ui/input";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { Textarea } from "~/components/ui/textarea";
import {
  commissionStateLabels,
  commissionStateTones,
  financePeriods,
  formatPeriodMonth,
  formatSignedPercent,
  periodFrom,
  type CommissionState,
} from "~/lib/finance";
import { formatFcfa, plural } from "~/lib/format";
import { failureOf, summaryOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { wordChoice } from "~/lib/schemas";
import { paymentMethodLabels, paymentStatusLabels, paymentStatusTones, type PaymentStatus } from "~/lib/payments";
import type { Route } from "./+types/financial";
import { formatDateTime, formatShortDate, formatTime } from "~/lib/dates";

/** The transactions' status filter and each status's word in the URL (?statut=rembourses). */
const statusWords = {
  all: "tous",
  completed: "payes",
  pending: "en-attente",
  to_reconcile: "a-rapprocher",
  failed: "echoues",
  refunded: "rembourses",
} as const;
const statusFilters = Object.keys(statusWords) as Array<keyof typeof statusWords>;
const tabs = ["transactions", "commissions", "analytics", "rapports"] as const;
type Tab = (typeof tabs)[number];
const tabLabels: Record<Tab, string> = {
  transactions: "Transactions",
  commissions: "Commissions",
  analytics: "Analytics",
  rapports: "Rapports",
};
const filtersSchema = z.object({
  q: z.string().trim().max(LIMITS.search).catch(""),
  statut: wordChoice(statusWords, "all"),
  onglet: z.enum(tabs).catch("transactions"),
});

const financeReports = [
  { kind: "mensuel", label: "Rapport mensuel", description: "Mois par mois : encaissé, remboursé, commissions et net pour l'institut." },
  {
    kind: "commissions",
    label: "Rapport des commissions",
    description: "Par enseignant, formation et mois : ventes, taux, commission et statut.",
  },
  {
    kind: "fiscal",
    label: "Rapport fiscal",
    description: "Chiffre d'affaires encaissé, remboursements, base et commissions versées par mois.",
  },
];

export async function loader(args: Route.LoaderArgs) {
  const admin = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const url = new URL(args.request.url);
  const filters = filtersSchema.parse({
    q: url.searchParams.get("q") ?? "",
    statut: url.searchParams.get("statut") ?? undefined,
    onglet: url.searchParams.get("onglet") ?? "transactions",
  });
  const period = periodFrom(url.searchParams.get("periode"));
  const now = new Date();
  const window = windowOf(period, now);
  const [summary, toReconcile] = await Promise.all([getFinanceSummary(db, admin, window), countPaymentsToReconcile(db, admin)]);
  const view = (row: Awaited<ReturnType<typeof listPayments>>[number]) => ({
    reference: row.reference,
    courseTitle: row.courseTitle,
    learner: `${row.userFirstName} ${row.userLastName}`.trim() || row.userEmail,
    email: row.userEmail,
    amount: row.amount,
    method: row.method,
    status: row.status,
    at: row.refundedAt ?? row.completedAt ?? row.createdAt,
    date: formatDateTime(row.refundedAt ?? row.completedAt ?? row.createdAt),
  });
  // The refund's confirmation step (?rembourser=REF): the payment, read again.
  const refundReference = url.searchParams.get("rembourser");
  const refund = refundReference
    ? await getPaymentForViewer(db, admin, refundReference.slice(0, LIMITS.paymentReference)).catch(() => null)
    : null;
  const base = { filters, period, summary, toReconcile, refund: refund ? { ...view(refund), completedAt: refund.completedAt } : null };
  switch (filters.onglet) {
    case "commissions": {
      const months = await listCommissionMonths(db, admin, { from: window.from, to: window.to });
      const instructorIds = [...new Set(months.map((month) => month.instructorId))];
      const rates = Object.fromEntries(
        await Promise.all(instructorIds.map(async (id) => [id, await currentCommissionRate(db, id, now)] as const)),
      );
      const finance = args.context.get(financeContext);
      return {
        ...base,
        panel: {
          tab: "commissions" as const,
          currentPeriod: now.toISOString().slice(0, 7),
          provider: finance.payouts ? finance.payouts.label : null,
          rates,
          months: months.map(({ lines, ...month }) => ({
            ...month,
            courses: lines.map((line) => ({ title: line.courseTitle, sales: line.sales, commission: line.commissionFcfa })),
          })),
        },
      };
    }
    case "analytics":
      return {
        ...base,
        panel: {
          tab: "analytics" as const,
          months: await getMonthlyFigures(db, admin, now, 6, ["revenue", "refunds"]),
          top: await getTopCourses(db, admin, window),
        },
      };
    case "rapports":
      return { ...base, panel: { tab: "rapports" as const, history: await listReports(db, admin) } };
    default: {
      const [rows, pendingCash] = await Promise.all([
        listPayments(db, admin, { q: filters.q, status: filters.statut, window }),
        listPayments(db, admin, { q: filters.q, status: "pending", method: "cash" }),
      ]);
      return { ...base, panel: { tab: "transactions" as const, transactions: rows.map(view), pendingCash: pendingCash.map(view) } };
    }
  }
}

const reference = z.string().trim().min(1).max(LIMITS.paymentReference);
const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("record-cash"), reference, receiptNumber: z.string().max(LIMITS.receiptNumber * 2) }),
  z.object({
    intent: z.literal("refund"),
    reference,
    reason: z
      .string()
      .trim()
      .min(1, "Indiquez le motif du remboursement.")
      .max(LIMITS.shortText, `Le motif tient en ${LIMITS.shortText} caractères au plus.`),
  }),
  z.object({
    intent: z.literal("pay-commission"),
    instructorId: z.string().min(1).max(LIMITS.textId),
    period: z.string().regex(/^\d{4}-\d{2}$/),
    channel: z.enum(["manual", "provider"]),
    manualReference: z
      .string()
      .max(LIMITS.receiptNumber * 2)
      .optional(),
  }),
  z.object({
    intent: z.literal("set-rate"),
    instructorId: z.string().min(1).max(LIMITS.textId),
    rate: z.coerce
      .number({ error: "Le taux est un nombre." })
      .int("Le taux est un nombre entier.")
      .min(0, "De 0 à 100.")
      .max(100, "De 0 à 100."),
  }),
]);

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
    switch (data.intent) {
      case "record-cash":
        await recordCashPayment(db, args.context.get(paymentsContext), admin, data.reference, data.receiptNumber);
        return redirectWithToast(
          back,
          {
            type: "success",
            title: "Paiement enregistré",
            description: `Le paiement ${data.reference} est reçu : la formation de l'apprenant est ouverte.`,
          },
          { status: 303 },
        );
      case "refund":
        await refundPayment(db, admin, data.reference, data.reason);
        return redirectWithToast(
          back,
          {
            type: "success",
            title: "Remboursement enregistré",
            description: `Le paiement ${data.reference} est remboursé ; l'apprenant est prévenu.`,
          },
          { status: 303 },
        );
      case "pay-commission": {
        const payout = await payCommission(db, args.context.get(financeContext), admin, data);
        const toast =
          payout.status === "paid"
            ? { type: "success" as const, title: "Paiement complété", description: "La commission a été payée avec succès." }
            : payout.status === "processing"
              ? { type: "success" as const, title: "Paiement initié", description: "Le paiement de la commission a été initié." }
              : {
                  type: "error" as const,
                  title: "Erreur",
                  description: `Impossible de traiter le paiement : ${payout.failureReason ?? "transfert refusé"}.`,
                };
        return redirectWithToast(back, toast, { status: 303 });
      }
      case "set-rate":
        await setCommissionRate(db, admin, data.instructorId, data.rate);
        return redirectWithToast(
          back,
          {
            type: "success",
            title: "Taux enregistré",
            description: `Le taux de ${data.rate} % s'applique aux paiements à partir de maintenant.`,
          },
          { status: 303 },
        );
    }
  } catch (error) {
    // Shown beside the row it concerns.
    return formFailure(error, { intent: data.intent, values });
  }
}

export const meta = () => [{ title: "Gestion Financière · Administration" }];

function StatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge tone={paymentStatusTones[status]} className="whitespace-nowrap">
      {paymentStatusLabels[status]}
    </Badge>
  );
}

function CommissionBadge({ state }: { state: CommissionState }) {
  return (
    <Badge tone={commissionStateTones[state]} className="whitespace-nowrap">
      {commissionStateLabels[state]}
    </Badge>
  );
}

/** "Gestion Financière": the period's figures, transactions and refunds, commissions, analytics and reports. */
export default function FinancialPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, period, summary, toReconcile, refund, panel } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string, key: string) =>
    navigation.formData?.get("intent") === intent &&
    (navigation.formData?.get("reference") === key ||
      `${navigation.formData?.get("instructorId")}|${navigation.formData?.get("period")}` === key);
  const failure = failureOf<{ key: string; reason: string }>(actionData);
  const errorFor = (key: string) => (failure && failure.values?.key === key ? summaryOf(failure) : null);
  const keep: Record<string, string> = { periode: period, onglet: filters.onglet };
  if (filters.q) keep.q = filters.q;
  if (filters.statut !== "all") keep.statut = statusWords[filters.statut];
  const here = `/admin/financial?${new URLSearchParams(keep).toString()}`;
  const periodLabel = financePeriods[period].label;
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
            label="Revenus Totaux"
            value={formatFcfa(summary.totalRevenue)}
            note={`sur ${periodLabel} · ${summary.revenueGrowth === null ? "aucun revenu sur la période précédente" : `${formatSignedPercent(summary.revenueGrowth)} vs période précédente`}`}
            icon={<TrendingUp className={icon} />}
          />
          <StatCard
            label="Revenus Mensuels"
            value={formatFcfa(summary.monthlyRevenue)}
            note="sur les 30 derniers jours"
            icon={<Wallet className={icon} />}
          />
          <StatCard
            label="Commissions Dues"
            value={formatFcfa(summary.commissionsDue)}
            note={`gagnées sur ${periodLabel} · ${formatFcfa(summary.commissionsUnpaid)} restent à payer en tout`}
            icon={<Percent className={icon} />}
          />
          <StatCard
            label="Remboursements"
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
            value={
              summary.netMargin === null
                ? "—"
                : `${summary.netMargin.toLocaleString("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`
            }
            note="(revenus − commissions − remboursements) / revenus"
            icon={<Scale className={icon} />}
          />
        </dl>
      </section>

      {refund ? (
        <Card className="border-red-200" aria-labelledby="confirmer-remboursement">
          <CardHeader>
            <CardTitle id="confirmer-remboursement">Confirmer le remboursement</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            {refund.status !== "completed" ? (
              <p className="text-slate-700">
                Ce paiement n'est pas (ou plus) remboursable : son statut est « {paymentStatusLabels[refund.status]} ».
              </p>
            ) : (
              <>
                <p className="text-slate-700">
                  Vous allez rembourser <strong>{formatFcfa(refund.amount)}</strong> à {refund.learner} ({refund.email}) pour «{" "}
                  {refund.courseTitle} » (paiement {refund.reference}, {paymentMethodLabels[refund.method]}, {refund.date}). Son accès à la
                  formation sera fermé, il sera prévenu par e-mail et dans ses notifications, et la commission de l'enseignant sera diminuée
                  d'autant.
                </p>
                <Form method="post" action={here} className="space-y-3">
                  <input type="hidden" name="intent" value="refund" />
                  <input type="hidden" name="reference" value={refund.reference} />
                  <div>
                    <label htmlFor="motif-remboursement" className="mb-1 block text-sm font-medium text-slate-800">
                      Motif du remboursement ({LIMITS.shortText} caractères au plus)
                    </label>
                    <Textarea
                      id="motif-remboursement"
                      name="reason"
                      required
                      maxLength={LIMITS.shortText}
                      rows={3}
                      defaultValue={failure?.intent === "refund" ? failure.values?.reason : ""}
                      aria-invalid={errorFor(refund.reference) ? true : undefined}
                      aria-describedby={errorFor(refund.reference) ? "motif-erreur" : undefined}
                    />
                    {errorFor(refund.reference) ? (
                      <p id="motif-erreur" className="mt-1 text-sm font-medium text-red-700">
                        {errorFor(refund.reference)}
                      </p>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="submit"
                      className={buttonClasses({ className: "bg-red-700 text-white hover:bg-red-800" })}
                      disabled={busy("refund", refund.reference)}
                    >
                      {busy("refund", refund.reference) ? "Remboursement..." : "Confirmer le remboursement"}
                    </button>
                    <Link to={here} className={buttonClasses({ variant: "ghost" })} preventScrollReset>
                      Annuler
                    </Link>
                  </div>
                </Form>
              </>
            )}
          </CardContent>
        </Card>
      ) : null}

      <LinkTabs
        label="Sections des finances"
        current={panel.tab}
        items={tabs.map((tab) => ({ value: tab, label: tabLabels[tab], to: `/admin/financial?periode=${period}&onglet=${tab}` }))}
      />

      {panel.tab === "transactions" ? transactionsTab() : null}
      {panel.tab === "commissions" ? commissionsTab() : null}
      {panel.tab === "analytics" ? (
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
      ) : null}
      {panel.tab === "rapports" ? <ReportPanel reports={financeReports} period={period} history={panel.history} back={here} /> : null}
    </div>
  );

  function transactionsTab() {
    if (panel.tab !== "transactions") return null;
    const { transactions, pendingCash } = panel;
    return (
      <>
        <FilterBar
          label="Rechercher des transactions"
          id="finance"
          className="rounded-lg border border-slate-200 bg-white p-4"
          hidden={{ periode: period }}
          search={{ value: filters.q, placeholder: "Formation, e-mail, nom ou référence" }}
          choices={[
            {
              name: "statut",
              label: "Statut",
              value: statusWords[filters.statut],
              className: "sm:w-48",
              options: statusFilters.map((value) => ({
                value: statusWords[value],
                label: value === "all" ? "Tous les statuts" : paymentStatusLabels[value],
              })),
            },
          ]}
          clearHref={filters.q || filters.statut !== "all" ? `/admin/financial?periode=${period}` : null}
        />

        <Card aria-labelledby="especes">
          <CardHeader>
            <CardTitle id="especes" className="flex items-center gap-2">
              <Banknote aria-hidden="true" className="size-5 text-brand-700" />
              Paiements en espèces à confirmer
            </CardTitle>
            <p className="text-sm text-slate-600">
              Quand un apprenant paie à l'accueil : retrouvez sa référence ou son nom, saisissez le numéro du reçu remis, enregistrez.
            </p>
          </CardHeader>
          <CardContent>
            {pendingCash.length === 0 ? (
              <p className="text-sm text-slate-600">Aucun paiement en espèces en attente{filters.q ? " pour cette recherche" : ""}.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {pendingCash.map((payment) => {
                  const fieldId = `recu-${payment.reference}`;
                  const error = errorFor(payment.reference);
                  return (
                    <li key={payment.reference} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 lg:flex-row lg:items-end">
                      <div className="min-w-0 flex-1">
                        <p className="font-mono font-bold text-slate-900">{payment.reference}</p>
                        <p className="text-sm text-slate-700">
                          {payment.learner} ({payment.email}) · {payment.courseTitle}
                        </p>
                        <p className="text-sm text-slate-600">
                          {formatFcfa(payment.amount)} · ouvert le {payment.date}
                        </p>
                      </div>
                      <Form method="post" className="flex flex-col gap-2 sm:flex-row sm:items-end">
                        <input type="hidden" name="intent" value="record-cash" />
                        <input type="hidden" name="reference" value={payment.reference} />
                        <div>
                          <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-slate-800">
                            N° du reçu remis
                          </label>
                          <Input
                            id={fieldId}
                            name="receiptNumber"
                            maxLength={50}
                            aria-invalid={error ? true : undefined}
                            aria-describedby={error ? `${fieldId}-erreur` : undefined}
                          />
                          {error ? (
                            <p id={`${fieldId}-erreur`} className="mt-1 text-sm font-medium text-red-700">
                              {error}
                            </p>
                          ) : null}
                        </div>
                        <button type="submit" className={buttonClasses()} disabled={busy("record-cash", payment.reference)}>
                          {busy("record-cash", payment.reference) ? "Enregistrement..." : "Enregistrer le paiement"}
                        </button>
                      </Form>
                    </li>
                  );
                })}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card aria-labelledby="transactions">
          <CardHeader>
            <CardTitle id="transactions">Transactions</CardTitle>
            <p className="text-sm text-slate-600" role="status">
              {plural(transactions.length, "transaction", "transactions")} sur {periodLabel}
            </p>
          </CardHeader>
          <CardContent className="relative overflow-x-auto">
            {transactions.length === 0 ? (
              <p className="text-sm text-slate-600">
                {filters.q || filters.statut !== "all"
                  ? `Aucune transaction sur ${periodLabel} ne correspond à ces critères.`
                  : `Aucune transaction sur ${periodLabel}.`}
              </p>
            ) : (
              <table className="w-full min-w-[48rem] text-left text-sm">
                <caption className="sr-only">Transactions, des plus récentes aux plus anciennes</caption>
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Type
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Formation
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Utilisateur
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Montant
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Date
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Statut
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {transactions.map((payment) => {
                    const refund = payment.status === "refunded";
                    return (
                      <tr key={payment.reference} className="align-top">
                        <td className="py-3 pr-3">
                          <span className="font-medium text-slate-900">{refund ? "Remboursement" : "Inscription"}</span>
                          <span className="block text-xs text-slate-600">
                            {paymentMethodLabels[payment.method]} · <span className="whitespace-nowrap">{payment.reference}</span>
                          </span>
                        </td>
                        <td className="py-3 pr-3 text-slate-900">{payment.courseTitle}</td>
                        <td className="py-3 pr-3">
                          <span className="text-slate-900">{payment.learner}</span>
                          <span className="block text-xs text-slate-600">{payment.email}</span>
                        </td>
                        <td
                          className={`py-3 pr-3 text-right font-semibold whitespace-nowrap tabular-nums ${refund ? "text-red-700" : payment.status === "completed" ? "text-emerald-800" : "text-slate-700"}`}
                        >
                          {refund ? "−" : "+"}
                          {formatFcfa(payment.amount)}
                        </td>
                        <td className="py-3 pr-3 text-slate-700">
                          <span className="whitespace-nowrap">{formatShortDate(payment.at)}</span>{" "}
                          <span className="whitespace-nowrap">à {formatTime(payment.at)}</span>
                        </td>
                        <td className="py-3 pr-3">
                          <StatusBadge status={payment.status} />
                        </td>
                        <td className="py-3">
                          {payment.status === "completed" ? (
                            <Link
                              to={`?${new URLSearchParams({ ...keep, rembourser: payment.reference }).toString()}`}
                              preventScrollReset
                              className="relative text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                            >
                              Rembourser<span className="sr-only"> le paiement {payment.reference}</span>
                            </Link>
                          ) : null}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </CardContent>
        </Card>
      </>
    );
  }

  function commissionsTab() {
    if (panel.tab !== "commissions") return null;
    const { months, rates, provider, currentPeriod } = panel;
    return (
      <Card aria-labelledby="commissions">
        <CardHeader>
          <CardTitle id="commissions">Commissions des enseignants</CardTitle>
          <p className="text-sm text-slate-600">
            Chaque paiement reçu rapporte à l'enseignant de la formation son taux (70 % par défaut) au taux en vigueur ce jour-là ; un
            remboursement le reprend le mois où il est fait. Un mois se paie une fois terminé.
          </p>
        </CardHeader>
        <CardContent>
          {months.length === 0 ? (
            <p className="text-sm text-slate-600">Aucune commission sur {periodLabel}.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {months.map((month) => {
                const key = `${month.instructorId}|${month.period}`;
                const state: CommissionState = month.payout ? month.payout.status : "due";
                const payable =
                  month.commissionFcfa > 0 && month.period < currentPeriod && (!month.payout || month.payout.status === "failed");
                const error = errorFor(key);
                return (
                  <li key={key} className="grid gap-3 py-4 first:pt-0 last:pb-0 lg:grid-cols-[1fr_auto]">
                    <div className="min-w-0 space-y-1">
                      <p className="flex flex-wrap items-center gap-2">
                        <span className="font-semibold text-slate-900">{month.instructorName}</span>
                        <span className="text-sm text-slate-600">{month.instructorEmail}</span>
                        <CommissionBadge state={state} />
                      </p>
                      <p className="text-sm text-slate-700">
                        {formatPeriodMonth(month.period)} · {plural(month.sales, "inscription", "inscriptions")} · brut{" "}
                        {formatFcfa(month.grossFcfa)}
                        {month.refundedFcfa ? ` · remboursé ${formatFcfa(month.refundedFcfa)}` : ""} · taux{" "}
                        {month.minRate === month.maxRate ? `${month.minRate} %` : `${month.minRate} à ${month.maxRate} %`}
                      </p>
                      <p className="text-sm text-slate-600">
                        {month.courses.map((course) => `${course.title} (${formatFcfa(course.commission)})`).join(" · ")}
                      </p>
                      <p className="font-semibold text-slate-900 tabular-nums">Commission : {formatFcfa(month.commissionFcfa)}</p>
                      {month.payout?.status === "paid" ? (
                        <p className="text-sm text-emerald-800">
                          Payée le {month.payout.paidAt ? formatDateTime(new Date(month.payout.paidAt)) : ""} ·{" "}
                          {month.payout.manualReference
                            ? `réf. ${month.payout.manualReference}`
                            : `mobile money, réf. ${month.payout.reference}`}
                        </p>
                      ) : null}
                      {month.payout?.status === "failed" ? (
                        <p className="text-sm text-red-700">Échec : {month.payout.failureReason}</p>
                      ) : null}
                    </div>
                    <div className="space-y-2 lg:w-80">
                      {payable ? (
                        <Form method="post" action={here} className="space-y-2 rounded-md border border-slate-200 p-3">
                          <input type="hidden" name="intent" value="pay-commission" />
                          <input type="hidden" name="instructorId" value={month.instructorId} />
                          <input type="hidden" name="period" value={month.period} />
                          <fieldset className="space-y-1 text-sm">
                            <legend className="sr-only">Comment payer</legend>
                            {provider ? (
                              <label className="flex items-center gap-2">
                                <input type="radio" name="channel" value="provider" defaultChecked />
                                {provider}
                              </label>
                            ) : null}
                            <label className="flex items-center gap-2">
                              <input type="radio" name="channel" value="manual" defaultChecked={!provider} />À la main (virement, espèces)
                            </label>
                          </fieldset>
                          <div>
                            <label htmlFor={`ref-${key}`} className="mb-1 block text-sm font-medium text-slate-800">
                              Référence du virement (à la main)
                            </label>
                            <Input id={`ref-${key}`} name="manualReference" maxLength={LIMITS.receiptNumber} />
                          </div>
                          {error ? (
                            <p role="alert" className="text-sm font-medium text-red-700">
                              {error}
                            </p>
                          ) : null}
                          <button type="submit" className={buttonClasses({ size: "sm" })} disabled={busy("pay-commission", key)}>
                            {busy("pay-commission", key) ? "Traitement..." : `Payer ${formatFcfa(month.commissionFcfa)}`}
                          </button>
                        </Form>
                      ) : month.period >= currentPeriod ? (
                        <p className="text-sm text-slate-600">Mois en cours : payable à partir du 1er du mois suivant.</p>
                      ) : month.commissionFcfa <= 0 && !month.payout ? (
                        <p className="text-sm text-slate-600">Rien à payer ce mois-ci.</p>
                      ) : null}
                      <Form method="post" action={here} className="flex items-end gap-2">
                        <input type="hidden" name="intent" value="set-rate" />
                        <input type="hidden" name="instructorId" value={month.instructorId} />
                        <input type="hidden" name="period" value={month.period} />
                        <div>
                          <label htmlFor={`taux-${key}`} className="mb-1 block text-sm font-medium text-slate-800">
                            Taux actuel (%)
                          </label>
                          <Input
                            id={`taux-${key}`}
                            name="rate"
                            type="number"
                            min={0}
                            max={100}
                            step={1}
                            defaultValue={rates[month.instructorId]}
                            className="w-24"
                          />
                        </div>
                        <button type="submit" className={buttonClasses({ variant: "outline", size: "sm" })}>
                          Enregistrer<span className="sr-only"> le taux de {month.instructorName}</span>
                        </button>
                      </Form>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
    );
  }
}
