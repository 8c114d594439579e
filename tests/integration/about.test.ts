import { asc, eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAboutPage } from "~/.server/about";
import { dbContext } from "~/.server/context";
import type { DatabaseHandle } from "~/.server/db/client";
import { instituteHighlights, quotes, teamMembers } from "~/.server/db/schema";
import { seedDatabase } from "~/.server/db/seed";
import { loader } from "~/routes/public/a-propos";
import { createTestDatabase } from "../setup/db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const allRows = async () => ({
  highlights: await handle.db.select().from(instituteHighlights).orderBy(asc(instituteHighlights.id)),
  teamMembers: await handle.db.select().from(teamMembers).orderBy(asc(teamMembers.id)),
  quotes: await handle.db.select().from(quotes).orderBy(asc(quotes.id)),
});

async function runLoader() {
  const context = new RouterContextProvider();
  context.set(dbContext, handle.db);
  const request = new Request("http://campus.test/a-propos");
  return loader({ request, context, params: {} } as never);
}

describe("about page seed", () => {
  it("creates the 4 highlights, 3 leaders and 3 quotes in order", async () => {
    const page = await getAboutPage(handle.db);
    expect(page.highlights.map(({ value, suffix, label }) => ({ value, suffix, label }))).toEqual([
      { value: 2500, suffix: "+", label: "Étudiants formés" },
      { value: 1800, suffix: "+", label: "Certifications délivrées" },
      { value: 25, suffix: "+", label: "Partenaires internationaux" },
      { value: 15, suffix: "+", label: "Années d'expérience" },
    ]);
    expect(page.leaders.map((leader) => [leader.name, leader.role, leader.experienceYears, leader.projectsCount])).toEqual([
      ["Dr Mamadou Keïta", "Directeur général", 20, 150],
      ["Aminata Diarra", "Directrice des études et de la pédagogie", 18, 100],
      ["Ibrahim Coulibaly", "Directeur technique et de l'innovation", 15, 200],
    ]);
    expect(page.leaders[0]).toMatchObject({
      expertise: "Stratégie et transformation numérique",
      specialties: ["Transformation numérique", "Partenariats internationaux", "Gouvernance des projets"],
      achievement: "A conduit plus de 150 programmes de formation pour des entreprises maliennes et ouest-africaines.",
    });
    expect(page.leaders[0]!.description).toMatch(/^Ingénieur de formation et docteur en informatique/);
    for (const leader of page.leaders) expect(leader.specialties).toHaveLength(3);
    expect(page.quotes.map(({ text, author, authorRole }) => ({ text, author, authorRole }))).toEqual([
      {
        text: "Former les talents d'aujourd'hui, c'est bâtir l'économie malienne de demain.",
        author: "Dr Mamadou Keïta",
        authorRole: "Directeur général",
      },
      {
        text: "Chaque apprenant mérite une formation exigeante, concrète et reconnue par les entreprises.",
        author: "Aminata Diarra",
        authorRole: "Directrice des études et de la pédagogie",
      },
      {
        text: "L'intelligence artificielle et la cybersécurité ne sont plus l'avenir : ce sont les compétences du présent.",
        author: "Ibrahim Coulibaly",
        authorRole: "Directeur technique et de l'innovation",
      },
    ]);
  });

  it("changes nothing when it runs twice", async () => {
    const before = await allRows();
    await seedDatabase(handle.db);
    await seedDatabase(handle.db);
    expect(await allRows()).toEqual(before);
  });

  it("keeps later edits, and puts back only what is missing", async () => {
    await handle.db.update(instituteHighlights).set({ value: 3100 }).where(eq(instituteHighlights.key, "students-trained"));
    await handle.db
      .update(teamMembers)
      .set({ name: "Dr Awa Sidibé", specialties: ["Gouvernance"] })
      .where(eq(teamMembers.key, "mamadou-keita"));
    await handle.db.update(quotes).set({ text: "Apprendre, c'est entreprendre." }).where(eq(quotes.key, "director-general"));
    await handle.db.delete(quotes).where(eq(quotes.key, "technical-director"));
    await seedDatabase(handle.db);

    const page = await getAboutPage(handle.db);
    expect(page.highlights[0]).toMatchObject({ value: 3100, label: "Étudiants formés" });
    expect(page.highlights).toHaveLength(4);
    expect(page.leaders[0]).toMatchObject({ name: "Dr Awa Sidibé", specialties: ["Gouvernance"] });
    expect(page.leaders).toHaveLength(3);
    expect(page.quotes.map((quote) => quote.text)).toEqual([
      "Apprendre, c'est entreprendre.",
      "Chaque apprenant mérite une formation exigeante, concrète et reconnue par les entreprises.",
      "L'intelligence artificielle et la cybersécurité ne sont plus l'avenir : ce sont les compétences du présent.",
    ]);
  });
});

describe("about page data", () => {
  it("the loader reads the figures, leaders and quotes from the tables, in their stored order", async () => {
    await handle.db
      .update(instituteHighlights)
      .set({ value: 42, suffix: " %", label: "Taux d'insertion" })
      .where(eq(instituteHighlights.key, "international-partners"));
    await handle.db.update(teamMembers).set({ experienceYears: 31, projectsCount: 420 }).where(eq(teamMembers.key, "ibrahim-coulibaly"));
    // Reorder: the last quote first.
    await handle.db.update(quotes).set({ position: 0 }).where(eq(quotes.key, "technical-director"));

    const data = await runLoader();
    expect(data.highlights.map((highlight) => [highlight.value, highlight.suffix, highlight.label])).toEqual([
      [3100, "+", "Étudiants formés"],
      [1800, "+", "Certifications délivrées"],
      [42, " %", "Taux d'insertion"],
      [15, "+", "Années d'expérience"],
    ]);
    expect(data.leaders[2]).toMatchObject({ name: "Ibrahim Coulibaly", experienceYears: 31, projectsCount: 420 });
    expect(data.quotes[0]!.author).toBe("Ibrahim Coulibaly");
    expect(data.institute.shortName).toBe("ICEF");
  });

  it("returns empty lists when the institute removes every row (the page then hides those sections)", async () => {
    await handle.db.delete(instituteHighlights);
    await handle.db.delete(quotes);
    const data = await runLoader();
    expect(data.highlights).toEqual([]);
    expect(data.quotes).toEqual([]);
    expect(data.leaders).toHaveLength(3);
  });
});
