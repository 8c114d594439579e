/**
 * Messaging, what the browser and other capabilities may share (no server code): the limits of a
 * message, and the address that opens a conversation with someone.
 */
import { LIMITS } from "./limits";
import { canTeach, type Role } from "./roles";

/** A message's longest text. */
export const MESSAGE_MAX_LENGTH = LIMITS.longText;

/** How many messages a conversation shows at once (older ones come on scroll, or by a link). */
export const MESSAGES_PAGE_SIZE = 30;

/** Where each signed-in area keeps its messaging. */
export type MessagingArea = "dashboard" | "teacher";

export const messagesPath = (area: MessagingArea = "dashboard") => `/${area}/messages`;

/** The page of one conversation. */
export const conversationHref = (conversationId: number, area: MessagingArea = "dashboard") => `${messagesPath(area)}/${conversationId}`;

/**
 * The link that opens a conversation with `userId` (the existing one, or a new one on the first
 * message): "Envoyer un message" buttons in other screens lead here. Whether the person may be
 * written to is the messaging policy's decision, shown on that page.
 */
export const messageUserHref = (userId: string, area: MessagingArea = "dashboard") =>
  `${messagesPath(area)}/nouveau?avec=${encodeURIComponent(userId)}`;

/** Whom a person may start a conversation with, as the new-conversation pane says it (the messaging policy's rules). */
export function contactsHint(role: Role): string {
  if (role === "admin") return "Vous pouvez écrire à toute personne inscrite.";
  if (canTeach(role)) return "Vous pouvez écrire aux apprenants de vos formations et à l'administration.";
  return "Vous pouvez écrire aux enseignants de vos formations et à l'administration.";
}

/** After how long unread a message is notified (and e-mailed): the choices of the notification settings. */
export const messageNoticeDelays = [
  { value: "jamais", minutes: null, label: "Jamais" },
  { value: "15min", minutes: 15, label: "Après 15 minutes" },
  { value: "1h", minutes: 60, label: "Après 1 heure" },
  { value: "1j", minutes: 24 * 60, label: "Après 1 jour" },
] as const;
export type MessageNoticeDelay = (typeof messageNoticeDelays)[number]["value"];
export const DEFAULT_MESSAGE_NOTICE_DELAY: MessageNoticeDelay = "15min";
