import { CircleCheck, CircleX } from "~/components/icons";
import { Form, Link, href } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { plural } from "~/lib/format";
import { formatPercent } from "~/lib/quiz";

/** A question of a graded attempt, with the right answer, as the correction shows it. */
export type Correction = {
  id: string;
  question: string;
  correct: boolean;
  given: string;
  expected: string;
  explanation: string;
};

export type GradedAttemptData = {
  course: { slug: string };
  quiz: { passingScore: number; required: boolean };
  attempt: { expired: boolean; submittedAt: string | null; score: number; passed: boolean };
  earnedPoints: number;
  totalPoints: number;
  attemptsLeft: number;
  corrections: Correction[] | null;
  /** While the correction is withheld: which of the attempt's questions were right, nothing more. */
  outcomes: Array<{ id: string; question: string; correct: boolean }> | null;
  /** While the correction is withheld: when it opens. */
  correctionsLater: string | null;
};

/**
 * A graded attempt: the verdict, what comes next, and the corrections once the quiz opens them to
 * this learner; until then, which questions were right or wrong and when the correction opens.
 */
export function GradedAttempt({
  quiz,
  attempt,
  earnedPoints,
  totalPoints,
  attemptsLeft,
  corrections,
  outcomes,
  correctionsLater,
  course,
  base,
}: GradedAttemptData & { base: string }) {
  return (
    <>
      <section
        aria-labelledby="verdict"
        className={`rounded-lg border p-5 ${attempt.passed ? "border-emerald-300 bg-emerald-50" : "border-red-200 bg-red-50"}`}
      >
        <h2 id="verdict" className="flex items-center gap-2 text-xl font-bold text-slate-900">
          {attempt.passed ? (
            <CircleCheck aria-hidden="true" className="size-6 text-emerald-700" />
          ) : (
            <CircleX aria-hidden="true" className="size-6 text-red-700" />
          )}
          {attempt.passed ? "Réussi" : "Échoué"} · {formatPercent(attempt.score)}
        </h2>
        <p className="mt-2 text-slate-800">
          {plural(earnedPoints, "point obtenu", "points obtenus")} sur {totalPoints} · score requis {formatPercent(quiz.passingScore)}
          {attempt.submittedAt ? ` · ${attempt.expired ? "temps écoulé le" : "envoyé le"} ${attempt.submittedAt}` : ""}
        </p>
        {attempt.expired ? (
          <p className="mt-2 text-sm text-slate-700">Le temps était écoulé : seules les réponses enregistrées avant la fin ont compté.</p>
        ) : null}
        <div className="mt-4 flex flex-col gap-2 sm:flex-row">
          {attemptsLeft > 0 && !attempt.passed ? (
            <Form method="post" action={base}>
              <button type="submit" className={buttonClasses({ className: "w-full sm:w-auto" })}>
                Nouvelle tentative ({plural(attemptsLeft, "restante", "restantes")})
              </button>
            </Form>
          ) : null}
          <Link to={href("/dashboard/formations/:slug", { slug: course.slug })} className={buttonClasses({ variant: "outline" })}>
            Retour à la formation
          </Link>
          {attempt.passed && quiz.required ? (
            <Link to="/dashboard/certificates" className={buttonClasses({ variant: "ghost" })}>
              Mes certificats
            </Link>
          ) : null}
        </div>
      </section>

      {corrections ? (
        <section aria-labelledby="corrections" className="space-y-3">
          <h2 id="corrections" className="text-lg font-semibold text-slate-900">
            Corrections
          </h2>
          <ol className="space-y-3">
            {corrections.map((item, index) => (
              <li key={item.id} className="rounded-lg border border-slate-200 bg-white p-4">
                <p className="flex flex-wrap items-start justify-between gap-2">
                  <span className="font-semibold text-slate-900">
                    {index + 1}. {item.question}
                  </span>
                  <Badge tone={item.correct ? "green" : "red"}>{item.correct ? "Bonne réponse" : "Réponse fausse"}</Badge>
                </p>
                <dl className="mt-2 grid gap-1 text-sm text-slate-800">
                  <div>
                    <dt className="inline font-medium">Votre réponse : </dt>
                    <dd className="inline">{item.given}</dd>
                  </div>
                  {!item.correct ? (
                    <div>
                      <dt className="inline font-medium">Réponse attendue : </dt>
                      <dd className="inline">{item.expected}</dd>
                    </div>
                  ) : null}
                  {item.explanation ? (
                    <div className="mt-1 rounded-md bg-slate-50 p-2">
                      <dt className="sr-only">Explication</dt>
                      <dd>{item.explanation}</dd>
                    </div>
                  ) : null}
                </dl>
              </li>
            ))}
          </ol>
        </section>
      ) : (
        <section aria-labelledby="vos-questions" className="space-y-3">
          <h2 id="vos-questions" className="text-lg font-semibold text-slate-900">
            Vos questions
          </h2>
          {correctionsLater ? <p className="rounded-md bg-sky-50 px-4 py-3 text-sky-950">{correctionsLater}</p> : null}
          <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {(outcomes ?? []).map((item, index) => (
              <li key={item.id} className="flex flex-wrap items-start justify-between gap-2 p-4">
                <span className="min-w-0 flex-1 basis-56 text-slate-900">
                  {index + 1}. {item.question}
                </span>
                <Badge tone={item.correct ? "green" : "red"}>{item.correct ? "Bonne réponse" : "Réponse fausse"}</Badge>
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}
