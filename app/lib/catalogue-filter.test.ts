import { describe, expect, it } from "vitest";
import { emptyFilters, filtersToSearch, matchesFilters, parseFilters } from "./catalogue-filter";

const ai = {
  title: "Intelligence Artificielle",
  description: "Maîtrisez le machine learning",
  categorySlug: "tech",
  levelSlug: "avance",
};

describe("matchesFilters", () => {
  it("matches everything with the initial filters", () => {
    expect(matchesFilters(ai, emptyFilters)).toBe(true);
  });
  it("finds the text in the title or the description, ignoring case", () => {
    expect(matchesFilters(ai, { ...emptyFilters, q: "intelligence" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, q: "MACHINE" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, q: "MAÎTRISEZ" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, q: "solaire" })).toBe(false);
  });
  it("ignores accents on both sides: typed without them, or typed with them", () => {
    const web = { title: "Développement Web", description: "Sécurité des applications", categorySlug: "tech", levelSlug: "debutant" };
    expect(matchesFilters(web, { ...emptyFilters, q: "developpement" })).toBe(true);
    expect(matchesFilters(web, { ...emptyFilters, q: "SECURITE" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, q: "maitrisez" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, q: "intélligence" })).toBe(true);
  });
  it("requires the category and the level to be all or equal", () => {
    expect(matchesFilters(ai, { ...emptyFilters, categorie: "tech" })).toBe(true);
    expect(matchesFilters(ai, { ...emptyFilters, categorie: "marketing" })).toBe(false);
    expect(matchesFilters(ai, { ...emptyFilters, niveau: "debutant" })).toBe(false);
    expect(matchesFilters(ai, { q: "intel", categorie: "tech", niveau: "avance" })).toBe(true);
    expect(matchesFilters(ai, { q: "intel", categorie: "tech", niveau: "debutant" })).toBe(false);
  });
});

describe("filters in the URL", () => {
  it("round-trips and omits initial values", () => {
    const filters = { q: "web", categorie: "tech", niveau: "all" };
    expect(filtersToSearch(filters)).toBe("?q=web&categorie=tech");
    expect(parseFilters(new URLSearchParams("q=web&categorie=tech"))).toEqual(filters);
    expect(filtersToSearch(emptyFilters)).toBe("");
  });
  it("bounds an over-long search text", () => {
    expect(parseFilters(new URLSearchParams({ q: "x".repeat(5000) })).q).toHaveLength(100);
  });
});
