import { ReportPanel } from "~/components/admin/report-panel";
import type { FinanceView } from "./shared";

/** « Rapports » of « Gestion financière »: the finance reports and the history of those generated. */

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

import type { ReportsPanel } from "./reports.server";

export function FinanceReportsTab({ panel, view: { period, here } }: { panel: ReportsPanel; view: FinanceView }) {
  return <ReportPanel reports={financeReports} period={period} history={panel.history} back={here} />;
}
