import { Link, data, isRouteErrorResponse } from "react-router";
import { NotFoundContent } from "~/components/public/not-found";
import { buttonClasses } from "~/components/ui/button";
import type { Route } from "./+types/not-found";

/**
 * Catch-all route under the public layout: any unknown path answers 404. The loader throws, so
 * this module's ErrorBoundary renders the page inside the layout (header and footer kept).
 */
export function loader() {
  throw data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Page introuvable" }, { name: "robots", content: "noindex" }];

export default function NotFound() {
  return <NotFoundContent />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundContent />;
  console.error(error);
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-20 text-center">
      <title>Erreur</title>
      <h1 className="text-2xl font-semibold text-slate-900">Une erreur est survenue</h1>
      <p className="text-slate-700">Nous n'avons pas pu afficher cette page. Réessayez dans un instant.</p>
      <Link to="/" className={buttonClasses()}>
        Retour à l'accueil
      </Link>
    </main>
  );
}
