import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { waitForMail } from "./mailbox";

/**
 * Managing a course's enrolments in a browser, on a desktop and on a phone: from the admin's
 * course list, the course's "Inscriptions" screen; the admin enrols a learner by hand and pauses
 * them, and the learner finds both in their notifications and their mailbox. Fresh admin and
 * learner per test: nothing shared with the other worker.
 */
test.describe.configure({ timeout: 120_000 });
test.use({ role: "admin" });

for (const width of [1280, 360]) {
  test(`an admin enrols a learner by hand and pauses them at ${width} px; the learner is told`, async ({
    page,
    user: admin,
    createUser,
    pageOf,
  }, testInfo) => {
    const learner = await createUser("user");
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/my-courses?q=Cybers%C3%A9curit%C3%A9");
    await expect(page.getByText(admin.name).first()).toBeAttached();
    await page.getByRole("link", { name: "Gérer les inscriptions de « Cybersécurité »" }).click();
    await expect(page).toHaveURL(/\/admin\/inscriptions\?cours=\d+$/);
    await expect(page.getByRole("heading", { name: /^Cybersécurité\s:\s\d+ inscriptions?$/ })).toBeVisible();

    await page.getByLabel("E-mail de l'apprenant").fill(learner.email);
    await page.getByLabel("Motif").fill("Bourse de la Chambre de commerce");
    await page.getByRole("button", { name: "Inscrire", exact: true }).click();
    await expect(page.getByText("Apprenant inscrit")).toBeVisible();
    const row = page
      .getByRole("region", { name: /^Cybersécurité\s:/ })
      .getByRole("listitem")
      .filter({ hasText: learner.email });
    await row.getByRole("button", { name: `Suspendre l'inscription de ${learner.name}` }).click();
    await expect(row.getByText("En pause", { exact: true })).toBeVisible();
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`enrolments-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    const learnerPage = await pageOf(learner, { viewport: { width, height: 900 } });
    await learnerPage.goto("/dashboard/notifications");
    await expect(learnerPage.getByText("Inscription ouverte")).toBeVisible();
    await expect(learnerPage.getByText("Inscription suspendue")).toBeVisible();
    await expect(learnerPage.getByText(/Votre inscription à «\sCybersécurité\s» est suspendue/)).toBeVisible();
    await learnerPage.screenshot({ path: testInfo.outputPath(`learner-notifications-${width}.png`), fullPage: true });
    await waitForMail(learner.email, /^Inscription suspendue/);
  });
}
