import { data } from "react-router";
import { requireUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { getReceiptPdf, PaymentError } from "~/.server/payments";
import type { Route } from "./+types/recu";

/** The receipt of a paid (or refunded) payment, as a PDF, to its learner or an admin. */
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  try {
    const { filename, pdf } = await getReceiptPdf(args.context.get(dbContext), user, args.params.reference);
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Content-Length": String(pdf.length),
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    if (error instanceof PaymentError) throw data("Reçu introuvable.", { status: 404 });
    throw error;
  }
}
