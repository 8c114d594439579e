import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { demoAccounts, signIn, signInThroughApi } from "./sign-in";

/**
 * Paying a commission in a browser, on a desktop and on a phone: the demo teacher's finished months
 * (the demo learners' payments, app/.server/db/seed/teaching.ts) wait on /admin/financial; the admin
 * pays one through the sandbox mobile money at 1280 px and another by hand with the transfer's
 * reference at 360 px, sees "Traitement..." while it goes and "Payée" after, and the teacher finds
 * the payout in their own space. The two tests run side by side on the same demo teacher: each
 * takes its own month (the newest at 1280 px, the oldest at 360 px) and follows it by its name.
 */
test.describe.configure({ timeout: 120_000 });

const teacher = demoAccounts.teacher;

for (const { width, channel } of [
  { width: 1280, channel: "provider" },
  { width: 360, channel: "manual" },
] as const) {
  test(`an admin pays a teacher's commission (${channel}) at ${width} px and the teacher sees it`, async ({
    page,
    browser,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, demoAccounts.admin.email, demoAccounts.admin.password, "/admin/financial?onglet=commissions&periode=1an");
    await expect(page.getByRole("heading", { name: "Commissions des enseignants" })).toBeVisible();

    const teacherRows = page.getByRole("listitem").filter({ hasText: teacher.name });
    const payable = teacherRows.filter({ has: page.getByRole("button", { name: /^Payer / }) });
    await expect(payable.first()).toBeVisible();
    const picked = width === 1280 ? payable.first() : payable.last();
    // "octobre 2026 · 1 inscription · brut ...": the month names the row from now on.
    const month = (await picked.getByText(/ · brut /).textContent())!.split(" · ")[0]!;
    const row = teacherRows.filter({ hasText: month });
    await expect(row.getByText("À payer", { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    if (channel === "manual") {
      await row.getByRole("radio", { name: "À la main (virement, espèces)" }).check();
      await row.getByLabel("Référence du virement (à la main)").fill(`VIR-E2E-${width}`);
    } else {
      await expect(row.getByRole("radio", { name: /Mobile money \(bac à sable/ })).toBeChecked();
    }
    // The payment is held on its way until the pending state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\/financial/, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await row.getByRole("button", { name: /^Payer / }).click();
    await expect(row.getByRole("button", { name: "Traitement..." })).toBeDisabled();
    release();
    await expect(page.getByText("Paiement complété")).toBeVisible();
    await expect(row.getByText("Payée", { exact: true })).toBeVisible();
    await expect(row.getByText(channel === "manual" ? `réf. VIR-E2E-${width}` : /mobile money, réf\. COM-/)).toBeVisible();
    await expect(row.getByRole("button", { name: /^Payer / })).toHaveCount(0);
    await page.unroute(/\/admin\/financial/);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`commission-paid-${width}.png`), fullPage: true });

    // Read again from the server.
    await page.reload();
    await expect(row.getByText("Payée", { exact: true })).toBeVisible();

    // The teacher's own space shows the payout (reading only: the demo teacher is shared).
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await signInThroughApi(context.request, baseURL!, teacher);
    const teacherPage = await context.newPage();
    await teacherPage.goto("/teacher/commissions");
    const payout = teacherPage.getByRole("listitem").filter({ hasText: month });
    await expect(payout.getByText("Payée", { exact: true })).toBeVisible();
    await expect(payout.getByText(/^Versée le /)).toContainText(channel === "manual" ? `réf. VIR-E2E-${width}` : "réf. COM-");
    await teacherPage.screenshot({ path: testInfo.outputPath(`teacher-commissions-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(teacherPage);
    await context.close();
  });
}
