import { CalendarDays } from "~/components/icons";
import { Form, Link } from "react-router";
import { z } from "zod";
import { safeRedirect } from "~/.server/auth/redirect";
import { dbContext, envContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { rethrowAsHttp } from "~/.server/http/errors";
import { getCalendarFeedToken, listLearnerSessions, revokeCalendarFeed, setSessionRegistration } from "~/.server/live-sessions";
import { redirectWithToast } from "~/.server/toast";
import { LearnerSessions } from "~/components/live-sessions/learner-sessions";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { learnerSessionView } from "~/lib/live-sessions";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/sessions";

/**
 * "Mes sessions en direct": the coming sessions of the learner's courses (Rejoindre, S'inscrire,
 * .ics), and their private calendar address (subscribe from a phone; revocable). Also where the
 * registration forms of the dashboard and the course home post.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const [sessions, token] = await Promise.all([listLearnerSessions(db, user), getCalendarFeedToken(db, user)]);
  const feedUrl = `${context.get(envContext).PUBLIC_URL}/calendrier/${token}.ics`;
  return { sessions: sessions.map(learnerSessionView), feedUrl };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["register", "unregister"]), sessionId: serialIdSchema, retour: z.string().optional() }),
  z.object({ intent: z.literal("revoke-feed"), retour: z.string().optional() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const db = context.get(dbContext);
  const form = Object.fromEntries(await request.formData());
  const back = safeRedirect(typeof form.retour === "string" ? form.retour : null, "/dashboard/sessions");
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) return redirectWithToast(back, { type: "error", title: "Demande invalide." }, { status: 303 });
  if (parsed.data.intent === "revoke-feed") {
    await revokeCalendarFeed(db, user);
    return redirectWithToast(
      back,
      {
        type: "success",
        title: "Nouvelle adresse d'agenda",
        description: "L'ancienne ne fonctionne plus : abonnez votre agenda à la nouvelle.",
      },
      { status: 303 },
    );
  }
  const register = parsed.data.intent === "register";
  try {
    const { session } = await setSessionRegistration(db, user, parsed.data.sessionId, register);
    return redirectWithToast(
      back,
      register
        ? {
            type: "success",
            title: "Inscription enregistrée",
            description: `Vous recevrez un rappel 24 h et 1 h avant « ${session.title} ».`,
          }
        : { type: "success", title: "Inscription retirée", description: `Plus de rappel pour « ${session.title} ».` },
      { status: 303 },
    );
  } catch (error) {
    if (isAppError(error, "conflict") || isAppError(error, "forbidden")) {
      return redirectWithToast(back, { type: "error", title: error.message }, { status: 303 });
    }
    rethrowAsHttp(error);
  }
}

export const meta = () => [{ title: "Mes sessions en direct" }];

export default function LearnerSessionsPage({ loaderData }: Route.ComponentProps) {
  const { sessions, feedUrl } = loaderData;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Mes sessions en direct</h1>
        <p className="mt-2 text-slate-700">
          « Rejoindre » s'ouvre 10 minutes avant le début. Inscrivez-vous pour recevoir un rappel par e-mail 24 h et 1 h avant.
        </p>
      </div>
      <Card aria-labelledby="prochaines">
        <CardHeader>
          <CardTitle id="prochaines">Prochaines sessions</CardTitle>
        </CardHeader>
        <CardContent>
          {sessions.length === 0 ? (
            <div className="space-y-3">
              <p className="text-slate-700">Aucune session en direct n'est prévue dans vos formations.</p>
              <Link to="/dashboard/formations" className={buttonClasses({ variant: "outline", size: "sm" })}>
                Mes Formations
              </Link>
            </div>
          ) : (
            <LearnerSessions sessions={sessions} back="/dashboard/sessions" />
          )}
        </CardContent>
      </Card>
      <Card aria-labelledby="agenda">
        <CardHeader>
          <CardTitle id="agenda" className="flex items-center gap-2">
            <CalendarDays aria-hidden="true" className="size-5" />
            Dans l'agenda de mon téléphone
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-3 text-sm text-slate-700">
          <p>
            Abonnez votre agenda (Google Agenda : « Ajouter un agenda » puis « À partir de l'URL » ; iPhone : Réglages, Calendrier, Comptes,
            « Ajouter un calendrier avec abonnement ») à cette adresse : les sessions de vos formations y apparaissent et s'y mettent à
            jour.
          </p>
          <label htmlFor="feed-url" className="block font-medium text-slate-900">
            Adresse privée de mon agenda
          </label>
          <input
            id="feed-url"
            readOnly
            value={feedUrl}
            className="w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900"
          />
          <p>Gardez-la pour vous : elle donne vos sessions à qui la connaît. Si vous l'avez partagée par erreur, changez-la.</p>
          <Form method="post">
            <input type="hidden" name="intent" value="revoke-feed" />
            <Button type="submit" variant="outline" size="sm">
              Changer d'adresse (l'ancienne cessera de fonctionner)
            </Button>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}
