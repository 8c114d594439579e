import { Link, isRouteErrorResponse } from "react-router";
import { buttonClasses } from "~/components/ui/button";

const titles: Record<number, string> = {
  403: "Accès refusé",
  404: "Page introuvable",
  405: "Cette adresse n'est pas une page",
};

/**
 * An error page of a signed-in area (/dashboard, /admin, /teacher), drawn inside the area's
 * layout: the status, the server's French message (app/.server/http/errors.ts), and a way back:
 * the page the error names (`back` in its data), and the area's home.
 */
export function AreaError({ error, home }: { error: unknown; home: { to: string; label: string } }) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const payload =
    isRouteErrorResponse(error) && error.data && typeof error.data === "object" ? (error.data as Record<string, unknown>) : {};
  const message = typeof payload.message === "string" ? payload.message : null;
  const back = typeof payload.back === "string" && payload.back.startsWith("/") && !payload.back.startsWith("//") ? payload.back : null;
  const title = titles[status] ?? "Une erreur est survenue";
  return (
    <div role="alert" className="mx-auto max-w-xl space-y-4 rounded-lg border border-slate-200 bg-white p-6 text-slate-900">
      <title>{`${title} · Campus`}</title>
      <p className="text-sm font-semibold text-brand-700">Erreur {status}</p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-slate-700">{message ?? "Nous n'avons pas pu afficher cette page. Réessayez dans un instant."}</p>
      <p className="flex flex-wrap gap-2">
        {back ? (
          <Link to={back} className={buttonClasses()}>
            Aller à la page du formulaire
          </Link>
        ) : null}
        <Link to={home.to} className={buttonClasses({ variant: back ? "outline" : "primary" })}>
          {home.label}
        </Link>
      </p>
    </div>
  );
}
