import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { listNotifications, markAllNotificationsRead, markNotificationRead } from "~/.server/notifications";
import { NotificationList, type NotificationView } from "~/components/notifications/notification-list";
import { useLiveRevalidation } from "~/components/realtime/realtime";
import { Button } from "~/components/ui/button";
import { cx } from "~/components/ui/control";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import { choice, serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/notifications";

/** /dashboard/notifications and /teacher/notifications: everything the bell says, page by page. */

const PAGE_SIZE = 20;
const filters = ["toutes", "non-lues"] as const;

/** The area the page is shown in (its shell), from the URL. */
function basePath(request: Request) {
  return new URL(request.url).pathname.startsWith("/teacher") ? "/teacher/notifications" : "/dashboard/notifications";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const url = new URL(request.url);
  const filter = choice(filters, "toutes").parse(url.searchParams.get("filtre") ?? undefined);
  const before = serialIdSchema.safeParse(url.searchParams.get("avant") ?? undefined);
  const limit = Math.min(Math.max(Number(url.searchParams.get("limite")) || PAGE_SIZE, 1), PAGE_SIZE);
  const now = new Date();
  const page = await listNotifications(context.get(dbContext), user, {
    limit,
    before: before.success ? before.data : null,
    unreadOnly: filter === "non-lues",
  });
  const items: NotificationView[] = page.items.map((item) => ({
    id: item.id,
    kind: item.kind,
    title: item.title,
    body: item.body,
    link: item.link,
    read: item.read,
    when: formatRelative(item.createdAt, now),
    at: formatDateTime(item.createdAt),
    iso: item.createdAt.toISOString(),
  }));
  return {
    base: basePath(request),
    filter,
    items,
    unread: page.unread,
    nextBefore: page.hasMore ? (page.items.at(-1)?.id ?? null) : null,
    firstPage: !before.success,
    userId: user.id,
  };
}

export const meta = () => [{ title: "Notifications" }];

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: serialIdSchema }),
  z.object({ intent: z.literal("read"), id: serialIdSchema }),
  z.object({ intent: z.literal("read-all") }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return formFailure(parsed.error, { intent: String(form.intent ?? "") });
  const input = parsed.data;
  switch (input.intent) {
    case "open": {
      // Read, then where it leads (the list itself when it leads nowhere).
      const { link } = await orHttpError(markNotificationRead(db, user, input.id));
      return redirect(link ?? basePath(request));
    }
    case "read":
      await orHttpError(markNotificationRead(db, user, input.id));
      return data({ ok: true as const, intent: input.intent });
    case "read-all":
      await markAllNotificationsRead(db, user);
      return data({ ok: true as const, intent: input.intent });
  }
}

export default function NotificationsPage({ loaderData }: Route.ComponentProps) {
  const { base, filter, items, unread, nextBefore, firstPage, userId } = loaderData;
  const navigation = useNavigation();
  useLiveRevalidation([`user:${userId}`]);
  const filterHref = (value: (typeof filters)[number]) => (value === "toutes" ? base : `${base}?filtre=${value}`);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Notifications</h1>
          <p className="mt-1 text-slate-600" aria-live="polite">
            {unread === 0 ? "Tout est lu." : plural(unread, "notification non lue", "notifications non lues")}
          </p>
        </div>
        {unread > 0 && (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <Button type="submit" variant="outline" size="sm" disabled={navigation.state === "submitting"}>
              Tout marquer comme lu
            </Button>
          </Form>
        )}
      </div>

      <nav aria-label="Filtrer les notifications" className="flex gap-2">
        {filters.map((value) => (
          <Link
            key={value}
            to={filterHref(value)}
            aria-current={filter === value ? "page" : undefined}
            className={cx(
              "rounded-full border px-3 py-1 text-sm font-medium",
              filter === value ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100",
            )}
          >
            {value === "toutes" ? "Toutes" : "Non lues"}
          </Link>
        ))}
      </nav>

      {items.length === 0 ? (
        <div className="rounded-lg border border-slate-200 bg-white p-6 text-center text-slate-700">
          {filter === "non-lues"
            ? "Aucune notification non lue."
            : firstPage
              ? "Aucune notification pour l'instant."
              : "Rien de plus ancien."}
        </div>
      ) : (
        <NotificationList items={items} action={base} />
      )}

      <div className="flex justify-between gap-3 text-sm">
        {!firstPage && (
          <Link to={filterHref(filter)} className="font-medium text-brand-700 underline underline-offset-2">
            Les plus récentes
          </Link>
        )}
        {nextBefore && (
          <Link
            to={`${base}?${new URLSearchParams({ ...(filter === "toutes" ? {} : { filtre: filter }), avant: String(nextBefore) })}`}
            className="ml-auto font-medium text-brand-700 underline underline-offset-2"
          >
            Plus anciennes
          </Link>
        )}
      </div>
    </div>
  );
}
