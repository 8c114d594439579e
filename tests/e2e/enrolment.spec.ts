import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { linkIn } from "../setup/smtp";
import { expectNoSeriousA11yViolations } from "./axe";
import { formatFcfa } from "~/lib/format";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * From the catalogue to a paid, active enrolment, on a 360 px phone: a visitor signs up, pays
 * with mobile money in the test gateway, follows the lessons and comes back where they stopped;
 * another learner pays cash, an admin records it, and the course opens. On a server of its own
 * (enrolments change the catalogue's figures).
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

let own: IsolatedServer;
const TITLE = "Gestion de projets solaires";
const SLUG = "gestion-de-projets-solaires";
const phone = { width: 360, height: 780 };

async function newPage(browser: Browser, viewport = phone): Promise<Page> {
  const context = await browser.newContext({ baseURL: own.base, viewport });
  return context.newPage();
}

/** A teacher's course with three lessons, the first with a video; published, 25 000 FCFA. */
async function createCourse(browser: Browser) {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await signInAs(page, "teacher", "/teacher/create-course");
  await page.getByLabel("Titre du cours").fill(TITLE);
  await page.getByLabel("Description").fill("Planifier, chiffrer et suivre un projet d'électrification solaire.");
  await page.getByLabel("Catégorie").selectOption({ label: "Énergie" });
  await page.getByLabel("Niveau").selectOption({ label: "Intermédiaire" });
  await page.getByLabel("Prix (FCFA)").fill("25000");
  await page.getByRole("tab", { name: "Contenu & Leçons" }).click();
  for (const title of ["Cadrer le projet", "Chiffrer le projet", "Suivre le chantier"]) {
    await page.getByRole("button", { name: "Ajouter une leçon" }).click();
    await page.getByLabel("Titre de la leçon").last().fill(title);
  }
  const first = page.getByRole("group", { name: /Leçon 1/ });
  await first.getByLabel("Envoyer une vidéo").setInputFiles(path.join(import.meta.dirname, "../fixtures/lesson.webm"));
  await expect(first.getByRole("link", { name: "lesson.webm" })).toBeVisible();
  await page.getByRole("tab", { name: "Paramètres" }).click();
  await page.getByRole("radio", { name: /Publié/ }).check();
  await page.getByRole("button", { name: "Enregistrer" }).first().click();
  await expect(page.getByText("Cours créé avec succès")).toBeVisible();
  await page.context().close();
}

/** Signs up through the course's "S'inscrire", confirms by mail, and lands back on the checkout. */
async function signUpFromCourse(page: Page, person: { firstName: string; lastName: string; email: string }) {
  await page.goto("/formations");
  await page.getByPlaceholder("Rechercher une formation...").fill("projets solaires");
  const card = page.locator("article", { hasText: TITLE });
  await card.getByRole("link", { name: `S'inscrire à la formation ${TITLE}` }).click();
  await expect(page).toHaveURL(/\/auth\?onglet=inscription/);
  await page.getByLabel("Prénom").fill(person.firstName);
  await page.getByRole("textbox", { name: "Nom", exact: true }).fill(person.lastName);
  await page.getByLabel(/^E-mail/).fill(person.email);
  await page.getByLabel(/^Mot de passe/).fill("le fleuve Niger à Ségou");
  const before = own.smtp.mails.length;
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expect(page.getByRole("status")).toContainText("Compte créé avec succès");
  const mail = await own.smtp.waitForMail(person.email, { after: before });
  await page.goto(linkIn(mail.body, /http:\/\/127\.0\.0\.1:\d+\/auth\/verification\?token=[^\s"<>]+/));
  await expect(page).toHaveURL(new RegExp(`/formations/${SLUG}/inscription$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("S'inscrire à la formation");
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  own = await startIsolatedServer();
  await createCourse(browser);
});

test.afterAll(async () => {
  await own?.stop();
});

test("a visitor signs up, pays by mobile money, follows the course on a phone and resumes where they stopped", async ({ browser }) => {
  const page = await newPage(browser);
  await signUpFromCourse(page, { firstName: "Oumou", lastName: "Sidibé", email: "oumou@exemple.ml" });
  await expect(page.getByText(formatFcfa(25000)).first()).toBeVisible();
  await expect(page.getByText("Passerelle de test").first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("radio", { name: /Mobile money/ }).check();
  await page.getByRole("button", { name: `Continuer – ${formatFcfa(25000)}` }).click();

  // The test gateway, standing in for the operator.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirmer le paiement");
  await expect(page.getByText(formatFcfa(25000))).toBeVisible();
  const before = own.smtp.mails.length;
  await page.getByRole("button", { name: "Approuver le paiement" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/formations/${SLUG}$`));
  await expect(page.getByText("Paiement confirmé")).toBeVisible();
  const receipt = await own.smtp.waitForMail("oumou@exemple.ml", { after: before });
  expect(receipt.subject).toContain("Paiement reçu");
  expect(receipt.raw).toContain("application/pdf");

  // The lessons: mark the first two done.
  await page.getByRole("link", { name: "Commencer la formation" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cadrer le projet");
  await page.getByRole("button", { name: "Marquer comme terminé" }).click();
  await expect(page.getByText("Progression : 33 %")).toBeVisible();
  await page.getByRole("link", { name: /Suivante\s:\sChiffrer le projet/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chiffrer le projet");
  await page.getByRole("button", { name: "Marquer comme terminé" }).click();
  await expect(page.getByText("Progression : 67 %")).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Back to the first lesson to watch part of its video; the position is saved on pause.
  await page.getByRole("link", { name: /Précédente\s:\sCadrer le projet/ }).click();
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await video.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(2);
  const saved = page.waitForResponse((response) => response.url().endsWith("/position") && response.status() === 204);
  const stoppedAt = await video.evaluate((element: HTMLVideoElement) => {
    element.pause();
    return Math.floor(element.currentTime);
  });
  await saved;

  // Leave, come back: "Continuer" opens that lesson at that moment of the video.
  await page.goto("/");
  await page.goto("/dashboard/formations");
  const card = page.getByRole("article", { name: TITLE });
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "67");
  await card.getByRole("link", { name: `Continuer ${TITLE}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cadrer le projet");
  await expect(video).toHaveAttribute("src", new RegExp(`#t=${stoppedAt}$`));
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 })
    .toBeGreaterThanOrEqual(stoppedAt - 1);

  // The receipt is in the learner's space too.
  await page.goto("/dashboard/paiements");
  await page.getByRole("link", { name: new RegExp(TITLE) }).click();
  await expect(page.getByText("Payé", { exact: true })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Télécharger le reçu (PDF)" }).click();
  expect((await download).suggestedFilename()).toMatch(/^recu-ICEF-.+\.pdf$/);
});

test("another learner pays cash at the office; an admin records it and the course opens", async ({ browser }) => {
  const page = await newPage(browser);
  await signUpFromCourse(page, { firstName: "Bakary", lastName: "Coulibaly", email: "bakary@exemple.ml" });
  // On a phone, the radio beside the longest text (it wraps) keeps the size of the others.
  const radioWidths = await page.getByRole("radio").evaluateAll((radios) => radios.map((radio) => radio.getBoundingClientRect().width));
  expect(new Set(radioWidths).size, `radio widths ${radioWidths.join(", ")}`).toBe(1);
  await page.getByRole("radio", { name: /Espèces/ }).check();
  await page.getByRole("button", { name: `Continuer – ${formatFcfa(25000)}` }).click();
  await expect(page.getByRole("heading", { name: "Réglez votre formation à l'institut" })).toBeVisible();
  const reference = (await page
    .getByText(/^ICEF-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    .first()
    .textContent())!.trim();
  expect(reference).toMatch(/^ICEF-/);
  await expect(page.getByText("Cité SEMA, Bamako, Mali")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // Until paid, the course does not open.
  await page.goto(`/dashboard/formations/${SLUG}`);
  await expect(page).toHaveURL(new RegExp(`/formations/${SLUG}/inscription$`));
  await page.goto("/dashboard/formations");
  await expect(page.getByRole("article", { name: TITLE }).getByText("En attente de paiement")).toBeVisible();

  const admin = await newPage(browser, { width: 1280, height: 900 });
  await signInAs(admin, "admin", "/admin/financial");
  await admin.getByRole("search", { name: "Rechercher des transactions" }).getByLabel("Rechercher").fill(reference.toLowerCase());
  await admin.getByRole("button", { name: "Filtrer" }).click();
  const pending = admin.getByRole("region", { name: "Paiements en espèces à confirmer" });
  await expect(pending.getByText(reference)).toBeVisible();
  await pending.getByRole("button", { name: "Enregistrer le paiement" }).click();
  await expect(pending.getByText(/^Saisissez le numéro du reçu remis \(/)).toBeVisible();
  await pending.getByLabel("N° du reçu remis").fill("R-2026-117");
  await pending.getByRole("button", { name: "Enregistrer le paiement" }).click();
  await expect(admin.getByText("Paiement enregistré")).toBeVisible();
  await expectNoSeriousA11yViolations(admin);

  await page.goto("/dashboard/formations");
  const card = page.getByRole("article", { name: TITLE });
  await expect(card.getByText("En cours")).toBeVisible();
  await card.getByRole("link", { name: `Continuer ${TITLE}` }).click();
  await expect(page.getByRole("link", { name: "Commencer la formation" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
