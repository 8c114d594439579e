import { ClipboardCheck } from "~/components/icons";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClasses } from "~/components/ui/button";
import { plural } from "~/lib/format";
import { formatPercent } from "~/lib/quiz";

export type LearnerQuizItem = {
  id: number;
  title: string;
  questionCount: number;
  timeLimitMinutes: number | null;
  maxAttempts: number;
  passingScore: number;
  required: boolean;
  attemptsUsed: number;
  bestScore: number | null;
  passed: boolean;
  inProgressId: number | null;
};

/** A course's quizzes for its learner (course home, lesson player): verdict so far and the way in. */
export function LearnerQuizList({ slug, quizzes }: { slug: string; quizzes: LearnerQuizItem[] }) {
  return (
    <ul className="space-y-3">
      {quizzes.map((quiz) => {
        const href = `/dashboard/formations/${slug}/quiz/${quiz.id}`;
        const left = quiz.maxAttempts - quiz.attemptsUsed;
        const label = quiz.inProgressId
          ? "Reprendre"
          : quiz.passed
            ? "Voir mes résultats"
            : quiz.attemptsUsed === 0
              ? "Commencer"
              : left > 0
                ? "Réessayer"
                : "Voir mes résultats";
        return (
          <li key={quiz.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-4">
            <ClipboardCheck aria-hidden="true" className="size-6 shrink-0 text-brand-700" />
            <div className="min-w-0 flex-1 basis-48">
              <p className="font-semibold text-slate-900">{quiz.title}</p>
              <p className="text-sm text-slate-600">
                {plural(quiz.questionCount, "question", "questions")}
                {quiz.timeLimitMinutes !== null ? ` · ${quiz.timeLimitMinutes} min, avec une connexion (pas hors ligne)` : ""} · score
                requis {formatPercent(quiz.passingScore)} · {plural(Math.max(0, left), "tentative restante", "tentatives restantes")}
              </p>
              <p className="mt-1 flex flex-wrap gap-2">
                {quiz.required ? <Badge tone="amber">Obligatoire</Badge> : null}
                {quiz.inProgressId ? <Badge tone="blue">En cours</Badge> : null}
                {quiz.bestScore !== null ? (
                  <Badge tone={quiz.passed ? "green" : "red"}>
                    {quiz.passed ? "Réussi" : "Pas encore réussi"} · {formatPercent(quiz.bestScore)}
                  </Badge>
                ) : null}
              </p>
            </div>
            <Link to={href} className={buttonClasses({ variant: quiz.passed ? "outline" : "primary", size: "sm" })}>
              {label}
              <span className="sr-only"> : {quiz.title}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
