import { Search } from "~/components/icons";
import { Form, Link } from "react-router";
import { dbContext, userContext } from "~/.server/context";
import { globalSearch } from "~/.server/search";
import { Button } from "~/components/ui/button";
import { LIMITS } from "~/lib/limits";
import { searchQuerySchema } from "~/lib/schemas";
import type { Route } from "./+types/recherche";

/**
 * /dashboard/recherche and /teacher/recherche: what the top bar's search box finds, by section
 * (formations, forum, and people for administrators). A plain GET form: it works without
 * JavaScript, and a result is a link.
 */

export async function loader({ url, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const q = searchQuerySchema.parse(url.searchParams.get("q") ?? undefined);
  return { q, sections: await globalSearch(context.get(dbContext), user, q), action: url.pathname };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.q ? `« ${loaderData.q} » · Recherche` : "Recherche" }];
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { q, sections, action } = loaderData;
  const found = sections.reduce((total, section) => total + section.hits.length, 0);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">Recherche</h1>
      <Form method="get" action={action} role="search" aria-label="Recherche" className="flex gap-2">
        <label htmlFor="recherche-page" className="sr-only">
          Rechercher des formations, des sujets du forum
        </label>
        <div className="relative min-w-0 flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
          <input
            id="recherche-page"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={LIMITS.search}
            placeholder="Formations, sujets du forum…"
            className="w-full rounded-md border border-slate-300 py-2 pr-3 pl-9"
          />
        </div>
        <Button type="submit">Rechercher</Button>
      </Form>

      {!q ? (
        <p className="text-slate-700">Tapez un mot : un titre de formation, un sujet du forum{sections.length > 2 ? ", un nom" : ""}.</p>
      ) : found === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-center text-slate-700" role="status">
          Aucun résultat pour « {q} ».
        </p>
      ) : (
        sections.map((section) => (
          <section key={section.key} aria-labelledby={`resultats-${section.key}`} className="space-y-2">
            <h2 id={`resultats-${section.key}`} className="text-lg font-semibold text-slate-900">
              {section.label}
            </h2>
            {section.hits.length === 0 ? (
              <p className="text-sm text-slate-600">Aucun résultat dans cette section.</p>
            ) : (
              <ul
                className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white"
                data-testid={`resultats-${section.key}`}
              >
                {section.hits.map((hit) => (
                  <li key={hit.href}>
                    <Link to={hit.href} className="block px-4 py-3 hover:bg-slate-50">
                      <span className="block font-medium text-brand-800">{hit.title}</span>
                      <span className="block text-sm text-slate-600">{hit.detail}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {section.more && (
              <Link to={section.more} className="inline-block text-sm font-medium text-brand-700 underline underline-offset-2">
                Voir tous les résultats ({section.label.toLowerCase()})
              </Link>
            )}
          </section>
        ))
      )}
    </div>
  );
}
