import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { formatFcfa } from "~/lib/format";
import { demoAccounts, submitSignInForm } from "./sign-in";

/**
 * The advanced analytics in a browser, on a phone and on a desktop: the period changes the
 * figures (the demo payment, 39 days ago, counts over 90 days and not over 7), each tab reads
 * well, and "Exporter (JSON)" downloads every figure of the chosen period.
 */
test.describe.configure({ timeout: 120_000 });

for (const width of [360, 1280]) {
  test(`an admin reads the analytics and exports them at ${width} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await submitSignInForm(page, demoAccounts.admin.email, demoAccounts.admin.password);
    await expect(page).toHaveURL(/\/admin$/, { timeout: 30_000 });
    await page.goto("/admin/analytics?periode=7j");
    await expect(page.getByRole("heading", { name: "Statistiques avancées" })).toBeVisible();
    const revenue = page.locator("dl > div", { has: page.locator("dt", { hasText: "Revenus encaissés" }) });
    for (const label of ["Revenus encaissés", "Inscriptions", "Apprenants actifs", "Taux de complétion"])
      await expect(page.locator("dt", { hasText: label })).toBeVisible();
    await expect(revenue.locator("dd").first()).toHaveText(formatFcfa(0));

    await page.getByRole("combobox", { name: "Période" }).selectOption("90j");
    await page.getByRole("button", { name: "Actualiser" }).click();
    await expect(page).toHaveURL(/periode=90j/);
    await expect(revenue.locator("dd").first()).not.toHaveText(formatFcfa(0));
    await expect(page.getByRole("heading", { name: /Projection des trois prochains mois/ })).toBeVisible();
    await expect(page.getByText("Estimation", { exact: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`analytics-overview-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    const tabs = page.getByRole("navigation", { name: "Sections des statistiques" });
    await tabs.getByRole("link", { name: "Cours" }).click();
    await expect(page).toHaveURL(/onglet=cours/);
    await expect(page).toHaveURL(/periode=90j/);
    await expect(page.getByText("Top 5 des formations")).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await tabs.getByRole("link", { name: "Utilisateurs" }).click();
    await expect(page.getByText("Apprenants actifs par jour")).toBeVisible();
    await expect(page.getByText("Comptes par rôle")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`analytics-users-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    await tabs.getByRole("link", { name: "Revenus" }).click();
    for (const method of ["Mobile money", "Carte bancaire", "Espèces à l'institut"]) await expect(page.getByText(method)).toBeVisible();
    await expect(page.getByText("Remboursements", { exact: true })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`analytics-revenue-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);
    // The page does not scroll sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Exporter (JSON)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^rapport-analytics-\d{4}-\d{2}-\d{2}\.json$/);
    const report = JSON.parse(fs.readFileSync((await file.path())!, "utf8")) as {
      dateGenerated: string;
      timeRange: string;
      kpis: { revenue: { current: number } };
    };
    expect(report.timeRange).toBe("90j");
    expect(Date.parse(report.dateGenerated)).not.toBeNaN();
    expect(report.kpis.revenue.current).toBeGreaterThan(0);
  });
}
