import { randomUUID } from "node:crypto";
import { data, redirect } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import {
  getConversation,
  getCorrespondent,
  listContacts,
  listConversations,
  markConversationRead,
  sendMessage,
  sendMessageTo,
} from "~/.server/messaging";
import { MessagingScreen } from "~/components/messaging/messaging-screen";
import { formatChatTime, formatDateTime, formatListDate } from "~/lib/dates";
import { contactsHint, conversationHref, type MessagingArea } from "~/lib/messaging";
import { searchQuerySchema, serialIdSchema, textIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/messages";

/**
 * /dashboard/messages and /teacher/messages (the same screen in each shell): the conversation
 * list, and beside it (below it on a phone) the open conversation, /…/messages/:id, or a new one
 * with someone, /…/messages/nouveau?avec=<user id>. Everything works by links and form posts;
 * with JavaScript, messages arrive live and older ones load on scroll.
 */

/** `url`: the route's URL as React Router normalizes it (without the ".data" of client navigations). */
function areaOf(url: URL): MessagingArea {
  return url.pathname.startsWith("/teacher") ? "teacher" : "dashboard";
}

/** What the path names: the list alone, a conversation, or a new conversation. */
function selectionOf(params: { id?: string }, url: URL): { kind: "none" } | { kind: "new" } | { kind: "conversation"; id: number } {
  if (url.pathname.replace(/\/$/, "").endsWith("/messages/nouveau")) return { kind: "new" };
  if (params.id === undefined) return { kind: "none" };
  const id = serialIdSchema.safeParse(params.id);
  if (!id.success) throw new Response("Conversation introuvable.", { status: 404 });
  return { kind: "conversation", id: id.data };
}

export async function loader({ url, params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const area = areaOf(url);
  const now = new Date();
  const q = searchQuerySchema.parse(url.searchParams.get("q") ?? undefined);
  const selection = selectionOf(params, url);

  let conversation = null;
  let newConversation = null;
  if (selection.kind === "conversation") {
    const before = serialIdSchema.safeParse(url.searchParams.get("avant") ?? undefined);
    // Opened at its latest messages: read.
    if (!before.success) await orHttpError(markConversationRead(db, user, selection.id, now));
    const view = await orHttpError(getConversation(db, user, selection.id, { before: before.success ? before.data : null, now }));
    conversation = {
      ...view,
      messages: view.messages.map(({ createdAt, ...message }) => ({
        ...message,
        when: formatChatTime(createdAt, now),
        at: formatDateTime(createdAt),
        iso: createdAt.toISOString(),
      })),
    };
  } else if (selection.kind === "new") {
    const withId = textIdSchema.safeParse(url.searchParams.get("avec") ?? undefined);
    if (withId.success) {
      const { person, conversationId } = await orHttpError(getCorrespondent(db, user, withId.data));
      if (conversationId) throw redirect(conversationHref(conversationId, area));
      newConversation = { person, contacts: null, q: "", hint: contactsHint(user.role) };
    } else {
      const who = searchQuerySchema.parse(url.searchParams.get("personne") ?? undefined);
      newConversation = { person: null, contacts: await listContacts(db, user, { q: who }), q: who, hint: contactsHint(user.role) };
    }
  }

  const conversations = await listConversations(db, user, { q, now });
  return {
    area,
    userId: user.id,
    q,
    clientKey: randomUUID(),
    conversations: conversations.map(({ lastMessage, ...item }) => ({
      ...item,
      lastMessage: lastMessage && {
        body: lastMessage.body,
        mine: lastMessage.mine,
        when: formatListDate(lastMessage.createdAt, now),
        iso: lastMessage.createdAt.toISOString(),
      },
    })),
    conversation,
    newConversation,
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.conversation ? `${loaderData.conversation.title} · Messagerie` : "Messagerie" }];
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send"),
    body: z.string().default(""),
    clientKey: z.string().optional(),
    /** Set by the page's script: it wants data back, not a redirect. */
    enhanced: z.literal("1").optional(),
  }),
  z.object({ intent: z.literal("start"), avec: textIdSchema, body: z.string().default(""), clientKey: z.string().optional() }),
]);

export async function action({ request, url, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const area = areaOf(url);
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error, { intent: String(form.intent ?? "") });
  const input = parsed.data;
  const values = { body: typeof form.body === "string" ? form.body : "" };
  try {
    if (input.intent === "start") {
      const sent = await sendMessageTo(db, user, input.avec, { body: input.body, clientKey: input.clientKey });
      return redirect(conversationHref(sent.conversationId, area));
    }
    const selection = selectionOf(params, url);
    if (selection.kind !== "conversation") throw new Response("Conversation introuvable.", { status: 404 });
    const sent = await sendMessage(db, user, selection.id, { body: input.body, clientKey: input.clientKey });
    if (input.enhanced) return data({ ok: true as const, intent: "send", id: sent.id });
    return redirect(conversationHref(selection.id, area));
  } catch (error) {
    return formFailure(error, { intent: input.intent, values });
  }
}

export default function MessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  return <MessagingScreen data={loaderData} actionData={actionData} />;
}
