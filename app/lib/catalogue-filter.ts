import { foldText } from "./text";

/** The catalogue's matching rule, shared by the server render and the live filter in the browser. */

export interface CatalogueFilters {
  q: string;
  categorie: string;
  niveau: string;
}

export interface FilterableCourse {
  title: string;
  description: string;
  categorySlug: string;
  levelSlug: string;
}

export const ALL = "all";
export const emptyFilters: CatalogueFilters = { q: "", categorie: ALL, niveau: ALL };

export function parseFilters(params: URLSearchParams): CatalogueFilters {
  return {
    q: (params.get("q") ?? "").slice(0, 100),
    categorie: params.get("categorie") || ALL,
    niveau: params.get("niveau") || ALL,
  };
}

/** Query string for a filter state, leaving out what is at its initial value. */
export function filtersToSearch(filters: CatalogueFilters): string {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set("q", filters.q);
  if (filters.categorie !== ALL) params.set("categorie", filters.categorie);
  if (filters.niveau !== ALL) params.set("niveau", filters.niveau);
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** Search text in title or description ignoring case and accents; category and level are "all" or equal. */
export function matchesFilters(course: FilterableCourse, filters: CatalogueFilters): boolean {
  const needle = foldText(filters.q.trim());
  const textMatches = !needle || foldText(course.title).includes(needle) || foldText(course.description).includes(needle);
  const categoryMatches = filters.categorie === ALL || filters.categorie === course.categorySlug;
  const levelMatches = filters.niveau === ALL || filters.niveau === course.levelSlug;
  return textMatches && categoryMatches && levelMatches;
}
