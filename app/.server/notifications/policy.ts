import { eq, type SQL } from "drizzle-orm";
import { isSelf, type Actor } from "../auth/actor";
import { notifications } from "../db/schema";

/**
 * Who may do what with notifications: a notification is its addressee's alone (administrators do
 * not read other people's bells). A leaf module.
 */
export function canReadNotification(actor: Actor | null, notification: { userId: string }): boolean {
  return isSelf(actor, notification.userId);
}

/** `canReadNotification` as SQL. */
export function ownNotificationsWhere(actor: Actor): SQL {
  return eq(notifications.userId, actor.id);
}
