import { redirect, href } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { storeReport } from "~/.server/finance";
import { formFailure } from "~/.server/http/errors";
import { buildReport, isReportKind, windowOf } from "~/.server/reports";
import { periodFrom } from "~/lib/finance";
import type { Route } from "./+types/rapports";

const schema = z.object({
  kind: z.string().refine(isReportKind, "Rapport inconnu."),
  format: z.enum(["csv", "pdf"]),
  periode: z.string().optional(),
});

/**
 * "Générer": the report over the chosen period is built from the data, kept in the history, and
 * the browser is sent to its file (CSV or PDF).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return formFailure(parsed.error, { message: "Rapport inconnu." });
  const window = windowOf(periodFrom(parsed.data.periode));
  const stored = await storeReport(db, admin, await buildReport(db, admin, parsed.data.kind as never, window));
  return redirect(href("/admin/rapports/:id/:format", { id: String(stored.id), format: parsed.data.format }), { status: 303 });
}

/** Only POST makes sense here (the reports are on the dashboard and the finance screen): a GET gets 405. */
export function loader() {
  return new Response("Méthode non autorisée.", { status: 405, headers: { Allow: "POST" } });
}
