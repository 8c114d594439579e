import { useNavigation } from "react-router";
import { z } from "zod";
import type { FinancePeriod } from "~/lib/finance";
import { failureOf, summaryOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { wordChoice } from "~/lib/schemas";

/**
 * What the tabs of « Gestion financière » share: the URL's filters and the state of a row's form
 * (which one is being sent, which one failed).
 */

/** The transactions' status filter and each status's word in the URL (?statut=rembourses). */
export const statusWords = {
  all: "tous",
  completed: "payes",
  pending: "en-attente",
  to_reconcile: "a-rapprocher",
  failed: "echoues",
  refunded: "rembourses",
} as const;
export const statusFilters = Object.keys(statusWords) as Array<keyof typeof statusWords>;
export const financeTabs = ["transactions", "commissions", "analytics", "rapports"] as const;
export type FinanceTab = (typeof financeTabs)[number];
export const financeTabLabels: Record<FinanceTab, string> = {
  transactions: "Transactions",
  commissions: "Commissions",
  analytics: "Statistiques",
  rapports: "Rapports",
};
export const financeFiltersSchema = z.object({
  q: z.string().trim().max(LIMITS.search).catch(""),
  statut: wordChoice(statusWords, "all"),
  onglet: z.enum(financeTabs).catch("transactions"),
});
export type FinanceFilters = z.infer<typeof financeFiltersSchema>;

/** What every tab's panel is drawn with: the filters, the period and the page's address with them. */
export interface FinanceView {
  filters: FinanceFilters;
  period: FinancePeriod;
  periodLabel: string;
  /** The URL's search parameters that keep the page as it is. */
  keep: Record<string, string>;
  here: string;
}

/** A row's form: whether it is being sent (by its reference, or instructor and month), and its error. */
export function useRowState(actionData: unknown) {
  const navigation = useNavigation();
  const busy = (intent: string, key: string) =>
    navigation.formData?.get("intent") === intent &&
    (navigation.formData?.get("reference") === key ||
      `${navigation.formData?.get("instructorId")}|${navigation.formData?.get("period")}` === key);
  const failure = failureOf<{ key: string; reason: string }>(actionData);
  const errorFor = (key: string) => (failure && failure.values?.key === key ? summaryOf(failure) : null);
  return { busy, failure, errorFor };
}
