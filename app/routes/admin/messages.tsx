import { Link } from "react-router";
import { listInbox, parseInboxFilters } from "~/.server/contact";
import { dbContext, userContext } from "~/.server/context";
import { orHttpError } from "~/.server/http/errors";
import { Badge } from "~/components/ui/badge";
import { FilterBar } from "~/components/ui/filter-bar";
import {
  contactStatusLabels,
  contactStatusTones,
  INBOX_FILTERS,
  inboxFilterLabels,
  inboxFilterWords,
  type ContactStatus,
} from "~/lib/contact-inbox";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { plural } from "~/lib/format";
import type { Route } from "./+types/messages";
import { Pager } from "~/components/ui/pager";

/** /admin/messages: the contact form's messages, newest first, filtered by state or searched. */

const INBOX_PATH = "/admin/messages";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = parseInboxFilters(url.searchParams);
  const now = new Date();
  const inbox = await orHttpError(listInbox(context.get(dbContext), context.get(userContext), filters));
  const back = url.search;
  return {
    // The page shown: the last one when the one asked for is past the end.
    filters: { ...filters, page: inbox.page },
    counts: inbox.counts,
    total: inbox.total,
    pages: inbox.pageCount,
    back,
    messages: inbox.messages.map(({ createdAt, ...message }) => ({
      ...message,
      when: formatRelative(createdAt, now),
      at: formatDateTime(createdAt),
      iso: createdAt.toISOString(),
    })),
  };
}

export const meta = () => [{ title: "Messages de contact" }];

function pageHref(search: URLSearchParams, page: number) {
  const params = new URLSearchParams(search);
  if (page > 1) params.set("page", String(page));
  else params.delete("page");
  const query = params.toString();
  return query ? `${INBOX_PATH}?${query}` : INBOX_PATH;
}

export default function InboxPage({ loaderData }: Route.ComponentProps) {
  const { filters, counts, total, pages, messages, back } = loaderData;
  const filtered = filters.status !== "ouverts" || filters.q !== "";
  const search = new URLSearchParams(back);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Messages de contact</h1>
        <p className="mt-1 text-slate-600">
          {counts.new === 0
            ? "Aucun message n'attend de réponse."
            : `${plural(counts.new, "message attend", "messages attendent")} une réponse (promise sous 48 heures).`}
        </p>
      </div>
      <FilterBar
        label="Filtrer les messages"
        id="inbox"
        search={{ value: filters.q, placeholder: "Nom, e-mail ou sujet" }}
        choices={[
          {
            name: "statut",
            label: "Statut",
            value: inboxFilterWords[filters.status],
            options: INBOX_FILTERS.map((value) => ({
              value: inboxFilterWords[value],
              label: value in counts ? `${inboxFilterLabels[value]} (${counts[value as ContactStatus]})` : inboxFilterLabels[value],
            })),
          },
        ]}
        clearHref={filtered ? INBOX_PATH : null}
      />
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
          {filtered ? "Aucun message ne correspond à ces filtres." : "Aucun message pour le moment."}
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">{plural(total, "message", "messages")}</p>
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
            {messages.map((message) => (
              <li key={message.id} className={message.status === "new" ? "bg-amber-50/40" : undefined}>
                <Link
                  to={`${INBOX_PATH}/${message.id}${back ? `?retour=${encodeURIComponent(back)}` : ""}`}
                  className="block px-4 py-3 hover:bg-slate-50 focus-visible:bg-slate-50"
                >
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className={message.status === "new" ? "font-bold text-slate-900" : "font-semibold text-slate-900"}>
                      {message.subject}
                    </span>
                    <Badge tone={contactStatusTones[message.status]}>{contactStatusLabels[message.status]}</Badge>
                    <time dateTime={message.iso} title={message.at} className="ml-auto text-sm text-slate-600">
                      {message.when}
                    </time>
                  </span>
                  <span className="mt-0.5 block text-sm break-words text-slate-700">
                    {message.name} · {message.email}
                  </span>
                  <span className="mt-1 line-clamp-2 block text-sm break-words text-slate-600">{message.excerpt}</span>
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={filters.page} pageCount={pages} hrefFor={(page) => pageHref(search, page)} label="Pages" />
        </>
      )}
    </div>
  );
}
