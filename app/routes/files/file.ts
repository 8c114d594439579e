import { getOptionalUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { AppError, isAppError } from "~/.server/errors";
import { fileResponse } from "~/.server/files/serve";
import { getReadableFile } from "~/.server/learning";
import { storageContext } from "~/.server/storage/context";
import { thumbnailWidths, videoVersionOf } from "~/lib/uploads";
import type { Route } from "./+types/file";

/**
 * A stored file (/fichiers/:id; thumbnails also ?largeur=320|640|1280, lesson videos also
 * ?version=basse|haute|affiche), to whoever may see it: streamed with Range support so videos
 * seek on a phone. Anything else is a 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  const params = new URL(args.request.url).searchParams;
  const widthParam = params.get("largeur");
  const versionParam = params.get("version");
  const variant =
    widthParam !== null
      ? thumbnailWidths.find((candidate) => String(candidate) === widthParam)?.toString()
      : versionParam !== null
        ? videoVersionOf(versionParam)
        : undefined;
  try {
    if ((widthParam !== null || versionParam !== null) && variant === undefined) throw AppError.notFound("Fichier introuvable.");
    const readable = await getReadableFile(args.context.get(dbContext), user, args.params.id);
    return await fileResponse(args.context.get(storageContext), args.request, readable, { variant });
  } catch (error) {
    if (isAppError(error, "not_found")) {
      return new Response("Fichier introuvable.", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
    throw error;
  }
}
