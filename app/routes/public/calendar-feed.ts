import { dbContext, envContext } from "~/.server/context";
import { calendarFeedIcs } from "~/.server/live-sessions";
import type { Route } from "./+types/calendar-feed";

/**
 * A person's private calendar feed (/calendrier/<secret>.ics): what a phone's calendar subscribes
 * to, without a session cookie. An unknown or revoked address is a plain 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const match = /^([\w-]+)\.ics$/.exec(params.feed ?? "");
  const ics = match ? await calendarFeedIcs(context.get(dbContext), match[1]!, context.get(envContext).PUBLIC_URL) : null;
  if (!ics) {
    return new Response("Agenda introuvable : cette adresse n'existe pas ou a été remplacée.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Cache-Control": "private, max-age=300",
      "X-Robots-Tag": "noindex",
    },
  });
}
