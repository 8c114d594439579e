import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";

const QUOTE_1 = "Former les talents d'aujourd'hui, c'est bâtir l'économie malienne de demain.";
const QUOTE_2 = "Chaque apprenant mérite une formation exigeante, concrète et reconnue par les entreprises.";
const QUOTE_3 = "L'intelligence artificielle et la cybersécurité ne sont plus l'avenir : ce sont les compétences du présent.";

test("the about page shows the institute from the database and every section", async ({ page }) => {
  const response = await page.goto("/a-propos");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("À propos | ICEF");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("À propos de l'ICEF");
  await expect(main.getByText("Œuvre de la CCIM").first()).toBeVisible();

  for (const [value, label] of [
    ["2\u00a0500+", "Étudiants formés"],
    ["1\u00a0800+", "Certifications délivrées"],
    ["25+", "Partenaires internationaux"],
    ["15+", "Années d'expérience"],
  ]) {
    await expect(main.getByRole("definition").filter({ hasText: value }).first()).toBeVisible();
    await expect(main.getByRole("term").filter({ hasText: label })).toBeVisible();
  }
  await expect(main.locator("#histoire")).toContainText("Chambre de Commerce et d'Industrie du Mali");
  await expect(main.locator("#expertises").getByRole("heading", { level: 3 })).toHaveText([
    "Intelligence Artificielle",
    "Cybersécurité",
    "Technologies émergentes",
  ]);
  const leaders = main.locator("#equipe article");
  await expect(leaders).toHaveCount(3);
  await expect(leaders.nth(0)).toContainText("20+ ans");
  await expect(leaders.nth(0)).toContainText("150+");
  await expect(leaders.nth(1)).toContainText("18+ ans");
  await expect(leaders.nth(1)).toContainText("100+");
  await expect(leaders.nth(2)).toContainText("15+ ans");
  await expect(leaders.nth(2)).toContainText("200+");
  // Names, roles, initials and specialties come from team_members.
  await expect(leaders.getByRole("heading", { level: 3 })).toHaveText(["Dr Mamadou Keïta", "Aminata Diarra", "Ibrahim Coulibaly"]);
  await expect(leaders.nth(0)).toContainText("MK");
  await expect(leaders.nth(1).getByRole("list", { name: "Spécialités de Aminata Diarra" }).getByRole("listitem")).toHaveText([
    "Ingénierie pédagogique",
    "Formation en ligne",
    "Évaluation et certification",
  ]);

  const contact = main.locator("section", { has: page.getByRole("heading", { name: "Nous rendre visite ou nous joindre" }) });
  await expect(contact.getByText("Cité SEMA, Bamako, Mali")).toBeVisible();
  await expect(contact.getByRole("link", { name: /^\+223/ })).toHaveCount(3);
  await expect(contact.getByRole("link", { name: "contact@icef.ml" })).toHaveAttribute("href", "mailto:contact@icef.ml");

  // Every button leads somewhere.
  await expect(main.getByRole("link", { name: "Découvrir notre histoire" })).toHaveAttribute("href", "#histoire");
  await expect(main.getByRole("link", { name: "Rencontrer notre équipe" })).toHaveAttribute("href", "#equipe");
  await expect(main.getByRole("link", { name: "En savoir plus sur nos formations" })).toHaveAttribute("href", "/formations");
  await expect(main.getByRole("link", { name: "Nous contacter" }).first()).toHaveAttribute("href", "/contact");
  await main.getByRole("link", { name: "Rencontrer notre équipe" }).click();
  await expect(page).toHaveURL(/#equipe$/);
  await expect(main.locator("#equipe").getByRole("heading", { level: 2 })).toBeInViewport();

  await expectNoSeriousA11yViolations(page);
});

// The rotation's interval runs on the page's clock, paused before the page loads and moved on by
// the tests instead of waited for.
test.describe("the rotating quote", () => {
  test.beforeEach(async ({ page }) => {
    const start = new Date("2026-03-02T09:00:00Z");
    await page.clock.install({ time: start });
    await page.clock.pauseAt(new Date(start.getTime() + 1_000));
  });

  test("it rotates every 4 seconds, and its dots and pause button work", async ({ page }) => {
    await page.goto("/a-propos");
    const quote = page.locator("blockquote:visible");
    await expect(quote).toHaveText(`« ${QUOTE_1} »`);
    await expect(page.getByRole("button", { name: "Citation 1 sur 3" })).toHaveAttribute("aria-current", "true");
    await expect(page.locator("[data-rotating]")).toHaveAttribute("data-rotating", "true");
    await page.clock.runFor(3_900);
    await expect(quote).toHaveText(`« ${QUOTE_1} »`);
    await page.clock.runFor(100);
    await expect(quote).toHaveText(`« ${QUOTE_2} »`);
    await page.clock.runFor(4_000);
    await expect(quote).toHaveText(`« ${QUOTE_3} »`);

    await page.getByRole("button", { name: "Citation 1 sur 3" }).click();
    await expect(quote).toHaveText(`« ${QUOTE_1} »`);
    // Choosing a quote moves focus into the rotator, which stops it until "Reprendre".
    await expect(page.getByRole("button", { name: "Reprendre" })).toBeVisible();
    await page.clock.runFor(12_000);
    await expect(quote).toHaveText(`« ${QUOTE_1} »`);
    await page.getByRole("button", { name: "Reprendre" }).click();
    await page.mouse.move(0, 0);
    await page.clock.runFor(4_000);
    await expect(quote).toHaveText(`« ${QUOTE_2} »`);
  });

  test("it pauses while hovered and rotates again when the pointer leaves", async ({ page }) => {
    await page.goto("/a-propos");
    const rotator = page.locator("[data-rotating]");
    await expect(rotator).toHaveAttribute("data-rotating", "true");
    await expect(page.locator("figcaption:visible")).toHaveText("Dr Mamadou Keïta, Directeur général");
    await page.locator("blockquote:visible").hover();
    await expect(rotator).toHaveAttribute("data-rotating", "false");
    await page.clock.runFor(12_000);
    await expect(page.locator("blockquote:visible")).toHaveText(`« ${QUOTE_1} »`);
    await page.mouse.move(0, 0);
    await expect(rotator).toHaveAttribute("data-rotating", "true");
    await page.clock.runFor(4_000);
    await expect(page.locator("blockquote:visible")).toHaveText(`« ${QUOTE_2} »`);
  });

  test("it stays still under prefers-reduced-motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/a-propos");
    const quote = page.locator("blockquote:visible");
    await expect(page.getByRole("button", { name: "Citation 2 sur 3" })).toBeVisible();
    await page.clock.runFor(12_000);
    await expect(quote).toHaveText(`« ${QUOTE_1} »`);
    // The dots still let the visitor read the others.
    await page.getByRole("button", { name: "Citation 2 sur 3" }).click();
    await expect(quote).toHaveText(`« ${QUOTE_2} »`);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the first quote shows, without controls that would do nothing", async ({ page }) => {
    await page.goto("/a-propos");
    await expect(page.locator("blockquote:visible")).toHaveText(`« ${QUOTE_1} »`);
    await expect(page.getByRole("button", { name: /Citation/ })).toHaveCount(0);
  });
});

for (const [path, title] of [
  ["/confidentialite", "Politique de confidentialité"],
  ["/conditions-utilisation", "Conditions d'utilisation"],
  ["/mentions-legales", "Mentions légales"],
] as const) {
  test(`${path} shows placeholder legal text with the institute's details`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(`${title} | ICEF`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByRole("note")).toContainText("Texte provisoire");
    await expect(page.getByRole("main")).toContainText("Institut Consulaire d'Études et de Formation");
    await expect(page.getByRole("main").getByRole("link", { name: "contact@icef.ml" }).first()).toHaveAttribute(
      "href",
      "mailto:contact@icef.ml",
    );
    await expectNoSeriousA11yViolations(page);
  });
}
