import { getOptionalUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { getReadableFile } from "~/.server/courses/file-access";
import { fileResponse, FileNotFoundError } from "~/.server/files/serve";
import { storageContext } from "~/.server/storage/context";
import { thumbnailWidths } from "~/lib/uploads";
import type { Route } from "./+types/file";

/**
 * A stored file (/fichiers/:id, thumbnails also ?largeur=320|640|1280), to whoever may see it:
 * streamed with Range support so videos seek on a phone. Anything else is a 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  const widthParam = new URL(args.request.url).searchParams.get("largeur");
  const width = widthParam === null ? undefined : thumbnailWidths.find((candidate) => String(candidate) === widthParam);
  try {
    if (widthParam !== null && width === undefined) throw new FileNotFoundError();
    const readable = await getReadableFile(args.context.get(dbContext), user, args.params.id);
    return await fileResponse(args.context.get(storageContext), args.request, readable, { width });
  } catch (error) {
    if (error instanceof FileNotFoundError) {
      return new Response("Fichier introuvable.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    }
    throw error;
  }
}
