import { data, isRouteErrorResponse, Link } from "react-router";
import { signedInTeacher } from "~/.server/auth/middleware";
import { dbContext, envContext, userContext } from "~/.server/context";
import {
  createCourse,
  describeFormFiles,
  formFileIds,
  getCourseFormValues,
  listCourseFormOptions,
  updateCourse,
} from "~/.server/courses/authoring";
import { uploadLimits } from "~/.server/files/ingest";
import { isAppError } from "~/.server/errors";
import { orHttpError, toFormFailure } from "~/.server/http/errors";
import { redirectWithToast } from "~/.server/toast";
import { CourseForm } from "~/components/courses/course-form";
import { buttonClasses } from "~/components/ui/button";
import {
  applyEditIntent,
  courseValuesFromFormData,
  emptyCourseValues,
  parseCourseFormTab,
  parseEditIntent,
  tabOfField,
  type CourseFormValues,
} from "~/lib/course-form";
import { courseFormArea } from "./course-area.server";
import { failureOf } from "~/lib/form-result";
import type { Route } from "./+types/course-form";

/**
 * The course form: "Créer un Nouveau Cours" at /admin/create-course, /teacher/create-course and
 * /dashboard/course-creator; "Modifier le Cours" at /dashboard/course-creator/:id. Teachers edit
 * their own courses, admins any (anyone else's id is a 404).
 */

/** Teachers and administrators (under /admin, the layout's guard has already kept administrators only). */
export const middleware: Route.MiddlewareFunction[] = [signedInTeacher];

function courseIdParam(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  return id;
}

export async function loader(args: Route.LoaderArgs) {
  const actor = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const id = courseIdParam(args.params);
  const { listHref } = courseFormArea(args.request, actor);
  const options = await listCourseFormOptions(db, actor);
  const limits = uploadLimits(args.context.get(envContext));
  if (id === null) {
    return { mode: "create" as const, values: emptyCourseValues(), files: {}, options, limits, listHref, course: null };
  }
  const { course, values, files } = await orHttpError(getCourseFormValues(db, actor, id));
  return { mode: "edit" as const, values, files, options, limits, listHref, course };
}

export async function action(args: Route.ActionArgs) {
  const actor = args.context.get(userContext);
  const db = args.context.get(dbContext);
  const id = courseIdParam(args.params);
  const form = await args.request.formData();
  let values: CourseFormValues = courseValuesFromFormData(form);
  const intent = form.get("intent");
  const tab = parseCourseFormTab(typeof intent === "string" && intent.startsWith("tab:") ? intent.slice(4) : form.get("tab"));
  const describe = (current: CourseFormValues) => describeFormFiles(db, actor, id, formFileIds(current));

  // An editing or tab button without JavaScript: the same form back, changed, nothing saved.
  const edit = parseEditIntent(intent);
  if (edit || (typeof intent === "string" && intent.startsWith("tab:"))) {
    if (edit) values = applyEditIntent(values, edit);
    return { ok: true as const, values, tab, files: await describe(values) };
  }

  // A text typed in an "add" box and not yet added is saved too.
  values = applyEditIntent(applyEditIntent(values, { kind: "add-objective" }), { kind: "add-prerequisite" });
  try {
    await (id === null ? createCourse(db, actor, values) : updateCourse(db, actor, id, values));
  } catch (error) {
    // The form comes back as typed, on the tab of the first field at fault.
    const { failure, status } = toFormFailure(error, { values, message: isAppError(error) ? error.message : undefined });
    const firstError = Object.keys(failure.fieldErrors)[0];
    return data({ ...failure, tab: firstError ? tabOfField(firstError) : tab, files: await describe(values) }, { status });
  }
  const { listHref } = courseFormArea(args.request, actor);
  if (id === null)
    return redirectWithToast(listHref, { type: "success", title: "Succès", description: "Cours créé avec succès" }, { status: 303 });
  const url = args.url;
  return redirectWithToast(
    `${url.pathname}${url.search}`,
    { type: "success", title: "Succès", description: "Cours mis à jour avec succès" },
    { status: 303 },
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.mode === "edit" ? `Modifier le Cours · ${loaderData.course.title}` : "Créer un Nouveau Cours" }];
}

/** One key per answer of the server: the form restarts from each new one, and only then. */
const answerKeys = new WeakMap<object, string>();
let answerCount = 0;
function answerKey(answer: object): string {
  let key = answerKeys.get(answer);
  if (!key) {
    answerCount += 1;
    key = `answer-${answerCount}`;
    answerKeys.set(answer, key);
  }
  return key;
}

export default function CourseFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, options, limits, listHref, course } = loaderData;
  const state = actionData ?? { ok: true as const, values: loaderData.values, tab: "informations" as const, files: loaderData.files };
  const failure = failureOf(state);
  return (
    <CourseForm
      // A new answer from the server (a save, a failed save, a button without JavaScript) starts the form afresh from it.
      key={answerKey(actionData ?? loaderData)}
      mode={mode}
      values={state.values ?? loaderData.values}
      tab={state.tab}
      files={{ ...loaderData.files, ...state.files }}
      errors={failure?.fieldErrors ?? {}}
      formError={failure?.message ?? null}
      options={options}
      limits={limits}
      cancelHref={listHref}
      previewHref={course ? `/formations/${course.slug}` : undefined}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-900">
      <h1 className="text-lg font-semibold">{notFound ? "Cours introuvable" : "Erreur"}</h1>
      <p>
        {notFound
          ? "Ce cours n'existe pas ou ne fait pas partie de vos cours."
          : "Impossible de charger le cours. Réessayez dans un instant."}
      </p>
      <Link to="/teacher/courses" className={buttonClasses({ variant: "outline", size: "sm" })}>
        Retour à mes cours
      </Link>
    </div>
  );
}
