import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { getReceiptPdf } from "~/.server/payments";
import type { Route } from "./+types/recu";

/** The receipt of a paid (or refunded) payment, as a PDF, to its learner or an admin. */
export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { filename, pdf } = await orHttpError(getReceiptPdf(args.context.get(dbContext), user, args.params.reference));
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
