import { Bell } from "~/components/icons";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { toast } from "sonner";
import { useRealtimeEvent, useRealtimeResync, useWhenIdle } from "~/components/realtime/realtime";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { useHydrated } from "~/components/ui/use-hydrated";
import { NotificationList, type NotificationView } from "./notification-list";

type ListData = { items: NotificationView[]; unread: number };

/**
 * The top bar's bell: the unread count, and the latest notifications in a popover (mark one or all
 * read, open one, see them all). Without JavaScript it is a link to the notifications page. Live:
 * a new notification updates the count at once and shows a toast. On pages React does not hydrate
 * (the learner's space) the link stays, and app/enhance/shell.ts gives it the same behaviours.
 */
export function NotificationBell({ href, unread, userId }: { href: string; unread: number; userId: string }) {
  const hydrated = useHydrated();
  const list = useFetcher<ListData>();
  const readAll = useFetcher();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [count, setCount] = useState(unread);
  const toastFor = useRef<number | null>(null);

  useEffect(() => setCount(unread), [unread]);
  const { load: loadList } = list;
  const load = useCallback(() => loadList(`${href}?limite=8`), [loadList, href]);
  // Read inside the effect below without re-running it when they change.
  const openRef = useRef(open);
  openRef.current = open;
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    const data = list.data;
    if (!data || !("unread" in data)) return;
    setCount(data.unread);
    const fresh = toastFor.current === null ? undefined : data.items.find((item) => item.id === toastFor.current);
    toastFor.current = null;
    if (fresh && !openRef.current) {
      toast(fresh.title, {
        description: fresh.body,
        action: fresh.link ? { label: "Voir", onClick: () => navigateRef.current(fresh.link!) } : undefined,
      });
    }
  }, [list.data]);

  // After "Tout marquer comme lu", the list again.
  useEffect(() => {
    if (readAll.state === "idle" && readAll.data) load();
  }, [readAll.state, readAll.data, load]);

  // Not while a form is sent or a page loads: the password change, for one, notifies before its
  // answer brings the new session cookie, and a list asked with the old one would be sent to the
  // sign-in page, taking the page along.
  const loadWhenIdle = useWhenIdle(load);

  useRealtimeEvent(`user:${userId}`, (event) => {
    if (event.type === "notification" && typeof event.id === "number") {
      toastFor.current = event.id;
      loadWhenIdle();
    } else if (event.type === "notifications_read") {
      loadWhenIdle();
    }
  });
  useRealtimeResync(loadWhenIdle);

  // The name is the visible content (axe: label-content-name-mismatch): "Notifications 3 non lues".
  const content = (
    <>
      <Bell aria-hidden="true" className="size-5" />
      <span className="sr-only">Notifications</span>
      {/* Always in the page, hidden at zero: a script without React shows it (app/enhance/shell.ts). */}
      <span
        data-testid="notifications-non-lues"
        data-unread-notifications=""
        hidden={count === 0}
        className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-bold text-white"
      >
        <span data-count="">{count > 99 ? "99+" : count}</span>
        <span className="sr-only" data-count-words="">
          {count === 1 ? " non lue" : " non lues"}
        </span>
      </span>
    </>
  );
  const iconClasses = "relative flex rounded-md p-2 text-slate-700 hover:bg-slate-100";

  if (!hydrated) {
    return (
      <Link to={href} className={iconClasses} data-bell="">
        {content}
      </Link>
    );
  }

  const items = list.data?.items ?? [];
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) load();
      }}
    >
      <PopoverTrigger className={iconClasses}>{content}</PopoverTrigger>
      <PopoverContent className="flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
          <p className="font-semibold text-slate-900">Notifications</p>
          {count > 0 && (
            <readAll.Form method="post" action={href}>
              <input type="hidden" name="intent" value="read-all" />
              <button type="submit" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
                Tout marquer comme lu
              </button>
            </readAll.Form>
          )}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto">
          {!list.data && list.state === "loading" ? (
            <p className="p-4 text-sm text-slate-600">Chargement…</p>
          ) : items.length === 0 ? (
            <p className="p-4 text-sm text-slate-600">Aucune notification</p>
          ) : (
            <NotificationList items={items} action={href} compact />
          )}
        </div>
        <Link
          to={href}
          onClick={() => setOpen(false)}
          className="border-t border-slate-200 px-3 py-2 text-center text-sm font-medium text-brand-700 hover:bg-slate-50"
        >
          Voir toutes les notifications
        </Link>
      </PopoverContent>
    </Popover>
  );
}
