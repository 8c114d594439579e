import { redirect, href } from "react-router";
import { z } from "zod";
import { safeRedirect } from "~/.server/auth/redirect";
import { dbContext, userContext } from "~/.server/context";
import { storeReport } from "~/.server/finance";
import { methodNotAllowed } from "~/.server/http/errors";
import { buildReport, isReportKind, windowOf } from "~/.server/reports";
import { redirectWithToast } from "~/.server/toast";
import { AreaError } from "~/components/shell/area-error";
import { periodFrom } from "~/lib/finance";
import type { Route } from "./+types/rapports";

const schema = z.object({
  kind: z.string().refine(isReportKind, "Rapport inconnu."),
  format: z.enum(["csv", "pdf"]),
  periode: z.string().optional(),
});

/** Where the report buttons are: the page that sent the form, else the dashboard's « Rapports » tab. */
const REPORTS_HOME = "/admin?onglet=rapports";

/**
 * "Générer": the report over the chosen period is built from the data, kept in the history, and
 * the browser is sent to its file (CSV or PDF). A form that cannot be read goes back to its page
 * with the reason (this route has no page of its own to show it on).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const form = Object.fromEntries(await request.formData());
  const parsed = schema.safeParse(form);
  if (!parsed.success)
    return redirectWithToast(
      safeRedirect(form.back, REPORTS_HOME),
      { type: "error", title: "Rapport non généré", description: "Ce rapport n'existe pas. Choisissez-en un dans la liste." },
      { status: 303 },
    );
  const window = windowOf(periodFrom(parsed.data.periode));
  const stored = await storeReport(db, admin, await buildReport(db, admin, parsed.data.kind as never, window));
  return redirect(href("/admin/rapports/:id/:format", { id: String(stored.id), format: parsed.data.format }), { status: 303 });
}

/** Only POST makes sense here (the reports are on the dashboard and the finance screen): a GET gets 405, inside the layout. */
export function loader() {
  throw methodNotAllowed(REPORTS_HOME);
}

/** The 405's `Allow` on the page too (React Router keeps a thrown response's headers only when asked). */
export const headers: Route.HeadersFunction = ({ errorHeaders }) => errorHeaders ?? {};

/** The 405 (or any error) inside the admin layout, with links to the reports and the dashboard. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AreaError error={error} home={{ to: "/admin", label: "Retour au tableau de bord de l'administration" }} />;
}
