import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { waitForEnhancement } from "./hydration";

/**
 * The signed-in shell on a learner's page, which React does not hydrate (docs/decisions/0024,
 * issue 39): its controls come from app/enhance/shell.ts, and what arrives live too.
 */
test("a learner's page without React: collapse, shortcut, the bell's panel, and a message arriving live", async ({
  createUser,
  pageOf,
}) => {
  test.setTimeout(90_000);
  const [learner, administrator] = await Promise.all([createUser("user"), createUser("admin")]);
  const page = await pageOf(learner);
  await page.goto("/dashboard/paiements");
  await waitForEnhancement(page);
  // No React on the page: neither its scripts nor its data.
  await expect(page.locator('script[src*="/framework-"], link[rel=modulepreload]')).toHaveCount(0);
  expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);

  const shell = page.locator("[data-shell]");
  await page.getByRole("button", { name: "Réduire la barre latérale" }).click();
  await expect(shell).toHaveAttribute("data-collapsed", "true");
  await expect(page.getByRole("button", { name: "Déplier la barre latérale" })).toHaveAttribute("aria-expanded", "false");
  expect((await page.context().cookies()).find((cookie) => cookie.name === "sidebar_state")?.value).toBe("collapsed");
  await page.reload();
  await expect(shell).toHaveAttribute("data-collapsed", "true");
  await waitForEnhancement(page);
  await page.keyboard.press("Control+b");
  await expect(shell).toHaveAttribute("data-collapsed", "false");

  const bell = page.getByRole("banner").getByRole("button", { name: /^Notifications/ });
  await bell.click();
  const panel = page.getByRole("dialog", { name: "Notifications" });
  await expect(panel.getByRole("link", { name: "Voir toutes les notifications" })).toHaveAttribute("href", "/dashboard/notifications");
  await expect(panel.getByText("Chargement…")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(bell).toBeFocused();

  // The administration writes: the badge on « Messagerie » and a toast, without a reload.
  const hello = `Votre reçu est prêt ${Date.now()}`;
  const admin = await pageOf(administrator);
  await admin.goto("/dashboard/messages/nouveau");
  await admin.getByRole("link", { name: learner.name }).click();
  await admin.getByLabel("Votre message").fill(hello);
  await admin.getByLabel("Votre message").press("Enter");
  await expect(admin).toHaveURL(/\/dashboard\/messages\/\d+$/);
  await expect(page.getByTestId("messages-non-lus").first()).toContainText("1");
  const toast = page.getByRole("region", { name: "Notifications" });
  await expect(toast).toContainText(hello);
  await toast.getByRole("link", { name: "Ouvrir" }).click();
  await expect(page).toHaveURL(/\/dashboard\/messages\/\d+$/);
  await expect(page.getByTestId("messages").getByText(hello)).toBeVisible();
});
