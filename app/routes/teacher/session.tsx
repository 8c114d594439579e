import { Form, Link } from "react-router";
import { z } from "zod";
import { dbContext, envContext, userContext } from "~/.server/context";
import { formFailure, orHttpError, rethrowAsHttp } from "~/.server/http/errors";
import { cancelSession, getManagedSession, liveRoomsFrom, refreshRecording, remindsAtOnce, updateSession } from "~/.server/live-sessions";
import { redirectWithToast } from "~/.server/toast";
import { JoinButton } from "~/components/live-sessions/join-button";
import { SessionForm } from "~/components/live-sessions/session-form";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime, formatWeekdayDateTime, toDateTimeLocal } from "~/lib/dates";
import { formatMinutes, plural } from "~/lib/format";
import { failureOf } from "~/lib/form-result";
import { serialIdSchema } from "~/lib/schemas";
import { SHORT_NOTICE_REMINDER, type SessionFormValues } from "~/lib/live-sessions";
import type { Route } from "./+types/session";

/** One live session for its teacher: edit, cancel, who registered, who attended, the recording. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const id = serialIdSchema.catch(0).parse(params.id);
  const detail = await orHttpError(getManagedSession(db, user, id));
  const { session, course } = detail;
  const values: SessionFormValues = {
    courseId: String(course.id),
    title: session.title,
    description: session.description,
    startsAt: toDateTimeLocal(session.startsAt),
    durationMinutes: String(session.durationMinutes),
    room: session.provider,
    joinUrl: session.joinUrl ?? "",
    recordingUrl: session.recordingUrl ?? "",
  };
  const person = (row: { firstName: string; lastName: string; email: string }) => ({
    name: `${row.firstName} ${row.lastName}`.trim() || row.email,
    email: row.email,
  });
  return {
    session: {
      id: session.id,
      title: session.title,
      description: session.description,
      status: session.status,
      when: formatWeekdayDateTime(session.startsAt),
      duration: formatMinutes(session.durationMinutes),
      recordingUrl: session.recordingUrl,
      bigBlueButton: session.provider === "bigbluebutton",
      ended: detail.endsAt <= new Date(),
    },
    course: { id: course.id, title: course.title },
    joinOpen: detail.joinOpen,
    changeable: detail.changeable,
    values,
    courses: [{ id: course.id, title: course.title }],
    bigBlueButton: Boolean(liveRoomsFrom(context.get(envContext)).bigBlueButton),
    registered: detail.registered.map((row) => person(row)),
    attended: detail.attended.map((row) => ({ ...person(row), firstJoined: formatDateTime(row.firstJoinedAt), joins: row.joins })),
  };
}

const intentSchema = z.enum(["update", "cancel", "recording"]);

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const rooms = liveRoomsFrom(context.get(envContext));
  const id = serialIdSchema.catch(0).parse(params.id);
  const values = Object.fromEntries(await request.formData()) as Record<string, string>;
  const intent = intentSchema.catch("update").parse(values.intent);
  const here = `/teacher/sessions/${id}`;
  try {
    if (intent === "cancel") {
      if (values.confirm !== "oui") {
        return redirectWithToast(here, { type: "error", title: "Cochez la case pour confirmer l'annulation." }, { status: 303 });
      }
      await cancelSession(db, user, id);
      return redirectWithToast(
        here,
        { type: "success", title: "Session annulée", description: "Les apprenants du cours sont prévenus." },
        { status: 303 },
      );
    }
    if (intent === "recording") {
      const url = await refreshRecording(db, user, id, rooms);
      return redirectWithToast(
        here,
        url
          ? { type: "success", title: "Enregistrement trouvé" }
          : { type: "error", title: "Pas encore d'enregistrement", description: "BigBlueButton le publie quelques minutes après la fin." },
        { status: 303 },
      );
    }
    const now = new Date();
    const updated = await updateSession(db, user, id, values, rooms, now);
    return redirectWithToast(
      here,
      { type: "success", title: "Session modifiée", description: remindsAtOnce(updated, now) ? SHORT_NOTICE_REMINDER : undefined },
      { status: 303 },
    );
  } catch (error) {
    if (intent !== "update") rethrowAsHttp(error);
    return formFailure(error, { intent, values });
  }
}

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: `${loaderData?.session.title ?? "Session"} · Sessions en direct` }];

export default function SessionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { session, course, joinOpen, changeable, values, courses, bigBlueButton, registered, attended } = loaderData;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/teacher/sessions" className="font-medium text-brand-700 hover:underline">
            Sessions en direct
          </Link>
        </p>
        <h1 className="mt-2 flex flex-wrap items-center gap-2 text-2xl font-bold text-slate-900 sm:text-3xl">
          {session.title}{" "}
          {session.status === "cancelled" ? <Badge tone="red">Annulée</Badge> : session.ended ? <Badge>Terminée</Badge> : null}
        </h1>
        <p className="mt-2 text-slate-700">
          {course.title} · {session.when} · {session.duration}
        </p>
        {session.status === "scheduled" && !session.ended ? (
          <div className="mt-3">
            <JoinButton sessionId={session.id} title={session.title} open={joinOpen} label="Démarrer" size="md" />
          </div>
        ) : null}
      </div>

      <div className="grid gap-6 md:grid-cols-2">
        <Card aria-labelledby="presents">
          <CardHeader>
            <CardTitle id="presents">Présents ({attended.length})</CardTitle>
          </CardHeader>
          <CardContent>
            {attended.length === 0 ? (
              <p className="text-sm text-slate-700">Personne n'a encore rejoint la salle par la plateforme.</p>
            ) : (
              <ul className="space-y-2 text-sm">
                {attended.map((row) => (
                  <li key={row.email}>
                    <span className="font-medium text-slate-900">{row.name}</span>
                    <span className="block text-slate-600">
                      arrivé(e) le {row.firstJoined}
                      {row.joins > 1 ? ` · ${plural(row.joins, "connexion", "connexions")}` : ""}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card aria-labelledby="inscrits">
          <CardHeader>
            <CardTitle id="inscrits">Inscrits ({registered.length})</CardTitle>
          </CardHeader>
          <CardContent>
            {registered.length === 0 ? (
              <p className="text-sm text-slate-700">Aucun apprenant ne s'est encore inscrit.</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {registered.map((row) => (
                  <li key={row.email}>
                    <span className="font-medium text-slate-900">{row.name}</span> <span className="text-slate-600">{row.email}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      {session.recordingUrl || (session.bigBlueButton && session.ended && session.status === "scheduled") ? (
        <Card aria-labelledby="enregistrement">
          <CardHeader>
            <CardTitle id="enregistrement">Enregistrement</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-wrap items-center gap-3">
            {session.recordingUrl ? (
              <a href={session.recordingUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 underline">
                Revoir la session<span className="sr-only"> (nouvel onglet)</span>
              </a>
            ) : null}
            {session.bigBlueButton ? (
              <Form method="post">
                <input type="hidden" name="intent" value="recording" />
                <Button type="submit" variant="outline" size="sm">
                  Chercher l'enregistrement BigBlueButton
                </Button>
              </Form>
            ) : null}
          </CardContent>
        </Card>
      ) : null}

      {changeable ? (
        <>
          <Card aria-labelledby="modifier">
            <CardHeader>
              <CardTitle id="modifier">Modifier</CardTitle>
            </CardHeader>
            <CardContent>
              <SessionForm
                intent="update"
                courses={courses}
                values={values}
                failure={failureOf<SessionFormValues>(actionData, "update")}
                bigBlueButton={bigBlueButton}
                editing
                submitLabel="Enregistrer les modifications"
              />
            </CardContent>
          </Card>
          <Card aria-labelledby="annuler">
            <CardHeader>
              <CardTitle id="annuler">Annuler la session</CardTitle>
            </CardHeader>
            <CardContent>
              <Form method="post" className="space-y-3">
                <input type="hidden" name="intent" value="cancel" />
                <label className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" name="confirm" value="oui" required className="size-4 accent-brand-700" />
                  Je confirme l'annulation : les apprenants du cours seront prévenus et aucun rappel ne partira.
                </label>
                <Button type="submit" variant="outline" className="border-red-300 text-red-800">
                  Annuler la session
                </Button>
              </Form>
            </CardContent>
          </Card>
        </>
      ) : null}
    </div>
  );
}
