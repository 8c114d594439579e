import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";

for (const path of ["/cette-page-n-existe-pas", "/formations-inconnues/a/b", "/connexion-ancienne?x=1"]) {
  test(`${path} answers 404 with the French page inside the layout`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Page introuvable");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oups ! Page introuvable");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expect(page.getByRole("main").getByRole("link", { name: "Voir les formations" })).toHaveAttribute("href", "/formations");
  });
}

test("the home link leads home, and the page passes axe", async ({ page }) => {
  await page.goto("/nulle-part");
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("main").getByRole("link", { name: "Retour à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Oups ! Page introuvable");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the 404 page renders and its links work", async ({ page }) => {
    const response = await page.goto("/ailleurs");
    expect(response?.status()).toBe(404);
    await page.getByRole("main").getByRole("link", { name: "Voir les formations" }).click();
    await expect(page).toHaveURL(/\/formations$/);
  });
});
