import { Form } from "react-router";
import { z } from "zod";
import { dbContext, userContext } from "~/.server/context";
import { formFailure, orHttpError } from "~/.server/http/errors";
import { changeEnrolment, ENROLMENT_ACTIONS, enrolByHand, listCourseEnrolments, listCoursesForEnrolments } from "~/.server/learning";
import { redirectWithToast } from "~/.server/toast";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FilterBar } from "~/components/ui/filter-bar";
import { Input } from "~/components/ui/input";
import { Pager } from "~/components/ui/pager";
import { Select } from "~/components/ui/select";
import { usePendingIntent } from "~/components/ui/use-pending-intent";
import { formatDate } from "~/lib/dates";
import { enrolmentStatusTones, grantKindLabels } from "~/lib/enrolment-admin";
import { failureOf } from "~/lib/form-result";
import { plural } from "~/lib/format";
import { enrolmentStatusLabels } from "~/lib/learning";
import { LIMITS } from "~/lib/limits";
import { serialIdSchema } from "~/lib/schemas";
import type { Route } from "./+types/enrolments";

/** /admin/inscriptions?cours=<id>: a course's enrolments; enrol by hand, pause, resume, cancel. */

const PATH = "/admin/inscriptions";
const listHref = (courseId: number, page: number) => `${PATH}?cours=${courseId}${page > 1 ? `&page=${page}` : ""}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const admin = context.get(userContext);
  const search = new URL(request.url).searchParams;
  const chosen = serialIdSchema.safeParse(search.get("cours"));
  const page = serialIdSchema.safeParse(search.get("page"));
  const listOf = (courseId: number) => orHttpError(listCourseEnrolments(db, admin, courseId, page.success ? page.data : 1));
  // A chosen course's list comes with the course choices; otherwise the first course's, after them.
  const [courses, chosenList] = await Promise.all([
    orHttpError(listCoursesForEnrolments(db, admin)),
    chosen.success ? listOf(chosen.data) : null,
  ]);
  const list = chosenList ?? (!chosen.success && courses[0] ? await listOf(courses[0].id) : null);
  return {
    total: list?.total ?? 0,
    page: list?.page ?? 1,
    pageCount: list?.pageCount ?? 1,
    courses: courses.map((course) => ({ value: String(course.id), label: course.title })),
    course: list?.course ?? null,
    enrolments: (list?.enrolments ?? []).map((row) => ({
      id: row.id,
      status: row.status,
      progress: row.progress,
      name: `${row.firstName} ${row.lastName}`.trim() || row.email,
      email: row.email,
      since: formatDate(row.enrolledAt),
    })),
  };
}

export const meta = () => [{ title: "Inscriptions" }];

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("enrol"), email: z.string().optional(), kind: z.string().optional(), reason: z.string().optional() }),
  z.object({ intent: z.enum(ENROLMENT_ACTIONS), enrolmentId: serialIdSchema }),
]);

const done = { pause: "Inscription suspendue", resume: "Inscription reprise", cancel: "Inscription annulée" } as const;

export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const admin = context.get(userContext);
  const search = new URL(request.url).searchParams;
  const courseId = serialIdSchema.safeParse(search.get("cours"));
  if (!courseId.success) throw new Response("Formation introuvable.", { status: 404 });
  const here = `${PATH}?cours=${courseId.data}`;
  // A change made on a later page returns to that page (the loader clamps it if it no longer exists).
  const page = serialIdSchema.safeParse(search.get("page"));
  const backToPage = listHref(courseId.data, page.success ? page.data : 1);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return formFailure(parsed.error);
  const input = parsed.data;
  if (input.intent === "enrol") {
    const values = { email: input.email ?? "", kind: input.kind ?? "", reason: input.reason ?? "" };
    try {
      const result = await enrolByHand(db, admin, courseId.data, values);
      return redirectWithToast(
        here,
        result.kind === "enrolled"
          ? { type: "success", title: "Apprenant inscrit", description: `${values.email} suit désormais la formation.` }
          : { type: "success", title: "Déjà inscrit", description: `${values.email} suit déjà cette formation : rien n'a changé.` },
        { status: 303 },
      );
    } catch (error) {
      return formFailure(error, { intent: "enrol", values });
    }
  }
  try {
    await changeEnrolment(db, admin, input.enrolmentId, input.intent);
  } catch (error) {
    return formFailure(error, { intent: "change" });
  }
  return redirectWithToast(backToPage, { type: "success", title: done[input.intent] }, { status: 303 });
}

export default function EnrolmentsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { courses, course, enrolments, total, page, pageCount } = loaderData;
  const failure = failureOf<{ email: string; kind: string; reason: string }>(actionData, "enrol");
  const changeFailure = failureOf(actionData, "change");
  const enrolling = usePendingIntent("enrol");
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Inscriptions</h1>
        <p className="mt-1 text-slate-600">Les apprenants d'une formation : inscrire à la main, suspendre, reprendre, annuler.</p>
      </div>
      {courses.length === 0 || !course ? (
        <p className="text-slate-600">Aucune formation pour le moment.</p>
      ) : (
        <>
          <FilterBar
            label="Choisir une formation"
            id="enrolments"
            choices={[{ name: "cours", label: "Formation", value: String(course.id), options: courses, className: "sm:w-96" }]}
            submit="Afficher"
          />
          <section aria-labelledby="manual-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id="manual-title" className="text-lg font-semibold text-slate-900">
              Inscrire à la main
            </h2>
            <Form key={total} method="post" action={`${PATH}?cours=${course.id}`} className="grid gap-3 sm:grid-cols-2">
              <input type="hidden" name="intent" value="enrol" />
              <Alert className="sm:col-span-2">{failure?.message}</Alert>
              <Field label="E-mail de l'apprenant" name="email" required error={failure?.fieldErrors.email}>
                {(field) => <Input {...field} type="email" maxLength={LIMITS.email} defaultValue={failure?.values?.email ?? ""} />}
              </Field>
              <Field label="Type de place" name="kind" required error={failure?.fieldErrors.kind}>
                {(field) => (
                  <Select
                    {...field}
                    defaultValue={failure?.values?.kind ?? "free_place"}
                    options={Object.entries(grantKindLabels).map(([value, label]) => ({ value, label }))}
                  />
                )}
              </Field>
              <Field label="Motif" name="reason" required error={failure?.fieldErrors.reason} className="sm:col-span-2">
                {(field) => <Input {...field} maxLength={LIMITS.shortText} defaultValue={failure?.values?.reason ?? ""} />}
              </Field>
              <div className="sm:col-span-2">
                <Button type="submit" disabled={enrolling}>
                  {enrolling ? "Envoi..." : "Inscrire"}
                </Button>
              </div>
            </Form>
          </section>
          <section aria-labelledby="list-title" className="space-y-3">
            <h2 id="list-title" className="text-lg font-semibold text-slate-900">
              {course.title} : {plural(total, "inscription", "inscriptions")}
            </h2>
            <Alert>{changeFailure?.message}</Alert>
            {enrolments.length === 0 ? (
              <p className="text-sm text-slate-600">Personne n'est encore inscrit à cette formation.</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm">
                {enrolments.map((row) => (
                  <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3">
                    <span className="w-full min-w-0 sm:w-auto sm:flex-1">
                      <span className="block font-semibold break-words text-slate-900">{row.name}</span>
                      <span className="block text-sm break-all text-slate-600">
                        {row.email} · depuis le {row.since} · {row.progress} %
                      </span>
                    </span>
                    <Badge tone={enrolmentStatusTones[row.status]}>{enrolmentStatusLabels[row.status]}</Badge>
                    <span className="flex flex-wrap gap-2">
                      {(row.status === "active" || row.status === "completed") && (
                        <RowAction courseId={course.id} page={page} id={row.id} intent="pause" label="Suspendre" name={row.name} />
                      )}
                      {row.status === "paused" && (
                        <RowAction courseId={course.id} page={page} id={row.id} intent="resume" label="Reprendre" name={row.name} />
                      )}
                      {row.status !== "cancelled" && (
                        <RowAction courseId={course.id} page={page} id={row.id} intent="cancel" label="Annuler" name={row.name} />
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <Pager page={page} pageCount={pageCount} hrefFor={(to) => listHref(course.id, to)} label="Pages des inscriptions" />
          </section>
        </>
      )}
    </div>
  );
}

function RowAction(props: { courseId: number; page: number; id: number; intent: string; label: string; name: string }) {
  const { courseId, page, id, intent, label, name } = props;
  return (
    <Form method="post" action={listHref(courseId, page)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="enrolmentId" value={id} />
      <Button type="submit" variant="outline" size="sm" aria-label={`${label} l'inscription de ${name}`}>
        {label}
      </Button>
    </Form>
  );
}
