import { ArrowLeft, MessageSquarePlus, Search, Send, Users } from "~/components/icons";
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Form, Link, useFetcher, useNavigation } from "react-router";
import { PostText } from "~/components/forum/post-text";
import { useLiveRevalidation } from "~/components/realtime/realtime";
import { Avatar } from "~/components/ui/avatar";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import { RoleBadge } from "~/components/ui/role-badge";
import { useHydrated } from "~/components/ui/use-hydrated";
import { plural } from "~/lib/format";
import { failureOf } from "~/lib/form-result";
import { LIMITS } from "~/lib/limits";
import { conversationHref, MESSAGE_MAX_LENGTH, messagesPath, messageUserHref, type MessagingArea } from "~/lib/messaging";
import type { Role } from "~/lib/roles";

/**
 * The messaging screen (document 2, "Messagerie"): the conversation list (search, unread badge,
 * online dot, role badge Enseignant / Groupe / Étudiant) and the pane (own messages on the right,
 * Enter sends, Shift+Enter adds a line, "Sélectionnez une conversation" when none is open). On a
 * phone the list and the pane take the screen in turn.
 */

export type PersonView = { id: string; name: string; role: Role };

export type ConversationItemView = {
  id: number;
  kind: "direct" | "course";
  with: PersonView | null;
  title: string;
  lastMessage: { body: string; mine: boolean; when: string; iso: string } | null;
  unread: number;
  online: boolean;
};

export type MessageItemView = { id: number; body: string; sender: PersonView | null; mine: boolean; when: string; at: string; iso: string };

export type ConversationPaneView = {
  id: number;
  kind: "direct" | "course";
  title: string;
  with: PersonView | null;
  online: boolean;
  memberCount: number | null;
  messages: MessageItemView[];
  olderBefore: number | null;
  seenUpTo: number | null;
};

export type MessagingData = {
  area: MessagingArea;
  userId: string;
  q: string;
  clientKey: string;
  conversations: ConversationItemView[];
  conversation: ConversationPaneView | null;
  newConversation: { person: PersonView | null; contacts: PersonView[] | null; q: string; hint: string } | null;
};

const nameParts = (name: string) => {
  const [first, ...rest] = name.split(" ");
  return { firstName: first, lastName: rest.join(" ") };
};

export function MessagingScreen({ data, actionData }: { data: MessagingData; actionData: unknown }) {
  const { area, conversations, conversation, newConversation } = data;
  const base = messagesPath(area);
  const paneOpen = Boolean(conversation || newConversation);
  // Live: the list (new messages, read elsewhere), the open conversation, and the online dots.
  const presence = useMemo(
    () => [...new Set(conversations.flatMap((item) => (item.with ? [`presence:${item.with.id}`] : [])))].slice(0, 100),
    [conversations],
  );
  useLiveRevalidation(
    [`user:${data.userId}`, conversation ? `conversation:${conversation.id}` : null, ...presence],
    // Not the bell's news, nor the echo of this very page reading its conversation.
    (event) =>
      event.type !== "notification" &&
      event.type !== "notifications_read" &&
      !(event.type === "conversation_read" && event.id === conversation?.id),
  );

  return (
    <div className="-m-4 flex h-[calc(100dvh-4rem)] overflow-hidden bg-white sm:m-0 sm:h-[calc(100dvh-7rem)] sm:rounded-lg sm:border sm:border-slate-200 sm:shadow-sm lg:h-[calc(100dvh-8rem)]">
      <aside
        aria-label="Conversations"
        className={cx("w-full flex-col border-slate-200 md:flex md:w-80 md:shrink-0 md:border-r", paneOpen ? "hidden" : "flex")}
      >
        <div className="space-y-3 border-b border-slate-200 p-3">
          <div className="flex items-center justify-between gap-2">
            <h1 className="text-xl font-bold text-slate-900">Messagerie</h1>
            <Link
              to={`${base}/nouveau`}
              className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
            >
              <MessageSquarePlus aria-hidden="true" className="size-4" />
              Nouveau
            </Link>
          </div>
          <Form
            method="get"
            action={conversation ? conversationHref(conversation.id, area) : base}
            role="search"
            aria-label="Conversations"
          >
            <label htmlFor="recherche-conversations" className="sr-only">
              Rechercher une conversation
            </label>
            <div className="relative">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
              <input
                id="recherche-conversations"
                name="q"
                type="search"
                defaultValue={data.q}
                maxLength={LIMITS.search}
                placeholder="Rechercher…"
                className="w-full rounded-md border border-slate-300 py-2 pr-3 pl-9 text-sm"
              />
            </div>
          </Form>
        </div>
        <ConversationList items={conversations} area={area} selectedId={conversation?.id ?? null} q={data.q} />
      </aside>

      <section aria-label="Conversation" className={cx("min-w-0 flex-1 flex-col md:flex", paneOpen ? "flex" : "hidden")}>
        {conversation ? (
          <ConversationPane
            key={conversation.id}
            conversation={conversation}
            area={area}
            clientKey={data.clientKey}
            actionData={actionData}
          />
        ) : newConversation ? (
          <NewConversation view={newConversation} area={area} clientKey={data.clientKey} actionData={actionData} />
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center text-slate-600">
            <MessageSquarePlus aria-hidden="true" className="size-10 text-slate-400" />
            <p className="font-medium">Sélectionnez une conversation</p>
          </div>
        )}
      </section>
    </div>
  );
}

function ConversationList({
  items,
  area,
  selectedId,
  q,
}: {
  items: ConversationItemView[];
  area: MessagingArea;
  selectedId: number | null;
  q: string;
}) {
  if (!items.length) {
    return (
      <p className="p-4 text-sm text-slate-600">
        {q
          ? `Aucune conversation ne correspond à « ${q} ».`
          : "Aucune conversation pour l'instant. Écrivez à un enseignant avec « Nouveau »."}
      </p>
    );
  }
  return (
    <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto" data-testid="conversations">
      {items.map((item) => {
        const selected = item.id === selectedId;
        return (
          <li key={item.id}>
            <Link
              to={conversationHref(item.id, area)}
              aria-current={selected ? "page" : undefined}
              className={cx("flex gap-3 px-3 py-3 hover:bg-slate-50", selected && "bg-brand-50 hover:bg-brand-50")}
            >
              <span className="relative shrink-0">
                {item.kind === "course" ? (
                  <span className="inline-flex size-10 items-center justify-center rounded-full bg-amber-100 text-amber-900">
                    <Users aria-hidden="true" className="size-5" />
                  </span>
                ) : (
                  <Avatar {...nameParts(item.title)} />
                )}
                {item.online && (
                  <span data-testid="en-ligne" className="absolute right-0 bottom-0 size-3 rounded-full bg-green-600 ring-2 ring-white">
                    <span className="sr-only">En ligne</span>
                  </span>
                )}
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline gap-2">
                  <span className={cx("min-w-0 text-sm break-words text-slate-900", item.unread ? "font-bold" : "font-semibold")}>
                    {item.title}
                  </span>
                  {item.lastMessage && (
                    <time dateTime={item.lastMessage.iso} className="ml-auto shrink-0 text-xs text-slate-600">
                      {item.lastMessage.when}
                    </time>
                  )}
                </span>
                <span className="mt-0.5 flex items-center gap-2">
                  {item.kind === "course" ? <Badge tone="amber">Groupe</Badge> : item.with && <RoleBadge role={item.with.role} />}
                  <span className="truncate text-sm text-slate-600">
                    {item.lastMessage ? `${item.lastMessage.mine ? "Vous : " : ""}${item.lastMessage.body}` : "Aucun message"}
                  </span>
                  {item.unread > 0 && (
                    <span className="ml-auto min-w-5 shrink-0 rounded-full bg-brand-700 px-1.5 text-center text-xs leading-5 font-bold text-white">
                      <span aria-hidden="true" data-testid="non-lus">
                        {item.unread > 99 ? "99+" : item.unread}
                      </span>
                      <span className="sr-only">{plural(item.unread, "message non lu", "messages non lus")}</span>
                    </span>
                  )}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function PaneHeader({ title, area, children }: { title: string; area: MessagingArea; children?: React.ReactNode }) {
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 px-3 py-2.5">
      <Link
        to={messagesPath(area)}
        className="rounded-md p-1.5 text-slate-700 hover:bg-slate-100 md:hidden"
        aria-label="Retour aux conversations"
      >
        <ArrowLeft aria-hidden="true" className="size-5" />
      </Link>
      <div className="min-w-0 flex-1">
        <h2 className="truncate font-semibold text-slate-900">{title}</h2>
        {children}
      </div>
    </header>
  );
}

/** The same key is never used twice by one form: a new one after each message sent. */
function newClientKey() {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function ConversationPane({
  conversation,
  area,
  clientKey,
  actionData,
}: {
  conversation: ConversationPaneView;
  area: MessagingArea;
  clientKey: string;
  actionData: unknown;
}) {
  const hydrated = useHydrated();
  const older = useFetcher<MessagingData>();
  const [earlier, setEarlier] = useState<MessageItemView[]>([]);
  const [olderBefore, setOlderBefore] = useState(conversation.olderBefore);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLAnchorElement>(null);
  const here = conversationHref(conversation.id, area);

  // Older messages fetched on scroll go before those the loader gives (which revalidation refreshes).
  useEffect(() => {
    const page = older.data?.conversation;
    if (!page || page.id !== conversation.id) return;
    setEarlier((current) => {
      const known = new Set(current.map((message) => message.id));
      return [...page.messages.filter((message) => !known.has(message.id)), ...current];
    });
    setOlderBefore(page.olderBefore);
  }, [older.data, conversation.id]);
  useEffect(() => {
    if (!earlier.length) setOlderBefore(conversation.olderBefore);
  }, [conversation.olderBefore, earlier.length]);

  useEffect(() => {
    const target = sentinel.current;
    if (!hydrated || !target || !olderBefore || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && older.state === "idle") older.load(`${here}?avant=${olderBefore}`);
      },
      { root: scroller.current, rootMargin: "200px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hydrated, olderBefore, here, older]);

  const latestIds = new Set(conversation.messages.map((message) => message.id));
  const shown = [...earlier.filter((message) => !latestIds.has(message.id)), ...conversation.messages];
  const lastMine = [...shown].reverse().find((message) => message.mine);
  // "Vu" under one's own last message, when it is the last of the conversation.
  const seen =
    conversation.kind === "direct" &&
    lastMine &&
    shown.at(-1)?.id === lastMine.id &&
    conversation.seenUpTo !== null &&
    conversation.seenUpTo >= lastMine.id;

  // A new message at the bottom: in view (the list grows from the bottom: flex-col-reverse).
  const lastId = shown.at(-1)?.id;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && element.scrollTop > -160) element.scrollTop = 0;
  }, [lastId]);

  return (
    <>
      <PaneHeader title={conversation.title} area={area}>
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
          {conversation.kind === "course" ? (
            <>
              <Badge tone="amber">Groupe</Badge>
              {conversation.memberCount !== null && plural(conversation.memberCount, "membre", "membres")}
            </>
          ) : (
            <>
              {conversation.with && <RoleBadge role={conversation.with.role} />}
              <span className="inline-flex items-center gap-1" data-testid="statut-presence">
                <span aria-hidden="true" className={cx("size-2 rounded-full", conversation.online ? "bg-green-600" : "bg-slate-400")} />
                {conversation.online ? "En ligne" : "Hors ligne"}
              </span>
            </>
          )}
        </p>
      </PaneHeader>

      {/* Focusable, so that a keyboard can scroll the thread even when no link sits inside it. */}
      <div
        ref={scroller}
        role="region"
        aria-label="Fil de la conversation"
        tabIndex={0}
        className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto bg-slate-50 px-3 py-4 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
      >
        <div>
          {olderBefore ? (
            <p className="mb-3 text-center">
              <Link
                ref={sentinel}
                to={`${here}?avant=${olderBefore}`}
                className="text-sm font-medium text-brand-700 underline underline-offset-2"
                onClick={(event) => {
                  if (!hydrated) return;
                  event.preventDefault();
                  older.load(`${here}?avant=${olderBefore}`);
                }}
              >
                {older.state === "loading" ? "Chargement…" : "Messages précédents"}
              </Link>
            </p>
          ) : shown.length ? (
            <p className="mb-3 text-center text-xs text-slate-500">Début de la conversation</p>
          ) : null}
          {shown.length === 0 ? (
            <p className="py-8 text-center text-sm text-slate-600">Aucun message. Écrivez le premier ci-dessous.</p>
          ) : (
            <ol className="space-y-2" aria-label="Messages" data-testid="messages">
              {shown.map((message) => (
                <li key={message.id} id={`message-${message.id}`} className={cx("flex", message.mine ? "justify-end" : "justify-start")}>
                  <div
                    className={cx(
                      "max-w-[85%] rounded-2xl px-3 py-2 text-sm shadow-sm sm:max-w-[70%]",
                      message.mine
                        ? "rounded-br-sm bg-brand-700 text-white"
                        : "rounded-bl-sm bg-white text-slate-900 ring-1 ring-slate-200",
                    )}
                  >
                    {!message.mine && conversation.kind === "course" && (
                      <p className="mb-0.5 text-xs font-semibold text-brand-800">{message.sender?.name ?? "Compte supprimé"}</p>
                    )}
                    <span className="sr-only">{message.mine ? "Vous : " : `${message.sender?.name ?? "Compte supprimé"} : `}</span>
                    <PostText text={message.body} className={cx("space-y-1", message.mine && "text-white [&_a]:text-white")} />
                    <time
                      dateTime={message.iso}
                      title={message.at}
                      className={cx("mt-1 block text-right text-xs", message.mine ? "text-brand-50" : "text-slate-600")}
                    >
                      {message.when}
                    </time>
                  </div>
                </li>
              ))}
            </ol>
          )}
          {seen && <p className="mt-1 text-right text-xs text-slate-600">Vu</p>}
        </div>
      </div>

      <Composer action={here} intent="send" clientKey={clientKey} actionData={actionData} />
    </>
  );
}

function Composer({
  action,
  intent,
  clientKey,
  actionData,
  hidden,
}: {
  action: string;
  intent: "send" | "start";
  clientKey: string;
  actionData: unknown;
  hidden?: Record<string, string>;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ ok: boolean; message?: string; fieldErrors?: Record<string, string> }>();
  const navigation = useNavigation();
  const text = useRef<HTMLTextAreaElement>(null);
  const [key, setKey] = useState(clientKey);
  // Enhanced sends stay on the page (the list and the pane revalidate); a new conversation navigates.
  const enhanced = hydrated && intent === "send";
  const failure = failureOf<Record<string, string>>(enhanced ? fetcher.data : actionData, intent);
  const busy = fetcher.state !== "idle" || (navigation.state === "submitting" && navigation.formData?.get("intent") === intent);

  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) {
      if (text.current) text.current.value = "";
      setKey(newClientKey());
      text.current?.focus();
    }
  }, [fetcher.state, fetcher.data]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!event.currentTarget.value.trim() || busy) return;
    event.currentTarget.form?.requestSubmit();
  };

  const FormComponent = enhanced ? fetcher.Form : Form;
  return (
    <FormComponent
      method="post"
      action={action}
      className="border-t border-slate-200 bg-white p-3"
      onSubmit={(event) => {
        const body = new FormData(event.currentTarget).get("body");
        if (typeof body === "string" && !body.trim()) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="clientKey" value={key} />
      {enhanced && <input type="hidden" name="enhanced" value="1" />}
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {failure?.message && (
        <p role="alert" id="message-erreur" className="mb-2 text-sm font-medium text-red-800">
          {failure.fieldErrors?.body ?? failure.message}
        </p>
      )}
      <div className="flex items-end gap-2">
        <label htmlFor="message-texte" className="sr-only">
          Votre message
        </label>
        <textarea
          ref={text}
          id="message-texte"
          name="body"
          rows={2}
          required
          maxLength={MESSAGE_MAX_LENGTH}
          defaultValue={failure?.values?.body ?? ""}
          placeholder="Écrivez votre message…"
          aria-describedby={failure?.message ? "message-erreur message-aide" : "message-aide"}
          aria-invalid={failure?.message ? true : undefined}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-11 flex-1 resize-y rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-600/30 focus:outline-none"
        />
        <Button type="submit" disabled={busy} aria-label="Envoyer" className="h-11 shrink-0">
          <Send aria-hidden="true" className="size-4" />
          <span className="hidden sm:inline">Envoyer</span>
        </Button>
      </div>
      <p id="message-aide" className="mt-1 hidden text-xs text-slate-600 sm:block">
        Entrée pour envoyer, Maj + Entrée pour aller à la ligne.
      </p>
    </FormComponent>
  );
}

function NewConversation({
  view,
  area,
  clientKey,
  actionData,
}: {
  view: NonNullable<MessagingData["newConversation"]>;
  area: MessagingArea;
  clientKey: string;
  actionData: unknown;
}) {
  const base = messagesPath(area);
  if (view.person) {
    return (
      <>
        <PaneHeader title={view.person.name} area={area}>
          <p className="flex items-center gap-2 text-xs text-slate-600">
            <RoleBadge role={view.person.role} />
            Nouvelle conversation
          </p>
        </PaneHeader>
        <div className="flex flex-1 items-center justify-center bg-slate-50 p-6 text-center text-sm text-slate-600">
          Votre premier message ouvrira la conversation avec {view.person.name}.
        </div>
        <Composer
          action={`${base}/nouveau`}
          intent="start"
          clientKey={clientKey}
          actionData={actionData}
          hidden={{ avec: view.person.id }}
        />
      </>
    );
  }
  return (
    <>
      <PaneHeader title="Nouvelle conversation" area={area} />
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3">
        <Form method="get" action={`${base}/nouveau`} role="search" aria-label="Personnes" className="flex gap-2">
          <label htmlFor="recherche-personne" className="sr-only">
            Rechercher une personne
          </label>
          <input
            id="recherche-personne"
            name="personne"
            type="search"
            defaultValue={view.q}
            maxLength={LIMITS.search}
            placeholder="Nom ou e-mail…"
            className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
          <Button type="submit" variant="outline">
            Rechercher
          </Button>
        </Form>
        <p className="text-sm text-slate-600">{view.hint}</p>
        {view.contacts?.length ? (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="contacts">
            {view.contacts.map((person) => (
              <li key={person.id}>
                <Link to={messageUserHref(person.id, area)} className="flex items-center gap-3 px-3 py-2.5 hover:bg-slate-50">
                  <Avatar {...nameParts(person.name)} size="sm" />
                  <span className="min-w-0 flex-1 text-sm font-medium [overflow-wrap:anywhere] text-slate-900">{person.name}</span>
                  <RoleBadge role={person.role} />
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">
            {view.q ? `Personne ne correspond à « ${view.q} ».` : "Personne à qui écrire pour l'instant."}
          </p>
        )}
      </div>
    </>
  );
}
