import { getInstitute } from "~/.server/catalogue";
import { dbContext, userContext } from "~/.server/context";
import { reportCsv, reportPdf } from "~/.server/finance";
import { orHttpError } from "~/.server/http/errors";
import { csvDownload } from "~/.server/http/csv";
import type { Route } from "./+types/rapport-fichier";

/** A stored report as CSV or PDF (/admin/rapports/12/csv), drawn from the copy kept when it was generated. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const admin = context.get(userContext);
  const db = context.get(dbContext);
  const id = Number(params.id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647 || (params.format !== "csv" && params.format !== "pdf"))
    throw new Response("Rapport introuvable.", { status: 404 });
  if (params.format === "csv") {
    const { filename, body } = await orHttpError(reportCsv(db, admin, id));
    return csvDownload(filename, body);
  }
  const institute = await getInstitute(db);
  const { filename, pdf } = await orHttpError(reportPdf(db, admin, id, institute.name));
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
