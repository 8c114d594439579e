import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { useRealtimeEvent, useRealtimeResync, useWhenIdle } from "~/components/realtime/realtime";

type UnreadData = {
  unread: number;
  alert: { conversationId: number; messageId: number; title: string; excerpt: string; href: string } | null;
};

/**
 * The unread messages of the signed-in person, kept live: the count the server rendered, then, on
 * their live topic, the count again when a message arrives or a conversation is read; a new
 * message raises a toast, except on the page of its conversation.
 */
export function useUnreadMessages({ userId, initial, messagesHref }: { userId: string; initial: number; messagesHref: string }) {
  const [count, setCount] = useState(initial);
  useEffect(() => setCount(initial), [initial]);
  const fetcher = useFetcher<UnreadData>();
  const { load } = fetcher;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const here = useRef({ pathname, navigate });
  here.current = { pathname, navigate };
  const shown = useRef(new Set<number>());
  const pending = useRef<number | null>(null);

  const refresh = useCallback(() => {
    const conversation = pending.current;
    pending.current = null;
    load(`${messagesHref}/non-lus${conversation ? `?conversation=${conversation}` : ""}`);
  }, [load, messagesHref]);
  const refreshWhenIdle = useWhenIdle(refresh);

  useEffect(() => {
    const data = fetcher.data;
    if (!data || typeof data.unread !== "number") return;
    setCount(data.unread);
    const alert = data.alert;
    if (!alert || shown.current.has(alert.messageId)) return;
    shown.current.add(alert.messageId);
    if (here.current.pathname.replace(/\/$/, "").endsWith(`/messages/${alert.conversationId}`)) return;
    toast(alert.title, {
      description: alert.excerpt,
      action: { label: "Ouvrir", onClick: () => void here.current.navigate(alert.href) },
    });
  }, [fetcher.data]);

  useRealtimeEvent(`user:${userId}`, (event) => {
    if (event.type === "conversation" && typeof event.id === "number") {
      pending.current = event.id;
      refreshWhenIdle();
    } else if (event.type === "conversation_read") {
      refreshWhenIdle();
    }
  });
  useRealtimeResync(refreshWhenIdle);
  return count;
}
