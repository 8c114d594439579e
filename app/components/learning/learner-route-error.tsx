import { isRouteErrorResponse, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";

/**
 * What a learner's course page shows when it cannot be opened: a paused enrolment (the loaders'
 * 403) says so and how to resume; anything else is the page's own "introuvable".
 */
export function LearnerRouteError({ error, missing }: { error: unknown; missing: { title: string; text: string } }) {
  const paused = isRouteErrorResponse(error) && error.status === 403;
  return (
    <div role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold text-slate-900">{paused ? "Formation en pause" : missing.title}</h1>
      <p className="mt-1 text-slate-700">
        {paused ? "Votre inscription est en pause : contactez l'institut pour la reprendre." : missing.text}
      </p>
      <Link to="/dashboard/formations" className={buttonClasses({ variant: "outline", size: "sm", className: "mt-3" })}>
        Mes Formations
      </Link>
    </div>
  );
}
