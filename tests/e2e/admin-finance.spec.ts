import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { demoAccounts, submitSignInForm } from "./sign-in";

/**
 * Running the institute in a browser, on a phone and on a desktop: an admin lands on the
 * dashboard, changes the period, opens the finance screen, starts a refund and cancels it,
 * generates a report and downloads it. Paying a commission: admin-commissions.spec.ts.
 */
test.describe.configure({ timeout: 120_000 });

for (const width of [360, 1280]) {
  test(`an admin reads the dashboard and the finances at ${width} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await submitSignInForm(page, demoAccounts.admin.email, demoAccounts.admin.password);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Tableau de bord de l'administration" })).toBeVisible();
    for (const label of [
      "Utilisateurs",
      "Formations",
      "Inscriptions actives",
      "Revenus encaissés",
      "En attente de validation",
      "Taux de complétion",
    ])
      await expect(page.locator("dt", { hasText: label }).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`dashboard-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    // The period changes the figures' window: the demo payment (39 days ago) counts over 90 days, not 7.
    await page.getByRole("combobox", { name: "Période" }).selectOption("7j");
    await page.getByRole("button", { name: "Actualiser" }).click();
    await expect(page).toHaveURL(/periode=7j/);
    await expect(page.locator("dd", { hasText: "sur 7 jours" }).first()).toBeVisible();

    await page.getByRole("link", { name: "Statistiques avancées" }).click();
    await expect(page.getByText("Revenus encaissés, douze derniers mois")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`dashboard-analytics-${width}.png`), fullPage: true });

    await page.goto("/admin/financial?periode=90j");
    await expect(page.getByRole("heading", { name: "Gestion Financière" })).toBeVisible();
    // The transactions table scrolls in its own box: the page does not scroll sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expect(page.locator("dt", { hasText: "Marge Nette" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`financial-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    // A refund asks for confirmation first (cancelled here: other specs follow the demo course).
    await page
      .getByRole("link", { name: /^Rembourser/ })
      .first()
      .click();
    await expect(page.getByRole("heading", { name: "Confirmer le remboursement" })).toBeVisible();
    await expect(page.getByLabel(/Motif du remboursement/)).toHaveAttribute("maxlength", "500");
    await page.screenshot({ path: testInfo.outputPath(`refund-${width}.png`), fullPage: true });
    await page.getByRole("link", { name: "Annuler" }).click();
    await expect(page.getByRole("heading", { name: "Confirmer le remboursement" })).toHaveCount(0);

    await page.getByRole("link", { name: "Commissions" }).click();
    await expect(page.getByRole("heading", { name: "Commissions des enseignants" })).toBeVisible();

    await page.getByRole("link", { name: "Rapports" }).click();
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "CSV : Rapport mensuel" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^mensuel-\d{4}-\d{2}-\d{2}-\d+\.csv$/);
    expect(fs.readFileSync((await file.path())!, "utf8")).toContain("Encaissé");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Historique des rapports" })).toBeVisible();
    await expect(page.getByText(/Rapport mensuel — 90 jours/).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`reports-${width}.png`), fullPage: true });
  });
}
