import { expect, test, type Browser } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * Course reviews end to end, on a server of its own (a review changes the catalogue's figures):
 * the demo student, who follows "Intelligence Artificielle", rates it on a 360 px phone without
 * JavaScript, then edits it; the public page counts the reviews (the imported 245 plus this one)
 * and lists it; an administrator hides it and the figures go back.
 */
test.describe.configure({ mode: "serial", timeout: 300_000 });

let own: IsolatedServer;
const SLUG = "intelligence-artificielle";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  own = await startIsolatedServer({ timeoutMs: 200_000 });
});
test.afterAll(async () => {
  await own?.stop();
});

async function newPage(browser: Browser, options: { width: number; height: number; javaScriptEnabled?: boolean }) {
  const { javaScriptEnabled = true, ...viewport } = options;
  const context = await browser.newContext({ baseURL: own.base, viewport, javaScriptEnabled });
  return context.newPage();
}

test("a learner rates a course without JavaScript, edits the review, and the public page counts it", async ({ browser }) => {
  const page = await newPage(browser, { width: 360, height: 780, javaScriptEnabled: false });
  await signInAs(page, "student", `/dashboard/formations/${SLUG}`);
  const form = page.getByRole("region", { name: "Donnez votre avis" });
  await expect(form).toBeVisible();

  // Nothing chosen, a text too short: the messages beside the fields, the text kept.
  await form.getByRole("textbox", { name: "Votre avis" }).fill("Trop court");
  await form.getByRole("button", { name: "Publier mon avis" }).click();
  await expect(page.getByText("Choisissez une note de 1 à 5 étoiles.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Votre avis" })).toHaveValue("Trop court");

  await page.getByRole("radio", { name: "4 sur 5" }).check();
  await page.getByRole("textbox", { name: "Votre avis" }).fill("Des cours clairs et des projets concrets, merci !");
  await page.getByRole("button", { name: "Publier mon avis" }).click();
  const mine = page.getByRole("region", { name: "Votre avis" });
  await expect(mine.getByRole("button", { name: "Modifier mon avis" })).toBeVisible();
  await expect(mine.getByRole("textbox", { name: "Votre avis" })).toHaveValue("Des cours clairs et des projets concrets, merci !");
  await page.screenshot({ path: test.info().outputPath("avis-360.png"), fullPage: true });

  // A second submit edits the same review.
  await mine.getByRole("radio", { name: "5 sur 5" }).check();
  await mine.getByRole("button", { name: "Modifier mon avis" }).click();
  await expect(page.getByRole("region", { name: "Votre avis" }).getByRole("radio", { name: "5 sur 5" })).toBeChecked();

  // The public page: 245 imported reviews plus this one, and the review itself.
  await page.goto(`/formations/${SLUG}`);
  const main = page.getByRole("main");
  await expect(main.getByText("(246 avis)")).toBeVisible();
  // The learners who follow it here (the demo's four), not the imported 245 (decision 0044).
  await expect(main.getByText("4 étudiants").first()).toBeVisible();
  const reviews = main.getByRole("region", { name: "Avis des apprenants" });
  await expect(reviews.getByText("Aïssata K.")).toBeVisible();
  await expect(reviews.getByText("Des cours clairs et des projets concrets, merci !")).toBeVisible();
  await expect(reviews.getByText("Dont 245 avis recueillis par l'institut avant cette plateforme.")).toBeVisible();
});

test("the review form and the public reviews pass axe (axe needs JavaScript)", async ({ browser }) => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await signInAs(page, "student", `/dashboard/formations/${SLUG}`);
  await expect(page.getByRole("button", { name: "Modifier mon avis" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.goto(`/formations/${SLUG}`);
  await expect(page.getByText("Aïssata K.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test("an administrator sees both parts of the rating and hides a review", async ({ browser }) => {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await signInAs(page, "admin", "/admin/avis");
  const ratings = page.getByRole("region", { name: "Tableau des notes par cours" });
  const row = ratings.getByRole("row", { name: /Intelligence Artificielle/ });
  await expect(row.getByRole("cell").nth(0)).toHaveText("4,9 (246 avis)");
  await expect(row.getByRole("cell").nth(1)).toHaveText("4,9 (245 avis)");
  await expect(row.getByRole("cell").nth(2)).toHaveText("5,0 (1 avis)");
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath("admin-avis-1280.png"), fullPage: true });

  await page.getByRole("button", { name: "Masquer l'avis de Aïssata Keïta sur « Intelligence Artificielle »" }).click();
  await expect(page.getByText("Avis masqué")).toBeVisible();
  await expect(page.getByText("Masqué", { exact: true })).toBeVisible();

  await page.goto(`/formations/${SLUG}`);
  await expect(page.getByRole("main").getByText("(245 avis)")).toBeVisible();
  await expect(page.getByText("Des cours clairs et des projets concrets, merci !")).toHaveCount(0);
});
