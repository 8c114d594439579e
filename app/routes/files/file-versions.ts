import { getOptionalUser } from "~/.server/auth/guards";
import { dbContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { getTranscodeStates } from "~/.server/files";
import { getReadableFile } from "~/.server/learning";
import type { Route } from "./+types/file-versions";

/**
 * Where a lesson video's low-data versions stand (/fichiers/:id/versions): { status, progress },
 * polled by the course form while the job runs. To whoever may read the video; else 404.
 */
export async function loader(args: Route.LoaderArgs) {
  const db = args.context.get(dbContext);
  try {
    const { file } = await getReadableFile(db, await getOptionalUser(args), args.params.id);
    if (file.purpose !== "lesson_video") throw new Response(null, { status: 404 });
    const state = (await getTranscodeStates(db, [file.id]))[file.id] ?? { status: "pending", progress: 0, error: null };
    return Response.json(
      { status: state.status, progress: state.progress, failed: state.status === "failed" },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (isAppError(error, "not_found")) return new Response(null, { status: 404, headers: { "Cache-Control": "no-store" } });
    throw error;
  }
}
