import { Award, Bell, BookOpen, CalendarClock, CreditCard, MessageCircle, MessagesSquare, ShieldCheck } from "~/components/icons";
import { Form, useFetcher } from "react-router";
import { cx } from "~/components/ui/control";
import { notificationKinds, type NotificationKind } from "~/lib/notifications";

export type NotificationView = {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  read: boolean;
  /** "il y a 5 minutes" (the loader's clock). */
  when: string;
  /** "12 mars 2026 à 14:05", for the tooltip. */
  at: string;
  iso: string;
};

const icons = {
  payment: CreditCard,
  certificate: Award,
  lesson: BookOpen,
  forum: MessagesSquare,
  message: MessageCircle,
  session: CalendarClock,
  account: ShieldCheck,
} as const;

export function NotificationIcon({ kind, className }: { kind: NotificationKind; className?: string }) {
  const Icon = icons[notificationKinds[kind]?.icon] ?? Bell;
  return <Icon aria-hidden="true" className={className} />;
}

/**
 * Notifications as a list of forms: "open" marks read and follows the link, "Marquer comme lu"
 * only marks read. Plain posts to `action` (the notifications route), so it works without
 * JavaScript; with it, fetchers keep the reader where they are.
 */
export function NotificationList({ items, action, compact = false }: { items: NotificationView[]; action: string; compact?: boolean }) {
  return (
    <ul data-notification-list="" className={cx("divide-y divide-slate-200", !compact && "rounded-lg border border-slate-200 bg-white")}>
      {items.map((item) => (
        <NotificationRow key={item.id} item={item} action={action} compact={compact} />
      ))}
    </ul>
  );
}

function NotificationRow({ item, action, compact }: { item: NotificationView; action: string; compact: boolean }) {
  const fetcher = useFetcher();
  const read = item.read || fetcher.formData?.get("intent") === "read";
  return (
    <li
      data-notification-id={item.id}
      data-link={item.link ?? undefined}
      className={cx("flex items-start gap-3", compact ? "px-3 py-2.5" : "p-4", !read && "bg-brand-50/60")}
    >
      <NotificationIcon kind={item.kind} className={cx("mt-0.5 size-5 shrink-0", read ? "text-slate-500" : "text-brand-700")} />
      <Form method="post" action={action} className="min-w-0 flex-1">
        <input type="hidden" name="intent" value="open" />
        <input type="hidden" name="id" value={item.id} />
        <button type="submit" className="block w-full text-left focus-visible:outline-3 focus-visible:outline-accent-500">
          <span className={cx("block text-sm text-slate-900", !read && "font-semibold")}>
            {!read && <span className="sr-only">Non lue : </span>}
            <span data-title="">{item.title}</span>
          </span>
          {item.body && (
            <span data-body="" className={cx("block text-sm text-slate-700", compact && "line-clamp-2")}>
              {item.body}
            </span>
          )}
          <time dateTime={item.iso} title={item.at} className="mt-0.5 block text-xs text-slate-600">
            {item.when}
          </time>
        </button>
      </Form>
      {!read && (
        <fetcher.Form method="post" action={action}>
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={item.id} />
          <button
            type="submit"
            className="rounded-md p-1.5 text-xs font-medium whitespace-nowrap text-brand-700 underline-offset-2 hover:underline"
            title="Marquer comme lu"
          >
            {/* A dot in the bell and on phones; the words on wider screens. */}
            <span className={compact ? "sr-only" : "sr-only sm:not-sr-only"}>Marquer comme lu</span>
            <span aria-hidden="true" className={cx("block size-2.5 rounded-full bg-brand-600", !compact && "sm:hidden")} />
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}
