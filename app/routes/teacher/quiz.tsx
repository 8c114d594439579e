import { BarChart3, ClipboardList, Download, Pencil, Plus, Target, Trash2, Users } from "~/components/icons";
import { data, Form, href, Link } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { isAppError } from "~/.server/errors";
import { toFormFailure } from "~/.server/http/errors";
import {
  createQuiz,
  deleteQuiz,
  getManagedQuiz,
  getQuizAnalytics,
  listManagedQuizzes,
  listQuizPlacementOptions,
  listQuizResults,
  parseResultFilters,
  quizFormValuesOf,
  updateQuiz,
} from "~/.server/quizzes";
import { redirectWithToast } from "~/.server/toast";
import { QuizEditor } from "~/components/quizzes/quiz-editor";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { FilterBar } from "~/components/ui/filter-bar";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { formatDate, formatDateTime } from "~/lib/dates";
import { plural } from "~/lib/format";
import type { FieldErrors } from "~/lib/form-result";
import { formatPercent, scoreBucketLabels } from "~/lib/quiz";
import {
  applyQuizEditIntent,
  emptyQuizValues,
  parseQuizEditIntent,
  parseQuizFormTab,
  quizTabOfField,
  quizValuesFromFormData,
  type QuizFormTab,
  type QuizFormValues,
} from "~/lib/quiz-form";
import type { Route } from "./+types/quiz";

const PATH = "/teacher/quiz";

function idOf(value: string | null): number {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const user = context.get(userContext);
  const params = url.searchParams;
  const tab = params.get("onglet") === "resultats" ? "resultats" : "apercu";
  const { quizzes, summary } = await listManagedQuizzes(db, user);

  // The dialog: ?quiz=nouveau or ?quiz=<id>.
  const opened = params.get("quiz");
  let editor: { quizId: number | null; values: QuizFormValues; tab: QuizFormTab } | null = null;
  if (opened === "nouveau") editor = { quizId: null, values: emptyQuizValues(), tab: parseQuizFormTab(params.get("section")) };
  else if (opened) {
    const quiz = await getManagedQuiz(db, user, idOf(opened)).catch((error: unknown) => {
      if (isAppError(error, "not_found")) return null;
      throw error;
    });
    if (quiz) editor = { quizId: quiz.id, values: quizFormValuesOf(quiz), tab: parseQuizFormTab(params.get("section")) };
  }
  const courses = editor ? await listQuizPlacementOptions(db, user) : [];

  const deleting = quizzes.find((quiz) => quiz.id === idOf(params.get("supprimer"))) ?? null;

  // Résultats: one quiz at a time (the first by default), as a list or its analytics.
  let results = null;
  if (tab === "resultats" && quizzes.length) {
    const selected = quizzes.find((quiz) => quiz.id === idOf(params.get("id"))) ?? quizzes[0]!;
    const filters = parseResultFilters(params);
    const view = params.get("vue") === "analytics" ? "analytics" : "liste";
    if (view === "analytics") {
      const analytics = await getQuizAnalytics(db, user, selected.id);
      results = { quizId: selected.id, view, filters, rows: [], analytics: { ...analytics, quiz: undefined } };
    } else {
      const { results: rows } = await listQuizResults(db, user, selected.id, filters);
      results = {
        quizId: selected.id,
        view,
        filters,
        rows: rows.map((row) => ({ ...row, submittedAt: formatDateTime(row.submittedAt) })),
        analytics: null,
      };
    }
  }

  return {
    tab,
    summary,
    quizzes: quizzes.map((quiz) => ({ ...quiz, createdAt: formatDate(quiz.createdAt) })),
    editor,
    courses,
    deleting: deleting ? { id: deleting.id, title: deleting.title } : null,
    results,
  };
}

export const meta = () => [{ title: "Quiz & Évaluations" }];

type EditorData = { ok: boolean; intent: "edit"; values: QuizFormValues; errors: FieldErrors; message: string | null; tab: QuizFormTab };

/**
 * The dialog's buttons (save, tabs, add/remove/move a question, apply a type) and the deletion.
 * Everything but a successful save or delete answers the form as typed, changed as asked.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const user = context.get(userContext);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const quizId = idOf(typeof form.get("quizId") === "string" ? (form.get("quizId") as string) : null);

  if (intent === "delete") {
    try {
      const quiz = await deleteQuiz(db, user, quizId);
      return redirectWithToast(PATH, {
        type: "success",
        title: "Quiz supprimé",
        description: `Le quiz « ${quiz.title} » a été supprimé avec succès.`,
      });
    } catch (error) {
      if (!isAppError(error, "not_found")) throw error;
      return redirectWithToast(PATH, { type: "error", title: "Erreur", description: "Impossible de supprimer le quiz." });
    }
  }

  const values = quizValuesFromFormData(form);
  const answer = (extra: Partial<EditorData> = {}, status = 200) =>
    data<EditorData>(
      { ok: true, intent: "edit", values, errors: {}, message: null, tab: parseQuizFormTab(form.get("tab")), ...extra },
      { status },
    );

  if (intent.startsWith("tab:")) return answer({ tab: parseQuizFormTab(intent.slice(4)) });
  const edit = parseQuizEditIntent(intent);
  if (edit) {
    return answer({
      values: applyQuizEditIntent(values, edit),
      tab: "questions",
      message: edit.kind === "add-question" ? "Question ajoutée : la question a été ajoutée au quiz." : null,
    });
  }

  try {
    const saved = quizId ? await updateQuiz(db, user, quizId, values) : await createQuiz(db, user, values);
    return redirectWithToast(
      PATH,
      quizId
        ? { type: "success", title: "Quiz mis à jour", description: `Le quiz « ${saved.title} » a été enregistré.` }
        : { type: "success", title: "Quiz créé", description: "Le quiz a été créé avec succès." },
    );
  } catch (error) {
    const { failure, status } = toFormFailure(error, { values });
    const first = Object.keys(failure.fieldErrors)[0];
    const message =
      isAppError(error) && error.message !== "Vérifiez les champs signalés." ? error.message : "Impossible de sauvegarder le quiz.";
    return data<EditorData>(
      {
        ok: false,
        intent: "edit",
        values,
        errors: failure.fieldErrors,
        message,
        tab: first ? quizTabOfField(first) : parseQuizFormTab(form.get("tab")),
      },
      { status },
    );
  }
}

export default function TeacherQuizPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, summary, quizzes, editor, courses, deleting, results } = loaderData;
  const edited = actionData && actionData.intent === "edit" ? actionData : null;
  const closeHref = tab === "resultats" ? `${PATH}?onglet=resultats` : PATH;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Quiz & Évaluations</h1>
          <p className="mt-1 text-slate-700">Créez les quiz de vos cours et suivez les résultats de vos étudiants.</p>
        </div>
        <Link to={`${PATH}?quiz=nouveau`} className={buttonClasses()}>
          <Plus aria-hidden="true" className="size-4" />
          Créer un quiz
        </Link>
      </div>

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total quiz" value={summary.totalQuizzes} icon={<ClipboardList className="size-5" />} />
        <StatCard label="Tentatives" value={summary.totalAttempts} icon={<Users className="size-5" />} />
        <StatCard label="Score moyen" value={formatPercent(summary.averageScore)} icon={<BarChart3 className="size-5" />} />
        <StatCard label="Taux de réussite" value={formatPercent(summary.passRate)} icon={<Target className="size-5" />} />
      </dl>

      <LinkTabs
        label="Quiz"
        current={tab}
        items={[
          { value: "apercu", label: "Vue d'ensemble", to: PATH },
          { value: "resultats", label: "Résultats", to: `${PATH}?onglet=resultats` },
        ]}
      />

      {deleting ? (
        <div role="alertdialog" aria-labelledby="confirmer-suppression" className="rounded-lg border border-red-200 bg-red-50 p-4">
          <p id="confirmer-suppression" className="font-semibold text-red-900">
            Êtes-vous sûr de vouloir supprimer ce quiz ?
          </p>
          <p className="text-sm text-red-900">
            « {deleting.title} » quittera la liste et la règle du certificat ; les tentatives passées restent dans les résultats.
          </p>
          <Form method="post" className="mt-3 flex flex-wrap gap-2">
            <input type="hidden" name="quizId" value={deleting.id} />
            <button
              type="submit"
              name="intent"
              value="delete"
              className={buttonClasses({ size: "sm", className: "bg-red-700 hover:bg-red-800" })}
            >
              Supprimer
            </button>
            <Link to={PATH} className={buttonClasses({ variant: "outline", size: "sm" })}>
              Annuler
            </Link>
          </Form>
        </div>
      ) : null}

      {tab === "apercu" ? (
        quizzes.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
            <ClipboardList aria-hidden="true" className="mx-auto size-10 text-slate-400" />
            <h2 className="mt-3 text-lg font-semibold text-slate-900">Aucun quiz créé</h2>
            <p className="mt-1 text-slate-700">Créez un premier quiz pour évaluer les apprenants d'un de vos cours.</p>
            <Link to={`${PATH}?quiz=nouveau`} className={buttonClasses({ className: "mt-4" })}>
              Créer un quiz
            </Link>
          </div>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {quizzes.map((quiz) => (
              <li key={quiz.id}>
                <article
                  aria-labelledby={`quiz-${quiz.id}`}
                  className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone="brand">{quiz.courseTitle}</Badge>
                    {quiz.required ? <Badge tone="amber">Obligatoire</Badge> : null}
                  </div>
                  <h2 id={`quiz-${quiz.id}`} className="mt-2 text-lg font-semibold text-slate-900">
                    {quiz.title}
                  </h2>
                  {quiz.description ? <p className="mt-1 line-clamp-2 text-sm text-slate-700">{quiz.description}</p> : null}
                  <p className="mt-2 text-sm text-slate-600">
                    {plural(quiz.questionCount, "question", "questions")} · {plural(quiz.totalPoints, "point", "points")} ·{" "}
                    {quiz.timeLimitMinutes === null ? "sans limite de temps" : `${quiz.timeLimitMinutes} min`} · {quiz.maxAttempts}{" "}
                    tentative
                    {quiz.maxAttempts > 1 ? "s" : ""} · réussite à {formatPercent(quiz.passingScore)}
                  </p>
                  <p className="mt-1 text-sm text-slate-800">
                    {quiz.attempts === 0
                      ? "Aucune tentative pour l'instant"
                      : `${plural(quiz.attempts, "tentative", "tentatives")} · moyenne ${formatPercent(quiz.averageScore ?? 0)} · réussite ${formatPercent(quiz.passRate ?? 0)}`}
                  </p>
                  <div className="mt-auto flex flex-wrap gap-2 pt-4">
                    <Link to={`${PATH}?onglet=resultats&id=${quiz.id}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
                      <BarChart3 aria-hidden="true" className="size-4" />
                      Résultats<span className="sr-only"> de {quiz.title}</span>
                    </Link>
                    <Link to={`${PATH}?quiz=${quiz.id}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
                      <Pencil aria-hidden="true" className="size-4" />
                      Modifier<span className="sr-only"> {quiz.title}</span>
                    </Link>
                    <Link
                      to={`${PATH}?supprimer=${quiz.id}`}
                      className={buttonClasses({ variant: "ghost", size: "sm", className: "text-red-700" })}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Supprimer<span className="sr-only"> {quiz.title}</span>
                    </Link>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )
      ) : (
        <QuizResults quizzes={quizzes} results={results} />
      )}

      {editor ? (
        <QuizEditor
          key={
            edited ? JSON.stringify(edited.values.questions.map((question) => question.key)) + edited.tab + String(edited.ok) : "initial"
          }
          quizId={editor.quizId}
          values={edited?.values ?? editor.values}
          errors={edited?.errors ?? {}}
          message={edited && !edited.ok ? edited.message : null}
          notice={edited?.ok ? edited.message : null}
          tab={edited?.tab ?? editor.tab}
          courses={courses}
          closeHref={closeHref}
        />
      ) : null}
    </div>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

const resultStatusOptions = [
  { value: "tous", label: "Tous" },
  { value: "reussi", label: "Réussis" },
  { value: "echoue", label: "Échoués" },
];
const resultSortOptions = [
  { value: "date", label: "Date" },
  { value: "score", label: "Score" },
  { value: "tentative", label: "Tentatives" },
];

function QuizResults({ quizzes, results }: { quizzes: LoaderData["quizzes"]; results: LoaderData["results"] }) {
  if (!results)
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">Aucun quiz créé</p>;
  const { filters, quizId, view } = results;
  const query = (changes: Record<string, string>) =>
    `${PATH}?${new URLSearchParams({ onglet: "resultats", id: String(quizId), statut: filters.statut, tri: filters.tri, ...changes }).toString()}`;
  return (
    <section aria-label="Résultats" className="space-y-4">
      <FilterBar
        label="Choisir les résultats"
        id="resultats"
        className="rounded-lg border border-slate-200 bg-white p-4"
        hidden={{ onglet: "resultats", vue: view }}
        choices={[
          {
            name: "id",
            label: "Quiz",
            value: String(quizId),
            className: "min-w-0 flex-1",
            options: quizzes.map((quiz) => ({ value: String(quiz.id), label: `${quiz.title} (${quiz.courseTitle})` })),
          },
          ...(view === "liste"
            ? [
                { name: "statut", label: "Statut", value: filters.statut, className: "sm:w-44", options: resultStatusOptions },
                { name: "tri", label: "Trier par", value: filters.tri, className: "sm:w-44", options: resultSortOptions },
              ]
            : []),
        ]}
        submit="Afficher"
      />

      <div className="flex flex-wrap items-center justify-between gap-3">
        <LinkTabs
          label="Vue des résultats"
          current={view}
          items={[
            { value: "liste", label: "Résultats", to: query({ vue: "liste" }) },
            { value: "analytics", label: "Statistiques", to: query({ vue: "analytics" }) },
          ]}
        />
        <a
          href={`${PATH}/${quizId}/resultats.csv?${new URLSearchParams({ statut: filters.statut, tri: filters.tri }).toString()}`}
          download
          className={buttonClasses({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden="true" className="size-4" />
          Exporter CSV
        </a>
      </div>

      {view === "liste" ? (
        results.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            Aucun résultat pour ce quiz{filters.statut !== "tous" ? " avec ce filtre" : ""}.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">Résultats du quiz</caption>
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Étudiant
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Score
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Statut
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Tentative
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Date
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {results.rows.map((row) => (
                  <tr key={row.id}>
                    <td className="px-4 py-3">
                      <Link to={href("/teacher/students/:id", { id: row.userId })} className="font-medium text-slate-900 hover:underline">
                        {row.firstName} {row.lastName}
                      </Link>
                      <br />
                      <span className="text-slate-600">{row.email}</span>
                    </td>
                    <td className="px-4 py-3 font-semibold tabular-nums">{formatPercent(row.score)}</td>
                    <td className="px-4 py-3">
                      <Badge tone={row.passed ? "green" : "red"}>{row.passed ? "Réussi" : "Échoué"}</Badge>
                    </td>
                    <td className="px-4 py-3 tabular-nums">{row.attemptNumber}</td>
                    <td className="px-4 py-3">{row.submittedAt}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : results.analytics ? (
        <Analytics analytics={results.analytics} />
      ) : null}
    </section>
  );
}

function Analytics({ analytics }: { analytics: NonNullable<NonNullable<LoaderData["results"]>["analytics"]> }) {
  const { stats, distribution, questions } = analytics;
  const max = Math.max(1, ...distribution.map((bucket) => bucket.count));
  const tones = { default: "green", secondary: "amber", destructive: "red" } as const;
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <StatCard label="Tentatives" value={stats.totalAttempts} icon={<ClipboardList className="size-5" />} />
        <StatCard label="Étudiants" value={stats.uniqueStudents} icon={<Users className="size-5" />} />
        <StatCard label="Score moyen" value={formatPercent(stats.averageScore)} icon={<BarChart3 className="size-5" />} />
        <StatCard label="Réussite (tentatives)" value={formatPercent(stats.attemptPassRate)} icon={<Target className="size-5" />} />
        <StatCard label="Réussite (étudiants)" value={formatPercent(stats.studentPassRate)} icon={<Target className="size-5" />} wide />
      </dl>
      <section aria-labelledby="distribution" className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="distribution" className="font-semibold text-slate-900">
          Distribution des scores
        </h2>
        <ul className="mt-3 space-y-2">
          {distribution.map((bucket, index) => (
            <li key={bucket.label} className="grid grid-cols-[4.5rem_1fr_6rem] items-center gap-3 text-sm">
              <span className="text-slate-700">{scoreBucketLabels[index]} %</span>
              <span className="h-3 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <span className="block h-full rounded-full bg-brand-700" style={{ width: `${(bucket.count / max) * 100}%` }} />
              </span>
              <span className="text-right text-slate-900 tabular-nums">{plural(bucket.count, "tentative", "tentatives")}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="par-question" className="rounded-lg border border-slate-200 bg-white p-5">
        <h2 id="par-question" className="font-semibold text-slate-900">
          Analyse par question
        </h2>
        {questions.length === 0 ? (
          <p className="mt-2 text-slate-700">Aucune question.</p>
        ) : (
          <ol className="mt-3 divide-y divide-slate-200">
            {questions.map((question) => (
              <li key={question.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <span className="min-w-0 flex-1 basis-56 text-slate-900">
                  {question.position}. {question.question}
                </span>
                <span className="text-sm text-slate-600">
                  {question.correct}/{question.asked} bonnes réponses
                </span>
                <Badge tone={tones[question.tone]}>{formatPercent(question.rate)}</Badge>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
