import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { formatFcfa } from "~/lib/format";

test.describe("home page", () => {
  test("shows the hero, the first six courses with every card field, features and the call to action", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/\| ICEF$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");

    const hero = page.locator("main section").first();
    await expect(hero.getByRole("heading", { level: 1 })).toHaveText("Institut Consulaire d'Études et de Formation");
    await expect(hero.getByText("Œuvre de la CCIM")).toBeVisible();
    // Counted from enrolments (decision 0044), not a claim written in the page.
    await expect(hero.getByText(/^\d+ personnes apprennent$/)).toBeVisible();
    await expect(hero.getByRole("link", { name: "Découvrir nos formations" })).toHaveAttribute("href", "/formations");
    await expect(hero.getByRole("link", { name: "Connexion", exact: true })).toHaveAttribute("href", "/auth");

    const popular = page.locator("section", { has: page.getByRole("heading", { name: "Nos formations populaires" }) });
    const cards = popular.locator("article");
    await expect(cards).toHaveCount(6);
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText([
      "Intelligence Artificielle",
      "Cybersécurité",
      "Marketing Digital",
      "Data Science",
      "Développement Web",
      "Transit Douanes Logistiques",
    ]);
    // Only the first two courses are flagged popular.
    await expect(popular.getByText("Populaire", { exact: true })).toHaveCount(2);

    const ai = cards.first();
    await expect(ai.getByText("Tech", { exact: true })).toBeVisible();
    await expect(ai.getByText("Avancé", { exact: true })).toBeVisible();
    await expect(ai.getByText("12 semaines")).toBeVisible();
    // The learners who follow it here (the demo's four), never the imported 245 (decision 0044).
    await expect(ai.getByText("4 étudiants")).toBeVisible();
    // Its reviews: the 245 imported with the rating (none written here yet), not the learners.
    await expect(ai.getByText("(245 avis)")).toBeVisible();
    await expect(ai.getByText("4,9")).toBeVisible();
    await expect(ai.getByText(formatFcfa(120000))).toBeVisible();
    await expect(ai.locator("p.line-clamp-2")).toContainText("Maîtrisez les fondements");
    await expect(ai.getByRole("link", { name: /^S'inscrire/ })).toHaveAttribute(
      "href",
      "/formations/intelligence-artificielle/inscription",
    );
    // The catalogue-only module list is not on home cards.
    await expect(ai.getByText("Modules inclus")).toHaveCount(0);

    await expect(page.getByRole("link", { name: "Voir toutes les formations" })).toHaveAttribute("href", "/formations");
    await expect(page.getByRole("heading", { name: "Une plateforme pensée pour votre réussite" })).toBeVisible();
    for (const feature of [
      "Cours interactifs",
      "Certifications reconnues",
      "Webinaires en direct",
      "Tableau de bord personnel",
      "Forum communautaire",
      "Paiements flexibles",
      "Téléchargement hors ligne",
      "Accès mobile",
    ]) {
      await expect(page.getByRole("heading", { name: feature, level: 3 })).toBeVisible();
    }

    const cta = page.locator("section", { has: page.getByRole("heading", { name: "Prêt à commencer votre formation ?" }) });
    await expect(cta.getByRole("link", { name: "Créer mon compte" })).toHaveAttribute("href", "/auth?onglet=inscription");
    await expect(cta.getByRole("link", { name: "Découvrir les formations" })).toHaveAttribute("href", "/formations");
  });

  test("the preview button appears on keyboard focus, and leads to the course page", async ({ page }) => {
    await page.goto("/");
    const card = page.locator("article").first();
    const preview = card.getByRole("link", { name: /^Aperçu/ });
    await expect(preview).toHaveCSS("opacity", "0");
    await card.getByRole("link", { name: "Intelligence Artificielle", exact: true }).focus();
    await expect(preview).toHaveCSS("opacity", "1");
    await preview.click();
    await expect(page).toHaveURL(/\/formations\/intelligence-artificielle$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intelligence Artificielle");
  });

  test("header: marked active link, phone, account buttons; footer: contact, tech links, legal, social, copyright", async ({ page }) => {
    await page.goto("/");
    const header = page.getByRole("banner");
    const nav = header.getByRole("navigation", { name: "Navigation principale", exact: true });
    await expect(nav.getByRole("link", { name: "Accueil" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Formations" })).not.toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link")).toHaveText(["Accueil", "Formations", "À propos", "Contact"]);
    await expect(header.getByRole("link", { name: /\+223 20 22 50 36/ })).toHaveAttribute("href", "tel:+22320225036");
    await expect(header.getByRole("link", { name: "Connexion" })).toHaveAttribute("href", "/auth");
    await expect(header.getByRole("link", { name: "S'inscrire" })).toHaveAttribute("href", "/auth?onglet=inscription");
    await expect(page.locator("body")).not.toContainText("{phone}");

    const footer = page.getByRole("contentinfo");
    await expect(footer.getByText("Cité SEMA, Bamako, Mali")).toBeVisible();
    await expect(footer.getByRole("link", { name: "+223 76 45 12 89" })).toHaveAttribute("href", "tel:+22376451289");
    await expect(footer.getByRole("link", { name: "contact@icef.ml" })).toHaveAttribute("href", "mailto:contact@icef.ml");
    const tech = footer.getByRole("navigation", { name: "Formations Tech" });
    await expect(tech.getByRole("link", { name: "Cybersécurité" })).toHaveAttribute("href", "/formations?q=Cybers%C3%A9curit%C3%A9");
    await expect(footer.getByRole("link", { name: "Politique de confidentialité" })).toHaveAttribute("href", "/confidentialite");
    await expect(footer.getByRole("link", { name: "Conditions d'utilisation" })).toHaveAttribute("href", "/conditions-utilisation");
    await expect(footer.getByRole("link", { name: "Mentions légales" })).toHaveAttribute("href", "/mentions-legales");
    await expect(footer.getByRole("link", { name: /Facebook/ })).toHaveAttribute("href", /^https:\/\/www\.facebook\.com\//);
    await expect(footer.getByRole("link", { name: /LinkedIn/ })).toHaveAttribute("href", /^https:\/\/www\.linkedin\.com\//);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Institut Consulaire d'Études et de Formation`);

    // The newsletter box posts to /newsletter, with its hidden honeypot.
    const newsletter = footer.locator('form[action="/newsletter"]');
    await expect(newsletter).toHaveAttribute("method", "post");
    await expect(newsletter.getByPlaceholder("Votre e-mail")).toHaveAttribute("name", "email");
    await expect(newsletter.getByRole("button", { name: "S'abonner" })).toBeVisible();
    const honeypot = newsletter.locator('input[name="website"]');
    await expect(honeypot).toHaveAttribute("tabindex", "-1");
    await expect(honeypot).toHaveAttribute("autocomplete", "off");
    await expect(honeypot).not.toBeInViewport();
  });

  test("a footer Tech link opens the catalogue filtered on that course", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Data Science" }).click();
    await expect(page).toHaveURL(/\/formations\?q=Data\+Science$/);
    await expect(page.getByRole("status").filter({ hasText: "trouvée" })).toHaveText("1 formation trouvée");
    await expect(page.locator("main article h2:visible")).toHaveText(["Data Science"]);
  });

  test("has no serious accessibility violation", async ({ page }) => {
    await page.goto("/");
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the menu opens and navigates", async ({ page }) => {
    await page.goto("/");
    const menu = page.getByRole("banner").locator("details");
    const mobileNav = page.getByRole("navigation", { name: "Navigation principale (mobile)" });
    await expect(page.getByRole("navigation", { name: "Navigation principale", exact: true })).toBeHidden();
    await expect(mobileNav).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(menu).toHaveAttribute("open", "");
    await expect(mobileNav).toBeVisible();
    await expect(mobileNav.getByRole("link", { name: "Accueil" })).toHaveAttribute("aria-current", "page");
    await mobileNav.getByRole("link", { name: "Formations" }).click();
    await expect(page).toHaveURL(/\/formations$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Catalogue de Formations");
    // The menu closes after a client-side navigation.
    await expect(mobileNav).toBeHidden();
    await expect(page.getByRole("link", { name: /^Aperçu/ }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("the menu opens with the keyboard", async ({ page }) => {
    await page.goto("/");
    await page.locator("summary").focus();
    await page.keyboard.press("Enter");
    const mobileNav = page.getByRole("navigation", { name: "Navigation principale (mobile)" });
    await expect(mobileNav).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mobileNav).toBeHidden();
    await expect(page.locator("summary")).toBeFocused();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the menu still opens and its links work", async ({ page }) => {
      await page.goto("/");
      await page.getByText("Menu", { exact: true }).click();
      const mobileNav = page.getByRole("navigation", { name: "Navigation principale (mobile)" });
      await expect(mobileNav).toBeVisible();
      await mobileNav.getByRole("link", { name: "Contact" }).click();
      await expect(page).toHaveURL(/\/contact$/);
    });
  });

  test("has no serious accessibility violation with the menu open", async ({ page }) => {
    await page.goto("/");
    await page.getByText("Menu", { exact: true }).click();
    await expectNoSeriousA11yViolations(page);
  });
});
