import { Link } from "react-router";
import { listCategories, listLevels, listPublishedCourses } from "~/.server/catalogue";
import { dbContext } from "~/.server/context";
import { CourseCard, toCourseCardData } from "~/components/public/course-card";
import { buttonClasses } from "~/components/ui/button";
import { controlClasses, cx } from "~/components/ui/control";
import { ALL, matchesFilters, parseFilters, type CatalogueFilters } from "~/lib/catalogue-filter";
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
  const [courses, categories, levels] = await Promise.all([listPublishedCourses(db), listCategories(db), listLevels(db)]);
  const filters = normalizeFilters(parseFilters(new URL(request.url).searchParams), categories, levels);
  // The whole published list goes to the page, those the filters leave out hidden: the browser
  // filters the same cards live with the same rule (app/enhance/progressive.ts).
  // Each card's data, plus the level the filter needs.
  const cards = courses.map((course) => ({ ...toCourseCardData(course, "catalogue"), levelSlug: course.levelSlug }));
  return { courses: cards, categories, levels, filters };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Catalogue de Formations",
    description:
      "Toutes nos formations certifiantes\u00a0: intelligence artificielle, cybersécurité, data science, développement web, marketing digital, logistique, énergie solaire, agro-business et ingénierie.",
    path: "/formations",
  });

export default function Catalogue({ loaderData }: Route.ComponentProps) {
  const { courses, categories, levels, filters } = loaderData;
  const shown = new Set(courses.filter((course) => matchesFilters(course, filters)).map((course) => course.slug));
  const filtered = filters.q.trim() !== "" || filters.categorie !== ALL || filters.niveau !== ALL;

  return (
    <main>
      <section className="bg-brand-800 text-white">
        <div className="mx-auto max-w-7xl px-4 pt-12 pb-24 sm:px-6 lg:px-8">
          <p className="text-sm font-semibold tracking-wider text-accent-500 uppercase">Formations certifiantes</p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Catalogue de Formations</h1>
          <p className="mt-3 max-w-2xl text-brand-100">
            Trouvez la formation qui fera progresser votre carrière ou votre entreprise&nbsp;: recherchez par mot-clé, par catégorie ou par
            niveau.
          </p>
        </div>
      </section>

      <div className="mx-auto -mt-14 max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <form
          method="get"
          action="/formations"
          role="search"
          aria-label="Filtrer les formations"
          data-catalogue
          className="grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:p-6 md:grid-cols-12 md:items-end"
        >
          <div className="md:col-span-5">
            <label htmlFor="catalogue-q" className="block text-sm font-medium text-slate-800">
              Recherche
            </label>
            <div className="relative mt-1.5">
              <Icon
                name="search"
                className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-slate-500"
                aria-hidden="true"
              />
              <input
                id="catalogue-q"
                type="search"
                name="q"
                defaultValue={filters.q}
                maxLength={100}
                autoComplete="off"
                placeholder="Rechercher une formation..."
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
              defaultValue={filters.categorie}
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
            <select id="catalogue-niveau" name="niveau" defaultValue={filters.niveau} className={cx(controlClasses, "mt-1.5 min-h-11")}>
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
          <p role="status" aria-live="polite" data-catalogue-count className="font-semibold text-slate-800">
            {plural(shown.size, "formation trouvée", "formations trouvées")}
          </p>
          <Link
            to="/formations"
            data-catalogue-reset
            hidden={!filtered || shown.size === 0}
            className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 hover:underline"
          >
            <Icon name="rotate-ccw" className="size-4" aria-hidden="true" />
            Effacer les filtres
          </Link>
        </div>

        <ul data-catalogue-list hidden={shown.size === 0} className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((course) => (
            <li
              key={course.slug}
              data-course
              data-category={course.categorySlug}
              data-level={course.levelSlug}
              hidden={!shown.has(course.slug)}
              className="flex"
            >
              <CourseCard course={course} variant="catalogue" headingLevel="h2" />
            </li>
          ))}
        </ul>
        <div
          data-catalogue-empty
          hidden={shown.size > 0}
          className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-slate-50 px-6 py-16 text-center"
        >
          <span className="flex size-14 items-center justify-center rounded-full bg-white text-slate-500 shadow-sm">
            <Icon name="search-x" className="size-7" aria-hidden="true" />
          </span>
          <p className="mt-4 text-lg font-semibold text-slate-800">Aucune formation trouvée pour ces critères.</p>
          <p className="mt-1 text-sm text-slate-600">Essayez un autre mot-clé, ou élargissez la catégorie et le niveau.</p>
          <Link to="/formations" data-catalogue-reset className={buttonClasses({ className: "mt-6" })}>
            <Icon name="rotate-ccw" className="size-4" aria-hidden="true" />
            Réinitialiser les filtres
          </Link>
        </div>
      </div>
    </main>
  );
}
