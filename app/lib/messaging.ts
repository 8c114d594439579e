/**
 * Messaging, what the browser and other capabilities may share (no server code): the limits of a
 * message, and the address that opens a conversation with someone.
 */
import { LIMITS } from "./limits";

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
