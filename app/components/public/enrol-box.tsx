import { Link, href } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { formatPrice } from "~/lib/format";
import { enrolHref } from "./links";

/**
 * Where the visitor stands with a course: already following it, or may they still enrol, and must
 * they pay. `closed`: a draft or archived course, which its teacher and the administrators preview.
 */
export type EnrolState = { slug: string; priceFcfa: number; following: boolean; full: boolean; closed?: boolean };

/**
 * The price box of a course page: "S'inscrire" (with the ways to pay when there is something to
 * pay), "Continuer" for a learner who already follows it, "Complet" when no seat is left, and no
 * enrolment on the preview of a course that is not published.
 */
export function EnrolBox({ slug, priceFcfa, following, full, closed = false }: EnrolState) {
  const free = priceFcfa <= 0;
  return (
    <>
      <p className="mt-2 text-3xl font-extrabold text-brand-700">{formatPrice(priceFcfa)}</p>
      {following ? (
        <>
          <p className="mt-1 text-sm text-slate-600">Vous suivez cette formation.</p>
          <Link to={href("/dashboard/formations/:slug", { slug })} className={buttonClasses({ size: "lg", className: "mt-6 w-full" })}>
            Continuer
          </Link>
        </>
      ) : full || closed ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {closed ? "Les inscriptions ouvriront quand le cours sera publié." : "Toutes les places de cette session sont prises."}
          </p>
          <p
            aria-disabled="true"
            className={buttonClasses({ size: "lg", variant: "outline", className: "mt-6 w-full cursor-not-allowed opacity-80" })}
          >
            {closed ? "Inscriptions fermées" : "Complet"}
          </p>
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {free
              ? "Aucun paiement : la formation s'ouvre dès l'inscription."
              : "Mobile money, carte bancaire ou espèces dans nos bureaux."}
          </p>
          <Link to={enrolHref(slug)} className={buttonClasses({ size: "lg", className: "mt-6 w-full" })}>
            S'inscrire
          </Link>
        </>
      )}
    </>
  );
}
