import { CalendarPlus, Users } from "~/components/icons";
import { Link, href } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { listManagedSessions } from "~/.server/live-sessions";
import { JoinButton } from "~/components/live-sessions/join-button";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime, formatWeekdayDateTime } from "~/lib/dates";
import { formatMinutes, plural } from "~/lib/format";
import type { Route } from "./+types/sessions";

/** "Sessions Zoom": the teacher's live sessions (admins: all), coming and past, with attendance. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const courseId = Number(new URL(request.url).searchParams.get("cours")) || undefined;
  const { upcoming, past } = await listManagedSessions(context.get(dbContext), user, new Date(), { courseId });
  const view = (row: (typeof upcoming)[number]) => ({
    id: row.id,
    title: row.title,
    courseTitle: row.courseTitle,
    when: formatWeekdayDateTime(row.startsAt),
    whenShort: formatDateTime(row.startsAt),
    duration: formatMinutes(row.durationMinutes),
    status: row.status,
    joinOpen: row.joinOpen,
    registered: row.registered,
    attended: row.attended,
    recordingUrl: row.recordingUrl,
    bigBlueButton: row.provider === "bigbluebutton",
  });
  return { upcoming: upcoming.map(view), past: past.map(view) };
}

export const meta = () => [{ title: "Sessions en direct · Espace enseignant" }];

export default function SessionsPage({ loaderData }: Route.ComponentProps) {
  const { upcoming, past } = loaderData;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Sessions en direct</h1>
          <p className="mt-2 text-slate-700">« Démarrer » ouvre la salle 10 minutes avant le début, jusqu'à la fin de la session.</p>
        </div>
        <Link to="/teacher/schedule" className={buttonClasses({})}>
          <CalendarPlus aria-hidden="true" className="size-4" />
          Planifier une session
        </Link>
      </div>

      <Card aria-labelledby="a-venir">
        <CardHeader>
          <CardTitle id="a-venir">À venir</CardTitle>
        </CardHeader>
        <CardContent>
          {upcoming.length === 0 ? (
            <p className="text-slate-700">Aucune session à venir.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {upcoming.map((session) => (
                <li key={session.id} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-slate-900">
                      <Link to={href("/teacher/sessions/:id", { id: String(session.id) })} className="hover:underline">
                        {session.title}
                      </Link>
                    </p>
                    <p className="text-sm text-slate-700">{session.courseTitle}</p>
                    <p className="text-sm text-slate-600">
                      {session.when} · {session.duration} · {plural(session.registered, "inscrit", "inscrits")}
                      {session.bigBlueButton ? " · BigBlueButton" : ""}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <JoinButton sessionId={session.id} title={session.title} open={session.joinOpen} label="Démarrer" />
                    <Link
                      to={href("/teacher/sessions/:id", { id: String(session.id) })}
                      className={buttonClasses({ variant: "outline", size: "sm" })}
                    >
                      Gérer<span className="sr-only"> « {session.title} »</span>
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card aria-labelledby="passees">
        <CardHeader>
          <CardTitle id="passees">Passées et annulées</CardTitle>
        </CardHeader>
        <CardContent>
          {past.length === 0 ? (
            <p className="text-slate-700">Aucune session passée.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {past.map((session) => (
                <li key={session.id} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <p className="font-medium text-slate-900">
                      <Link to={href("/teacher/sessions/:id", { id: String(session.id) })} className="hover:underline">
                        {session.title}
                      </Link>{" "}
                      {session.status === "cancelled" ? <Badge tone="red">Annulée</Badge> : null}
                    </p>
                    <p className="text-sm text-slate-600">
                      {session.courseTitle} · {session.whenShort}
                    </p>
                  </div>
                  {session.status === "scheduled" ? (
                    <p className="flex items-center gap-1 text-sm text-slate-700">
                      <Users aria-hidden="true" className="size-4" />
                      {plural(session.attended, "présent", "présents")} · {plural(session.registered, "inscrit", "inscrits")}
                    </p>
                  ) : null}
                  {session.recordingUrl ? (
                    <a
                      href={session.recordingUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-sm font-medium text-brand-700 underline"
                    >
                      Enregistrement<span className="sr-only"> de « {session.title} » (nouvel onglet)</span>
                    </a>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
