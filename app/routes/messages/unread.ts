import { userContext, dbContext } from "~/.server/context";
import { countUnreadMessages, latestUnreadMessage } from "~/.server/messaging";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/unread";

/**
 * /dashboard/messages/non-lus and /teacher/messages/non-lus: what the shell asks when its live
 * connection hears of a message (`?conversation=<id>`) or of a conversation read: the sidebar's
 * unread count and, for the toast, the conversation's latest message if it is unread and readable.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const conversation = serialIdSchema.safeParse(url.searchParams.get("conversation") ?? undefined);
  const [unread, alert] = await Promise.all([
    countUnreadMessages(db, user),
    conversation.success ? latestUnreadMessage(db, user, conversation.data) : null,
  ]);
  return { unread, alert };
}
