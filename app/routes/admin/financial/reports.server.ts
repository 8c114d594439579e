import type { Actor } from "~/.server/auth/actor";
import type { Database } from "~/.server/db/client";
import { listReports } from "~/.server/finance";

/** « Rapports » of « Gestion financière », server side: the history of reports generated. */
export async function loadFinanceReports(db: Database, admin: Actor) {
  return { tab: "rapports" as const, history: await listReports(db, admin) };
}

export type ReportsPanel = Awaited<ReturnType<typeof loadFinanceReports>>;
