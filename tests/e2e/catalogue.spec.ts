import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { formatFcfa } from "~/lib/format";

const count = (page: Page) => page.getByRole("status").filter({ hasText: /trouvée/ });
const titles = (page: Page) => page.locator("main article h2:visible");

test.describe("catalogue", () => {
  test("lists the ten courses with modules, then filters live as the user types, keeping the URL in sync", async ({ page }) => {
    await page.goto("/formations");
    await expect(page).toHaveTitle("Catalogue de Formations | ICEF");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Catalogue de Formations");
    await expect(count(page)).toHaveText("10 formations trouvées");
    await expect(titles(page)).toHaveCount(10);

    const ai = page.locator("article").first();
    await expect(ai.getByText("Modules inclus :")).toBeVisible();
    await expect(ai.getByRole("listitem").filter({ hasText: /TensorFlow|Machine Learning|IA Générative/ })).toHaveCount(3);
    await expect(ai.getByText("Projets pratiques")).toHaveCount(0);
    await expect(ai.getByText("+2 autres")).toBeVisible();
    await expect(ai.locator("p.line-clamp-3")).toBeVisible();

    // Filtering is done in the browser: no data request while the user types.
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes(".data")) dataRequests.push(request.url());
    });
    const search = page.getByPlaceholder("Rechercher une formation...");
    await search.pressSequentially("cyber", { delay: 30 });
    await expect(count(page)).toHaveText("1 formation trouvée");
    await expect(titles(page)).toHaveText(["Cybersécurité"]);
    await expect(page).toHaveURL(/\/formations\?q=cyber$/);

    // Case is ignored and the description counts too ("machine learning" is in the AI course's).
    await search.fill("MACHINE LEARNING");
    await expect(titles(page)).toHaveText(["Intelligence Artificielle"]);
    await expect(page).toHaveURL(/\?q=MACHINE\+LEARNING$/);

    await search.fill("");
    await expect(count(page)).toHaveText("10 formations trouvées");
    await expect(page).toHaveURL(/\/formations$/);
    expect(dataRequests).toEqual([]);
  });

  test("combines category and level, and the filtered URL can be reloaded", async ({ page }) => {
    await page.goto("/formations");
    await page.getByLabel("Catégorie").selectOption({ label: "Tech" });
    await expect(count(page)).toHaveText("4 formations trouvées");
    await page.getByLabel("Niveau").selectOption({ label: "Avancé" });
    await expect(count(page)).toHaveText("3 formations trouvées");
    await expect(titles(page)).toHaveText(["Intelligence Artificielle", "Cybersécurité", "Data Science"]);
    await expect(page).toHaveURL(/\/formations\?categorie=tech&niveau=avance$/);

    await page.reload();
    await expect(titles(page)).toHaveText(["Intelligence Artificielle", "Cybersécurité", "Data Science"]);
    await expect(page.getByLabel("Catégorie")).toHaveValue("tech");
    await expect(page.getByLabel("Niveau")).toHaveValue("avance");
  });

  test("shows the empty state, and the reset clears all three filters", async ({ page }) => {
    await page.goto("/formations?categorie=energie&niveau=avance");
    await expect(count(page)).toHaveText("0 formation trouvée");
    await expect(page.getByText("Aucune formation trouvée pour ces critères.")).toBeVisible();
    await page.getByPlaceholder("Rechercher une formation...").fill("zzz");
    await page.getByRole("link", { name: "Réinitialiser les filtres" }).click();
    await expect(page).toHaveURL(/\/formations$/);
    await expect(count(page)).toHaveText("10 formations trouvées");
    await expect(page.getByPlaceholder("Rechercher une formation...")).toHaveValue("");
    await expect(page.getByLabel("Catégorie")).toHaveValue("all");
    await expect(page.getByLabel("Niveau")).toHaveValue("all");
  });

  test("follows the back button", async ({ page }) => {
    await page.goto("/");
    await page.goto("/formations?q=solaire");
    await expect(titles(page)).toHaveText(["Énergie Solaire"]);
    await page.getByRole("link", { name: /^Aperçu de la formation Énergie Solaire/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Énergie Solaire");
    await page.goBack();
    await expect(page).toHaveURL(/\?q=solaire$/);
    await expect(titles(page)).toHaveText(["Énergie Solaire"]);
    await expect(page.getByPlaceholder("Rechercher une formation...")).toHaveValue("solaire");
  });

  test("finds a course typed without its accents, and without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [typed, found] of [
      ["developpement", "Développement Web"],
      ["SECURITE", "Cybersécurité"],
      ["energie", "Énergie Solaire"],
      ["mecatronique", "Mécatronique"],
    ]) {
      await page.goto(`/formations?q=${typed}`);
      await expect(titles(page), typed).toHaveText([found!]);
    }
    await context.close();
  });

  test("an unknown category or level in the URL falls back to all, without an error", async ({ page }) => {
    const response = await page.goto("/formations?categorie=%3Cscript%3E&niveau=maitre&q=data");
    expect(response?.status()).toBe(200);
    await expect(page.getByLabel("Catégorie")).toHaveValue("all");
    await expect(page.getByLabel("Niveau")).toHaveValue("all");
    await expect(titles(page)).toHaveText(["Data Science"]);
  });

  test("has no serious accessibility violation when filtered", async ({ page }) => {
    await page.goto("/formations?categorie=tech");
    await expectNoSeriousA11yViolations(page);
  });

  test("has no serious accessibility violation when empty", async ({ page }) => {
    await page.goto("/formations?q=aucune-formation-ici");
    await expect(page.getByText("Aucune formation trouvée pour ces critères.")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a shared filtered URL renders the filtered list, and the form submits with GET", async ({ page }) => {
      await page.goto("/formations?q=web&categorie=tech");
      await expect(count(page)).toHaveText("1 formation trouvée");
      await expect(titles(page)).toHaveText(["Développement Web"]);
      await expect(page.getByPlaceholder("Rechercher une formation...")).toHaveValue("web");

      await page.getByPlaceholder("Rechercher une formation...").fill("");
      await page.getByLabel("Catégorie").selectOption({ label: "Ingénierie" });
      await page.getByRole("button", { name: "Filtrer" }).click();
      await expect(page).toHaveURL(/\/formations\?q=&categorie=ingenierie&niveau=all$/);
      await expect(titles(page)).toHaveText(["Mécatronique", "Maintenance Industrielle"]);

      await page.goto("/formations?q=zzz");
      await page.getByRole("link", { name: "Réinitialiser les filtres" }).click();
      await expect(count(page)).toHaveText("10 formations trouvées");
    });
  });
});

test.describe("course page", () => {
  test("shows every field, all modules, and structured data", async ({ page }) => {
    const response = await page.goto("/formations/intelligence-artificielle");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Formation Intelligence Artificielle | ICEF");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Intelligence Artificielle");
    await expect(main.getByText(formatFcfa(120000))).toBeVisible();
    await expect(main.getByText("Avancé").first()).toBeVisible();
    await expect(main.getByText("12 semaines").first()).toBeVisible();
    // The learners enrolled here (the demo's), and apart the 245 of before, named as imported (decision 0044).
    await expect(main.getByText("4 étudiants").first()).toBeVisible();
    await expect(main.getByText("245 personnes formées par l'institut (chiffre importé)")).toBeVisible();
    // The review count is the reviews' (245 imported, none written here yet), not the learners'.
    await expect(main.getByText("(245 avis)")).toBeVisible();
    const programme = main.locator("section", { has: page.getByRole("heading", { name: "Programme de la formation" }) });
    await expect(programme.getByRole("listitem")).toHaveText([
      /Python & TensorFlow/,
      /Machine Learning/,
      /IA Générative/,
      /Projets pratiques/,
      /Certification officielle/,
    ]);
    await expect(main.getByRole("heading", { name: "Objectifs" })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Prérequis" })).toBeVisible();
    await expect(main.getByText("Bases de la programmation")).toBeVisible();
    await expect(main.getByRole("link", { name: "S'inscrire", exact: true })).toHaveAttribute(
      "href",
      "/formations/intelligence-artificielle/inscription",
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/formations\/intelligence-artificielle$/);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute("content", "fr_FR");

    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Course",
      name: "Intelligence Artificielle",
      provider: { "@type": "EducationalOrganization", name: "Institut Consulaire d'Études et de Formation" },
      offers: { "@type": "Offer", price: 120000, priceCurrency: "XOF" },
    });
    expect(jsonLd.syllabusSections).toHaveLength(5);

    await main.getByRole("link", { name: "Retour au catalogue" }).click();
    await expect(page).toHaveURL(/\/formations$/);
  });

  test("a course without prerequisites has no empty section", async ({ page }) => {
    await page.goto("/formations/marketing-digital");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Marketing Digital");
    await expect(page.getByRole("heading", { name: "Prérequis" })).toHaveCount(0);
  });

  test("an unknown course is a 404 page in French, inside the layout", async ({ page }) => {
    const response = await page.goto("/formations/n-existe-pas");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Page introuvable");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oups ! Page introuvable");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    // Inside the public layout: the visitor keeps the header and the footer.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("main").getByRole("link", { name: "Voir les formations" })).toHaveAttribute("href", "/formations");
  });

  test("has no serious accessibility violation", async ({ page }) => {
    await page.goto("/formations/cybersecurite");
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("search engines", () => {
  test("sitemap.xml lists the public pages and the ten courses", async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    for (const path of ["/", "/formations", "/a-propos", "/contact"]) expect(locs).toContain(`${baseURL}${path}`);
    expect(locs.filter((loc) => loc?.includes("/formations/"))).toHaveLength(10);
    expect(locs).toContain(`${baseURL}/formations/intelligence-artificielle`);
    expect([...xml.matchAll(/<lastmod>\d{4}-\d{2}-\d{2}T[^<]+<\/lastmod>/g)]).toHaveLength(locs.length);
  });

  test("robots.txt allows the public site and points to the sitemap", async ({ request, baseURL }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain");
    const text = await response.text();
    expect(text).toContain("User-agent: *");
    expect(text).toContain("Allow: /");
    for (const path of ["/dashboard", "/admin", "/teacher", "/auth"]) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("every page of the public site has a title, a description, a canonical link and Open Graph tags", async ({ page, baseURL }) => {
    for (const path of ["/", "/formations", "/formations/data-science"]) {
      await page.goto(path);
      await expect(page).toHaveTitle(/ \| ICEF$/);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}${path}`);
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${baseURL}${path}`);
      await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute("content", "ICEF");
    }
  });
});
