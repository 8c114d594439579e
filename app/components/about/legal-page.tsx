import TriangleAlert from "lucide-react/icons/triangle-alert";
import type { ReactNode } from "react";
import { Link } from "react-router";

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** Layout of the privacy, terms and legal-notice pages. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <main className="px-4 py-12 sm:py-16">
      <article className="mx-auto max-w-3xl">
        <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">{title}</h1>
        <div role="note" className="mt-6 flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
          <TriangleAlert className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>
            <strong>Texte provisoire.</strong> Ce document est un modèle : il doit être complété et validé par le service juridique de
            l'institut avant la mise en service du site.
          </p>
        </div>
        <div className="mt-6 text-lg leading-relaxed text-slate-700">{intro}</div>
        <nav aria-label="Sommaire" className="mt-8 rounded-lg bg-slate-50 p-5">
          <h2 className="font-semibold text-slate-900">Sommaire</h2>
          <ol className="mt-2 list-decimal space-y-1 pl-5">
            {sections.map((section, index) => (
              <li key={section.title}>
                <a href={`#section-${index + 1}`} className="text-brand-700 hover:underline">
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section, index) => (
          <section key={section.title} id={`section-${index + 1}`} className="mt-10 scroll-mt-20">
            <h2 className="text-xl font-semibold text-slate-900">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-3 space-y-3 leading-relaxed text-slate-700 [&_a]:text-brand-700 [&_a]:underline [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">
              {section.body}
            </div>
          </section>
        ))}
        <p className="mt-12 border-t border-slate-200 pt-6 text-sm text-slate-600">
          Voir aussi :{" "}
          <Link to="/mentions-legales" className="text-brand-700 underline">
            mentions légales
          </Link>
          ,{" "}
          <Link to="/confidentialite" className="text-brand-700 underline">
            politique de confidentialité
          </Link>
          ,{" "}
          <Link to="/conditions-utilisation" className="text-brand-700 underline">
            conditions d'utilisation
          </Link>
          .
        </p>
      </article>
    </main>
  );
}
