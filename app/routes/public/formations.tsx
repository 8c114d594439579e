import { useEffect, useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { listCategories, listLevels, listPublishedCourses } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { CourseCard, toCourseCardData } from "~/components/public/course-card";
import { skipPublicRevalidation } from "~/components/public/revalidate";
import { buttonClasses } from "~/components/ui/button";
import { controlClasses, cx } from "~/components/ui/control";
import {
  ALL,
  filtersToSearch,
  matchesFilters,
  parseFilters,
  type CatalogueFilters,
} from "~/lib/catalogue-filter";
import { plural } from "~/lib/format";
import { pageMeta } from "~/lib/seo";
import type { Route } from "./+types/formations";
import { Icon } from "~/components/public/icon";

interface Option {
  slug: string;
  name: string;
}

/** A category or level that is not in the list (an old or mistyped link) falls back to "all". */
function normalizeFilters(filters: CatalogueFilters, categories: Option[], levels: Option[]): CatalogueFilters {
  return {
    q: filters.q,
    categorie: categories.some((option) => option.slug === filters.categorie) ? filters.categorie : ALL,
    niveau: levels.some((option) => option.slug === filters.niveau) ? filters.niveau : ALL,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const [courses, categories, levels] = await Promise.all([
    listPublishedCourses(db),
    listCategories(db),
    listLevels(db),
  ]);
  const filters = normalizeFilters(parseFilters(new URL(request.url).searchParams), categories, levels);
  // The whole published list goes to the page: the server renders the filtered view, and the
  // browser filters the same list live with the same rule.
  // Each card's data, plus the level the filter needs.
  const cards = courses.map((course) => ({ ...toCourseCardData(course, "catalogue"), levelSlug: course.levelSlug }));
  return { courses: cards, categories, levels, filters };
}

/** Filtering happens in the browser: moving the query string needs no new data. */
export const shouldRevalidate = skipPublicRevalidation;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Catalogue de Formations",
    description:
      "Toutes nos formations certifiantes\u00a0: intelligence artificielle, cybersécurité, data science, développement web, marketing digital, logistique, énergie solaire, agro-business et ingénierie.",
    path: "/formations",
  });

export default function Catalogue({ loaderData }: Route.ComponentProps) {
  const { courses, categories, levels } = loaderData;
  const [filters, setFilters] = useState<CatalogueFilters>(loaderData.filters);
  const [, setSearchParams] = useSearchParams();
  const location = useLocation();

  // The URL changed under us (back/forward, a footer link, the reset link): follow it. Our own
  // updates carry a state marker and are skipped, so fast typing never races the URL.
  useEffect(() => {
    if ((location.state as { fromFilters?: boolean } | null)?.fromFilters) return;
    const fromUrl = normalizeFilters(parseFilters(new URLSearchParams(location.search)), categories, levels);
    setFilters((current) =>
      current.q === fromUrl.q && current.categorie === fromUrl.categorie && current.niveau === fromUrl.niveau
        ? current
        : fromUrl,
    );
  }, [location.search, location.state, categories, levels]);

  function update(change: Partial<CatalogueFilters>) {
    const next = { ...filters, ...change };
    setFilters(next);
    setSearchParams(new URLSearchParams(filtersToSearch(next)), {
      replace: true,
      preventScrollReset: true,
      state: { fromFilters: true },
    });
  }

  const results = courses.filter((course) => matchesFilters(course, filters));
  const filtered = filters.q.trim() !== "" || filters.categorie !== ALL || filters.niveau !== ALL;

  return (
    <main>
      <section className="bg-brand-800 text-white">
        <div className="mx-auto max-w-7xl px-4 pt-12 pb-24 sm:px-6 lg:px-8">
          <p className="text-sm font-semibold tracking-wider text-accent-500 uppercase">Formations certifiantes</p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Catalogue de Formations</h1>
          <p className="mt-3 max-w-2xl text-brand-100">
            Trouvez la formation qui fera progresser votre carrière ou votre entreprise&nbsp;: recherchez par mot-clé, par
            catégorie ou par niveau.
          </p>
        </div>
      </section>

      <div className="mx-auto -mt-14 max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <form
          method="get"
          action="/formations"
          role="search"
          aria-label="Filtrer les formations"
          className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:p-6 md:grid-cols-12 md:items-end"
          onSubmit={(event) => {
            // With JavaScript the list already follows the controls.
            event.preventDefault();
          }}
        >
          <div className="md:col-span-5">
            <label htmlFor="catalogue-q" className="block text-sm font-medium text-slate-800">
              Recherche
            </label>
            <div className="relative mt-1.5">
              <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500" aria-hidden="true" />
              <input
                id="catalogue-q"
                type="search"
                name="q"
                value={filters.q}
                maxLength={100}
                autoComplete="off"
                placeholder="Rechercher une formation..."
                onChange={(event) => update({ q: event.target.value })}
                className={cx(controlClasses, "min-h-11 pl-10")}
              />
            </div>
          </div>
          <div className="md:col-span-3">
            <label htmlFor="catalogue-categorie" className="block text-sm font-medium text-slate-800">
              Catégorie
            </label>
            <select
              id="catalogue-categorie"
              name="categorie"
              value={filters.categorie}
              onChange={(event) => update({ categorie: event.target.value })}
              className={cx(controlClasses, "mt-1.5 min-h-11")}
            >
              <option value={ALL}>Toutes les catégories</option>
              {categories.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {category.name}
                </option>
              ))}
            </select>
          </div>
          <div className="md:col-span-3">
            <label htmlFor="catalogue-niveau" className="block text-sm font-medium text-slate-800">
              Niveau
            </label>
            <select
              id="catalogue-niveau"
              name="niveau"
              value={filters.niveau}
              onChange={(event) => update({ niveau: event.target.value })}
              className={cx(controlClasses, "mt-1.5 min-h-11")}
            >
              <option value={ALL}>Tous les niveaux</option>
              {levels.map((level) => (
                <option key={level.slug} value={level.slug}>
                  {level.name}
                </option>
              ))}
            </select>
          </div>
          <div className="md:col-span-1">
            <button type="submit" className={buttonClasses({ variant: "outline", className: "w-full" })}>
              Filtrer
            </button>
          </div>
        </form>

        <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
          <p role="status" aria-live="polite" className="font-semibold text-slate-800">
            {plural(results.length, "formation trouvée", "formations trouvées")}
          </p>
          {filtered && results.length > 0 ? (
            <Link
              to="/formations"
              preventScrollReset
              className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 hover:underline"
            >
              <Icon name="rotate-ccw" className="size-4" aria-hidden="true" />
              Effacer les filtres
            </Link>
          ) : null}
        </div>

        {results.length > 0 ? (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {results.map((course) => (
              <li key={course.slug} className="flex">
                <CourseCard course={course} variant="catalogue" headingLevel="h2" />
              </li>
            ))}
          </ul>
        ) : (
          <div className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center">
            <span className="flex size-14 items-center justify-center rounded-full bg-white text-slate-500 shadow-sm">
              <Icon name="search-x" className="size-7" aria-hidden="true" />
            </span>
            <p className="mt-4 text-lg font-semibold text-slate-800">Aucune formation trouvée pour ces critères.</p>
            <p className="mt-1 text-sm text-slate-600">Essayez un autre mot-clé, ou élargissez la catégorie et le niveau.</p>
            <Link to="/formations" preventScrollReset className={buttonClasses({ className: "mt-6" })}>
              <Icon name="rotate-ccw" className="size-4" aria-hidden="true" />
              Réinitialiser les filtres
            </Link>
          </div>
        )}
      </div>
    </main>
  );
}

