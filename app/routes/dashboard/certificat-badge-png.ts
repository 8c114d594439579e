import { getCertificateBadgePng } from "~/.server/certificates";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import type { Route } from "./+types/certificat-badge-png";

/** The badge picture with the signed credential baked in (Open Badges 3.0 PNG), to its learner or an admin. */
export async function loader(args: Route.LoaderArgs) {
  const user = args.context.get(userContext);
  const { filename, png } = await orHttpError(getCertificateBadgePng(args.context.get(dbContext), user, args.params.code));
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(png.length),
      "Cache-Control": "private, no-store",
    },
  });
}
