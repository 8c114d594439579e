import { BarChart3, ClipboardList, Download, Target, Users } from "~/components/icons";
import { href, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { FilterBar } from "~/components/ui/filter-bar";
import { StatCard } from "~/components/ui/stat-card";
import { LinkTabs } from "~/components/ui/tabs";
import { plural } from "~/lib/format";
import { formatPercent, scoreBucketLabels, type questionAnalysis, type quizStats, type scoreDistribution } from "~/lib/quiz";

const PATH = "/teacher/quiz";

/** One graded attempt of the results list, its date written out. */
export type QuizResultRow = {
  id: number;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  score: number;
  passed: boolean;
  attemptNumber: number;
  submittedAt: string;
};

export type QuizAnalyticsData = {
  stats: ReturnType<typeof quizStats>;
  distribution: ReturnType<typeof scoreDistribution>;
  questions: ReturnType<typeof questionAnalysis>;
};

/** The "Résultats" tab of one quiz: its list (filtered, sorted) or its analytics. */
export type QuizResultsData = {
  quizId: number;
  view: "liste" | "analytics";
  filters: { statut: "tous" | "reussi" | "echoue"; tri: "date" | "score" | "tentative" };
  rows: QuizResultRow[];
  analytics: QuizAnalyticsData | null;
};

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

/** The "Résultats" tab of /teacher/quiz: one quiz chosen, its results as a list or its analytics, and the CSV. */
export function QuizResults({
  quizzes,
  results,
}: {
  quizzes: Array<{ id: number; title: string; courseTitle: string }>;
  results: QuizResultsData | null;
}) {
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

function Analytics({ analytics }: { analytics: QuizAnalyticsData }) {
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
