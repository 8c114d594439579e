import { getCertificateCredential } from "~/.server/certificates";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import type { Route } from "./+types/certificat-badge";

/**
 * The certificate as an Open Badges 3.0 credential, signed (VC-JWT): a file the learner keeps or
 * hands to a badge wallet; it verifies with the institute's published key alone.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { filename, body } = await orHttpError(getCertificateCredential(args.context.get(dbContext), user, args.params.code));
  return new Response(body, {
    headers: {
      // The VC-JWT media type (W3C VC-JOSE-COSE).
      "Content-Type": "application/vc+jwt",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
