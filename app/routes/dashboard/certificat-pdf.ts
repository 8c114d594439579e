import { certificatesContext, getCertificatePdf } from "~/.server/certificates";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import type { Route } from "./+types/certificat-pdf";

/** "Télécharger": the certificate as a PDF, to its learner or an admin (anyone else: 404). */
export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const services = args.context.get(certificatesContext);
  const { filename, pdf } = await orHttpError(getCertificatePdf(args.context.get(dbContext), services, user, args.params.code));
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
    },
  });
}
