import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { myDataJson, myDataZip, readMyData } from "~/.server/reports";
import { isoDay } from "~/lib/dates";
import { myDataFormatSchema } from "~/lib/schemas";
import type { Route } from "./+types/mes-donnees";

/**
 * « Télécharger mes données »: the signed-in user's own data, as one JSON file or a zip of CSV
 * files. Always the acting user's: nothing in the URL names whose data it is.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const now = new Date();
  const format = myDataFormatSchema.parse(new URL(request.url).searchParams.get("format") ?? undefined);
  const data = await orHttpError(readMyData(context.get(dbContext), user, now));
  const name = `mes-donnees-campus-${isoDay(now)}`;
  const [body, type, filename] =
    format === "csv"
      ? [myDataZip(data), "application/zip", `${name}.zip`]
      : [new TextEncoder().encode(myDataJson(data)), "application/json; charset=utf-8", `${name}.json`];
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(body.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
