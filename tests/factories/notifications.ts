import type { Database } from "~/.server/db/client";
import { notifyUser, type NotificationInput } from "~/.server/notifications";
import type { TestUser } from "./users";

/** A notification for `user`, written the way capabilities write them (notifyUser). */
export async function createNotification(
  db: Database,
  user: Pick<TestUser, "id">,
  overrides: Partial<Omit<NotificationInput, "userId">> = {},
) {
  return notifyUser(db, {
    userId: user.id,
    kind: overrides.kind ?? "forum_reply",
    title: overrides.title ?? "Nouvelle réponse",
    body: overrides.body ?? "Moussa a répondu à votre sujet « Premiers pas en Python ».",
    link: overrides.link === undefined ? "/dashboard/forum" : overrides.link,
    ...(overrides.key ? { key: overrides.key } : {}),
    ...(overrides.now ? { now: overrides.now } : {}),
  });
}
