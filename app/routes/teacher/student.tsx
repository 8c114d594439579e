import { Check, MessageSquare, RotateCcw } from "~/components/icons";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { grantExtraAttempt } from "~/.server/quizzes";
import { getTeacherStudent } from "~/.server/reports";
import { redirectWithToast } from "~/.server/toast";
import { failureOf } from "~/lib/form-result";
import { plural } from "~/lib/format";
import { messageUserHref } from "~/lib/messaging";
import { enrolmentStatusLabels } from "~/lib/learning";
import { studentPaymentLabels } from "~/lib/teaching";
import { ProgressBar } from "~/components/learning/progress-bar";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate, formatDateTime, formatRelative } from "~/lib/dates";
import { serialIdSchema, textIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/student";

/** One learner of the teacher's courses: each enrolment with lessons, quiz attempts and live sessions attended. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = textIdSchema.catch("").parse(params.id);
  const { person, enrolments } = await orHttpError(getTeacherStudent(context.get(dbContext), context.get(userContext), id));
  const now = new Date();
  return {
    person: { id: person.id, name: person.name, email: person.email, phone: person.phone, since: formatDate(person.createdAt) },
    enrolments: enrolments.map((row) => ({
      id: row.enrolmentId,
      courseTitle: row.courseTitle,
      status: enrolmentStatusLabels[row.status],
      progress: row.progress,
      enrolledAt: formatDate(row.enrolledAt),
      lastActivity: formatRelative(row.lastActivityAt, now),
      payment: row.paymentStatus ? studentPaymentLabels[row.paymentStatus] : "—",
      certificate: Boolean(row.certificateId),
      bestScore: row.bestScore,
      lessons: row.lessons.map((lesson) => ({ id: lesson.lessonId, title: lesson.title, done: lesson.done })),
      attempts: row.attempts.map((attempt, index) => ({
        key: `${attempt.quizTitle}-${attempt.attemptNumber}-${index}`,
        quizTitle: attempt.quizTitle,
        attemptNumber: attempt.attemptNumber,
        at: attempt.submittedAt ? formatDateTime(attempt.submittedAt) : "",
        score: attempt.score,
        passed: attempt.passed,
      })),
      sessions: row.sessions.map((session, index) => ({ key: index, title: session.title, at: formatDateTime(session.startsAt) })),
      spentQuizzes: row.spentQuizzes,
    })),
  };
}

const grantSchema = z.object({ intent: z.literal("grant-attempt"), quiz: serialIdSchema });

/** « Accorder une tentative »: one more attempt at a quiz the learner failed with every attempt spent. */
export async function action({ request, params, context, url }: Route.ActionArgs) {
  const learnerId = textIdSchema.catch("").parse(params.id);
  const parsed = grantSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return formFailure(parsed.error);
  try {
    await grantExtraAttempt(context.get(dbContext), context.get(userContext), { quizId: parsed.data.quiz, learnerId });
  } catch (error) {
    return formFailure(error, { intent: `grant-attempt:${parsed.data.quiz}` });
  }
  return redirectWithToast(url.pathname, {
    type: "success",
    title: "Tentative accordée",
    description: "L'apprenant en est prévenu : il peut repasser le quiz.",
  });
}

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: `${loaderData?.person.name ?? "Étudiant"} · Mes Étudiants` }];

export default function StudentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { person, enrolments } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <p className="text-sm">
          <Link to="/teacher/students" className="font-medium text-brand-700 hover:underline">
            Mes Étudiants
          </Link>
        </p>
        <h1 className="mt-2 text-2xl font-bold text-slate-900 sm:text-3xl">{person.name}</h1>
        <p className="mt-1 text-slate-700">
          {person.email}
          {person.phone ? ` · ${person.phone}` : ""} · inscrit·e sur la plateforme le {person.since}
        </p>
        <Link to={messageUserHref(person.id, "teacher")} className={buttonClasses({ size: "sm", variant: "outline", className: "mt-3" })}>
          <MessageSquare aria-hidden="true" className="size-4" />
          Envoyer un message
        </Link>
      </div>

      {enrolments.map((row) => (
        <Card key={row.id} aria-labelledby={`cours-${row.id}`}>
          <CardHeader>
            <CardTitle id={`cours-${row.id}`}>{row.courseTitle}</CardTitle>
            <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <Badge tone="blue">{row.status}</Badge> Inscrit·e le {row.enrolledAt} · actif {row.lastActivity} · paiement : {row.payment}
              {row.certificate ? <Badge tone="green">Certificat délivré</Badge> : null}
            </p>
          </CardHeader>
          <CardContent className="space-y-5">
            <ProgressBar value={row.progress} label={`Progression dans ${row.courseTitle}`} />
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Leçons</h3>
              <ol className="mt-2 space-y-1 text-sm">
                {row.lessons.map((lesson) => (
                  <li key={lesson.id} className="flex items-center gap-2">
                    {lesson.done ? (
                      <Check aria-label="terminée" className="size-4 text-green-700" />
                    ) : (
                      <span role="img" aria-label="pas encore" className="inline-block size-4 rounded-full border border-slate-300" />
                    )}
                    <span className={lesson.done ? "text-slate-900" : "text-slate-600"}>{lesson.title}</span>
                  </li>
                ))}
              </ol>
            </div>
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Quiz rendus</h3>
              {row.attempts.length === 0 ? (
                <p className="mt-1 text-sm text-slate-600">Aucun quiz rendu.</p>
              ) : (
                <ul className="mt-2 space-y-1 text-sm">
                  {row.attempts.map((attempt) => (
                    <li key={attempt.key}>
                      {attempt.quizTitle} (tentative {attempt.attemptNumber}) : {attempt.score === null ? "—" : `${attempt.score} %`}{" "}
                      {attempt.passed ? (
                        <Badge tone="green">Réussi</Badge>
                      ) : attempt.passed === false ? (
                        <Badge tone="red">Non réussi</Badge>
                      ) : null}
                      <span className="text-slate-600"> · {attempt.at}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {row.spentQuizzes.map((quiz) => {
              const failure = failureOf(actionData, `grant-attempt:${quiz.quizId}`);
              return (
                <Form key={quiz.quizId} method="post" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm">
                  <p className="text-amber-950">
                    « {quiz.title} » : {plural(quiz.used, "tentative utilisée", "tentatives utilisées")}, aucune réussie ; il n'en reste
                    plus.
                  </p>
                  <input type="hidden" name="quiz" value={quiz.quizId} />
                  <button
                    type="submit"
                    name="intent"
                    value="grant-attempt"
                    className={buttonClasses({ variant: "outline", size: "sm" })}
                    disabled={busy}
                  >
                    <RotateCcw aria-hidden="true" className="size-4" />
                    Accorder une tentative<span className="sr-only"> au quiz « {quiz.title} »</span>
                  </button>
                  {failure ? (
                    <p role="alert" className="text-red-700">
                      {failure.message}
                    </p>
                  ) : null}
                </Form>
              );
            })}
            <div>
              <h3 className="text-sm font-semibold text-slate-900">Sessions en direct suivies</h3>
              {row.sessions.length === 0 ? (
                <p className="mt-1 text-sm text-slate-600">Aucune.</p>
              ) : (
                <ul className="mt-2 space-y-1 text-sm">
                  {row.sessions.map((session) => (
                    <li key={session.key}>
                      {session.title} <span className="text-slate-600">· {session.at}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
