import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import sharp from "sharp";
import { expectNoSeriousA11yViolations } from "./axe";
import { formatFcfa } from "~/lib/format";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * A teacher builds a course in the browser (cover image, two lessons, a video sent with a visible
 * progress bar), publishes it from the course list; a visitor finds it in the catalogue and plays
 * the free lesson; an admin archives it and it leaves the catalogue. On a server of its own, since
 * it changes the catalogue other specs count.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

let own: IsolatedServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  own = await startIsolatedServer();
});

test.afterAll(async () => {
  await own?.stop();
});

const TITLE = "Maintenance des pompes solaires";
const video = path.join(import.meta.dirname, "../fixtures/lesson.webm");

async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL: own.base, viewport });
  return context.newPage();
}

test("a teacher creates a course with a cover, two lessons and a video, then publishes it", async ({ browser }) => {
  const page = await newPage(browser);
  await signInAs(page, "teacher", "/teacher/create-course");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Créer un Nouveau Cours");

  // Saving empty: the messages stand beside the fields, in French.
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page.getByRole("alert")).toContainText("Le cours n'a pas été enregistré");
  await expect(page.getByText("Le titre est obligatoire.").last()).toBeVisible();
  await expect(page.getByLabel("Titre du cours")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Titre du cours").fill(TITLE);
  await page.getByLabel("Description").fill("Diagnostiquer et réparer une pompe solaire de forage.");
  await page.getByLabel("Catégorie").selectOption({ label: "Énergie" });
  await page.getByLabel("Niveau").selectOption({ label: "Intermédiaire" });
  await page.getByLabel("Durée (semaines)").fill("6");
  await page.getByLabel("Prix (FCFA)").fill("45 000");
  const cover = await sharp({ create: { width: 1200, height: 675, channels: 3, background: "#1d4ed8" } })
    .jpeg()
    .toBuffer();
  await page.getByLabel("Choisir une image").setInputFiles({ name: "pompe.jpg", mimeType: "image/jpeg", buffer: cover });
  await expect(page.getByRole("link", { name: "pompe.jpg" })).toBeVisible();

  await page.getByRole("tab", { name: "Contenu & Leçons" }).click();
  await page.getByRole("button", { name: "Ajouter une leçon" }).click();
  await page.getByRole("button", { name: "Ajouter une leçon" }).click();
  const first = page.getByRole("group", { name: /Leçon 1/ });
  const second = page.getByRole("group", { name: /Leçon 2/ });
  await first.getByLabel("Titre de la leçon").fill("Comment fonctionne la pompe");
  await first.getByLabel("Durée (minutes)").fill("15");
  await first.getByLabel("Contenu (texte de la leçon)").fill("Le panneau alimente le contrôleur.\n\nLe contrôleur pilote la pompe.");
  await first.getByLabel("Aperçu gratuit").check();
  await second.getByLabel("Titre de la leçon").fill("Pannes fréquentes");
  await second.getByLabel("Durée (minutes)").fill("25");

  // The upload's first request waits until the progress bar has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/televersements", async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  await first.getByLabel("Envoyer une vidéo").setInputFiles(video);
  await expect(first.getByRole("progressbar")).toBeVisible();
  release();
  await expect(first.getByRole("link", { name: "lesson.webm" })).toBeVisible();
  await expect(first.getByRole("progressbar")).toHaveCount(0);

  // Objectives: Enter adds the item instead of saving.
  await page.getByRole("tab", { name: "Objectifs & Prérequis" }).click();
  await page.getByLabel("Ajouter : objectifs d'apprentissage").fill("Remplacer un contrôleur");
  await page.getByLabel("Ajouter : objectifs d'apprentissage").press("Enter");
  await expect(page.getByText("Remplacer un contrôleur")).toBeVisible();

  await page.getByRole("tab", { name: "Paramètres" }).click();
  await expect(page.getByRole("region", { name: "Résumé" })).toContainText("2");
  await expect(page.getByRole("region", { name: "Résumé" })).toContainText("40 min");
  await expect(page.getByRole("region", { name: "Résumé" })).toContainText(formatFcfa(45000));
  await expectNoSeriousA11yViolations(page);

  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page).toHaveURL(/\/teacher\/courses$/);
  await expect(page.getByText("Cours créé avec succès")).toBeVisible();
  const card = page.getByRole("article", { name: TITLE });
  await expect(card.getByText("Brouillon")).toBeVisible();
  await expect(card).toContainText("2 leçons · 40 min");
  await card.getByRole("button", { name: `Publier « ${TITLE} »` }).click();
  await expect(page.getByText("Cours publié avec succès")).toBeVisible();
  await expect(card.getByText("Publié", { exact: true })).toBeVisible();

  // Editing keeps the lessons (and their ids): rename the second one.
  await card.getByRole("link", { name: `Modifier « ${TITLE} »` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Modifier le Cours");
  await page.getByRole("tab", { name: "Contenu & Leçons" }).click();
  await page
    .getByRole("group", { name: /Leçon 2/ })
    .getByLabel("Titre de la leçon")
    .fill("Pannes fréquentes et remèdes");
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page.getByText("Cours mis à jour avec succès")).toBeVisible();
});

test("a visitor finds the course on a phone and plays the free lesson", async ({ browser }) => {
  const page = await newPage(browser, { width: 360, height: 780 });
  await page.goto("/formations?q=pompes");
  await expect(page.getByRole("status").filter({ hasText: /trouvée/ })).toHaveText("1 formation trouvée");
  const card = page.locator("article", { hasText: TITLE });
  await expect(card.getByText(formatFcfa(45000))).toBeVisible();
  await expect(card.getByText("Comment fonctionne la pompe")).toBeVisible();
  await card.getByRole("link", { name: TITLE, exact: true }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(TITLE);
  const programme = page.getByRole("region", { name: "Programme de la formation" });
  await expect(programme.getByRole("listitem")).toHaveText([
    /Comment fonctionne la pompe.*15 min.*Aperçu gratuit/,
    /Pannes fréquentes et remèdes.*25 min/,
  ]);
  await expectNoSeriousA11yViolations(page);
  await programme.getByRole("link", { name: /Aperçu gratuit/ }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Comment fonctionne la pompe");
  await expect(page.getByText("Le contrôleur pilote la pompe.")).toBeVisible();
  const player = page.locator("video");
  await expect(player).toHaveAttribute("controls", "");
  // The browser loads the video's data through Range requests and can play it.
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  await player.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);

  // The other lesson is not open to visitors.
  const response = await page.goto(page.url().replace(/\/\d+$/, "/999999"));
  expect(response?.status()).toBe(404);
});

test("an admin archives the course and it leaves the catalogue", async ({ browser }) => {
  const page = await newPage(browser);
  await signInAs(page, "admin", "/admin/my-courses");
  const card = page.getByRole("article", { name: TITLE });
  await card.getByLabel(`Statut de « ${TITLE} »`).selectOption("archived");
  await card.getByRole("button", { name: `Appliquer le statut choisi à « ${TITLE} »` }).click();
  await expect(page.getByText("Cours mis à jour avec succès")).toBeVisible();

  const visitor = await newPage(browser);
  await visitor.goto("/formations?q=pompes");
  await expect(visitor.getByText("Aucune formation trouvée pour ces critères.")).toBeVisible();
  const gone = await visitor.goto("/formations/maintenance-des-pompes-solaires");
  expect(gone?.status()).toBe(404);
});
