import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Icon } from "~/components/public/icon";

/** The French 404 content, rendered inside the public layout (header and footer kept). */
export function NotFoundContent({ message }: { message?: string }) {
  return (
    <main className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center sm:py-24">
      <p className="text-7xl font-extrabold text-brand-700 sm:text-8xl" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl">Oups&nbsp;! Page introuvable</h1>
      <p className="mt-3 text-slate-700">
        {message ??
          "La page que vous cherchez n'existe pas ou a été déplacée. Vérifiez l'adresse, ou continuez depuis l'accueil ou notre catalogue de formations."}
      </p>
      <div className="mt-8 flex w-full flex-col justify-center gap-3 sm:w-auto sm:flex-row">
        <Link to="/" className={buttonClasses({ size: "lg" })}>
          <Icon name="arrow-left" className="size-5" aria-hidden="true" />
          Retour à l'accueil
        </Link>
        <Link to="/formations" className={buttonClasses({ variant: "outline", size: "lg" })}>
          <Icon name="book-open" className="size-5" aria-hidden="true" />
          Voir les formations
        </Link>
      </div>
    </main>
  );
}
