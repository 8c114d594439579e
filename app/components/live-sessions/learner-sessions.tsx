import { CalendarPlus, Check } from "~/components/icons";
import { Form, href } from "react-router";
import { Button } from "~/components/ui/button";
import { JoinButton } from "./join-button";

export interface LearnerSessionView {
  id: number;
  title: string;
  courseTitle: string;
  when: string;
  duration: string;
  registered: boolean;
  joinOpen: boolean;
}

/**
 * A learner's coming live sessions: "Rejoindre" (open 10 minutes before the start), "S'inscrire"
 * (reminders by e-mail 24 h and 1 h before) and the session's .ics. `back`: the page the
 * registration form returns to.
 */
export function LearnerSessions({
  sessions,
  back,
  showCourse = true,
}: {
  sessions: LearnerSessionView[];
  back: string;
  showCourse?: boolean;
}) {
  return (
    <ul className="divide-y divide-slate-100">
      {sessions.map((session) => (
        <li key={session.id} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 md:flex-row md:items-center">
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-slate-900">{session.title}</p>
            {showCourse ? <p className="text-sm text-slate-700">{session.courseTitle}</p> : null}
            <p className="text-sm text-slate-600">
              {session.when} · {session.duration}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <JoinButton sessionId={session.id} title={session.title} open={session.joinOpen} />
            <Form method="post" action="/dashboard/sessions">
              <input type="hidden" name="intent" value={session.registered ? "unregister" : "register"} />
              <input type="hidden" name="sessionId" value={session.id} />
              <input type="hidden" name="retour" value={back} />
              {session.registered ? (
                <Button type="submit" size="sm" variant="outline">
                  <Check aria-hidden="true" className="size-4" />
                  Inscrit·e · se désinscrire<span className="sr-only"> de « {session.title} »</span>
                </Button>
              ) : (
                <Button type="submit" size="sm" variant="secondary">
                  S'inscrire<span className="sr-only"> à « {session.title} » (rappels par e-mail)</span>
                </Button>
              )}
            </Form>
            <a
              href={href("/dashboard/sessions/:id/calendrier.ics", { id: String(session.id) })}
              download
              className="inline-flex min-h-9 items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-2"
            >
              <CalendarPlus aria-hidden="true" className="size-4" />
              Agenda<span className="sr-only"> : ajouter « {session.title} » à mon agenda (.ics)</span>
            </a>
          </div>
        </li>
      ))}
    </ul>
  );
}
