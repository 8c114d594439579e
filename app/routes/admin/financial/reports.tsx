import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { listReports } from "~/.server/finance";
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

export async function loadFinanceReports(db: Database, admin: Actor) {
  return { tab: "rapports" as const, history: await listReports(db, admin) };
}

type ReportsPanel = Awaited<ReturnType<typeof loadFinanceReports>>;

export function FinanceReportsTab({ panel, view: { period, here } }: { panel: ReportsPanel; view: FinanceView }) {
  return <ReportPanel reports={financeReports} period={period} history={panel.history} back={here} />;
}
