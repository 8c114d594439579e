import { Link } from "react-router";
import { dbContext, envContext, userContext } from "~/.server/context";
import { formFailure } from "~/.server/http/errors";
import { listSessionCourses, liveRoomsFrom, remindsAtOnce, scheduleSession } from "~/.server/live-sessions";
import { redirectWithToast } from "~/.server/toast";
import { SessionForm } from "~/components/live-sessions/session-form";
import { Card, CardContent } from "~/components/ui/card";
import { formatWeekdayDateTime } from "~/lib/dates";
import { failureOf } from "~/lib/form-result";
import { DEFAULT_SESSION_MINUTES, SHORT_NOTICE_REMINDER, type SessionFormValues } from "~/lib/live-sessions";
import type { Route } from "./+types/schedule";

/** "Planifier Session": a new live session for one of the teacher's courses (`?cours=<id>` chooses it). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = context.get(envContext);
  const courses = await listSessionCourses(context.get(dbContext), user);
  const wanted = Number(new URL(request.url).searchParams.get("cours"));
  const course = courses.find((row) => row.id === wanted) ?? (courses.length === 1 ? courses[0] : undefined);
  const values: SessionFormValues = {
    courseId: course ? String(course.id) : "",
    title: "",
    description: "",
    startsAt: "",
    durationMinutes: String(DEFAULT_SESSION_MINUTES),
    room: liveRoomsFrom(env).bigBlueButton ? "bigbluebutton" : "link",
    joinUrl: course?.liveSessionUrl ?? "",
    recordingUrl: "",
  };
  return { courses: courses.map(({ id, title }) => ({ id, title })), values, bigBlueButton: Boolean(liveRoomsFrom(env).bigBlueButton) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = context.get(userContext);
  const values = Object.fromEntries(await request.formData()) as Record<string, string>;
  try {
    const now = new Date();
    const session = await scheduleSession(context.get(dbContext), user, values, liveRoomsFrom(context.get(envContext)), now);
    return redirectWithToast(
      "/teacher/sessions",
      {
        type: "success",
        title: "Session planifiée",
        description: `« ${session.title} », ${formatWeekdayDateTime(session.startsAt)}. Les apprenants sont prévenus.${remindsAtOnce(session, now) ? ` ${SHORT_NOTICE_REMINDER}` : ""}`,
      },
      { status: 303 },
    );
  } catch (error) {
    return formFailure(error, { intent: "schedule", values });
  }
}

export const meta = () => [{ title: "Planifier une session · Espace enseignant" }];

export default function SchedulePage({ loaderData, actionData }: Route.ComponentProps) {
  const { courses, values, bigBlueButton } = loaderData;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Planifier une session</h1>
        <p className="mt-2 text-slate-700">
          Les apprenants du cours sont prévenus, la reçoivent dans leur agenda et un rappel leur est envoyé 24 h et 1 h avant.
        </p>
      </div>
      <Card>
        <CardContent className="pt-6">
          {courses.length === 0 ? (
            <p className="text-slate-700">
              Créez d'abord un cours :{" "}
              <Link to="/teacher/create-course" className="font-medium text-brand-700 underline">
                Créer un cours
              </Link>
              .
            </p>
          ) : (
            <SessionForm
              intent="schedule"
              courses={courses}
              values={values}
              failure={failureOf<SessionFormValues>(actionData, "schedule")}
              bigBlueButton={bigBlueButton}
              editing={false}
              submitLabel="Planifier la session"
            />
          )}
        </CardContent>
      </Card>
      <p className="text-sm">
        <Link to="/teacher/sessions" className="font-medium text-brand-700 hover:underline">
          Voir toutes mes sessions
        </Link>
      </p>
    </div>
  );
}
