import { expect, test, type Browser, type Page, type Request } from "@playwright/test";
import { seedAssessments } from "../../app/.server/db/seed/assessment-data";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * Assessed and certified on a 360 px phone: the demo learner retakes the final quiz of
 * « Intelligence Artificielle », reloads mid-attempt and loses nothing, passes, finishes the
 * lessons, gets the certificate and its PDF; the QR code's address opens the verification page
 * signed out. A teacher builds a quiz in the dialog. On a server of its own (it changes the demo
 * learner's progress).
 */
test.describe.configure({ mode: "serial", timeout: 240_000 });

let own: IsolatedServer;
const phone = { width: 360, height: 780 };

async function newPage(browser: Browser, viewport = phone): Promise<Page> {
  const context = await browser.newContext({ baseURL: own.base, viewport, acceptDownloads: true });
  return context.newPage();
}

/** The right answer of a seeded question, by its text. */
function rightAnswer(text: string) {
  // The page's text has the seed's no-break spaces as innerText gives them back: compare words, not spaces.
  const words = (value: string) => value.replace(/\s+/g, " ");
  const question = seedAssessments["intelligence-artificielle"]!.questions.find((item) => words(item.q) === words(text));
  if (!question) throw new Error(`unknown question ${text}`);
  return question;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  own = await startIsolatedServer({ timeoutMs: 170_000 });
});
test.afterAll(async () => {
  await own?.stop();
});

test("a learner retakes the quiz, reloads mid-attempt, passes, and is certified", async ({ browser }) => {
  const page = await newPage(browser);
  await signInAs(page, "student", "/dashboard/formations/intelligence-artificielle");
  await page.getByRole("link", { name: /Réessayer\s:\sÉvaluation finale/ }).click();
  await expect(page.getByText("Échoué")).toBeVisible();
  await page.getByRole("button", { name: "Nouvelle tentative" }).click();
  await expect(page).toHaveURL(/\/tentatives\/\d+$/);
  await expect(page.getByText(/Temps restant/)).toBeVisible();
  await page.screenshot({ path: "test-results/assessment-attempt-360.png", fullPage: true });

  const questions = page.locator("form ol > li");
  const count = await questions.count();
  const answer = async (index: number) => {
    const item = questions.nth(index);
    const text = (await item.locator("legend, label").first().innerText())
      .replace(/^Question \d+\s:\s|^\d+\.\s/, "")
      .split("\n")[0]!
      .trim();
    const question = rightAnswer(text.replace(/\s*\d+ points?$/, "").trim());
    if (question.type === "qcm") await item.getByRole("radio", { name: question.options[question.answer]!, exact: true }).check();
    else if (question.type === "vf") await item.getByRole("radio", { name: question.answer ? "Vrai" : "Faux" }).check();
    else {
      await item.getByRole("textbox").fill(question.answer.toUpperCase());
      await item.getByRole("textbox").blur();
    }
  };
  // Each answer is saved on its own, in one request: nothing on the page nor around it is read again.
  const reads: string[] = [];
  const onRequest = (request: Request) => {
    if (request.method() === "GET" && new URL(request.url()).pathname.endsWith(".data")) reads.push(request.url());
  };
  page.on("request", onRequest);
  for (let index = 0; index < 3; index += 1) await answer(index);
  // Once the fourth one's save has come back, a reload loses nothing.
  const fourth = await questions.nth(3).locator("input, textarea").first().getAttribute("name");
  const fourthSaved = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URLSearchParams(response.request().postData() ?? "").has(fourth!),
  );
  await answer(3);
  await fourthSaved;
  await expect(page.getByText(/Réponses enregistrées/)).toBeVisible();
  page.off("request", onRequest);
  expect(reads).toEqual([]);
  // A reload (a dropped connection) loses nothing.
  await page.reload();
  await expect(page.getByText("4 réponses données sur 6")).toBeVisible();
  // Sent with questions unanswered: the page asks first, and takes the learner back to them.
  await page.getByRole("button", { name: "Terminer et envoyer" }).click();
  const unanswered = page.getByRole("alert").filter({ hasText: "sans réponse" });
  await expect(unanswered).toContainText("2 questions sur 6 sans réponse.");
  await page.getByRole("link", { name: "Répondre aux questions" }).click();
  await expect(unanswered).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  for (let index = 4; index < count; index += 1) await answer(index);
  await expect(unanswered).toHaveCount(0);
  await page.getByRole("button", { name: "Terminer et envoyer" }).click();
  await expect(page.getByRole("heading", { name: /Réussi · 100/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Corrections" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // The remaining lessons: the course is complete, the certificate issued (by the background job).
  await page.goto("/dashboard/formations/intelligence-artificielle");
  const lessonLinks = await page
    .locator('a[href*="/lecons/"]')
    .evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
  for (const href of lessonLinks) {
    await page.goto(href);
    const done = page.getByRole("button", { name: "Marquer comme terminé" });
    if (await done.isVisible()) {
      await done.click();
      await expect(page.getByText("Leçon terminée").first()).toBeVisible();
    }
  }
  await expect
    .poll(
      async () => {
        await page.goto("/dashboard/certificates");
        return page.getByRole("heading", { name: "Intelligence Artificielle" }).count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  // Told in the app: the bell's notification, read.
  await page.goto("/dashboard/notifications");
  await expect(page.getByText("Certificat obtenu").first()).toBeVisible();
  await page.getByRole("button", { name: "Tout marquer comme lu" }).click();
  await expect(page.getByText("Tout est lu.")).toBeVisible();
  await page.goto("/dashboard/certificates");
  await page.screenshot({ path: "test-results/assessment-certificates-360.png", fullPage: true });
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /Télécharger le certificat Intelligence Artificielle/ }).click();
  const pdf = await download;
  expect(pdf.suggestedFilename()).toMatch(/^certificat-ICEF-[A-Z0-9-]+\.pdf$/);
  const code = pdf.suggestedFilename().replace(/^certificat-|\.pdf$/g, "");

  // The QR code's URL, signed out.
  const visitor = await newPage(browser);
  await visitor.goto(`/certificats/${code}`);
  await expect(visitor.getByRole("heading", { name: "Certificat valide" })).toBeVisible();
  await expect(visitor.getByText("Aïssata Keïta")).toBeVisible();
  await visitor.screenshot({ path: "test-results/assessment-verification-360.png", fullPage: true });
  await expectNoSeriousA11yViolations(visitor);
});

test("a teacher builds a quiz in the dialog", async ({ browser }) => {
  const page = await newPage(browser);
  await signInAs(page, "teacher", "/teacher/quiz");
  await page.getByRole("link", { name: "Créer un quiz" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Titre *").fill("Quiz du module 1");
  await dialog.getByLabel("Cours *").selectOption({ index: 1 });
  await dialog.getByRole("tab", { name: /Questions/ }).click();
  await dialog.getByRole("button", { name: "Ajouter une question" }).click();
  await expect(page.getByText("Question ajoutée")).toBeVisible();
  await dialog.getByLabel("Question *").fill("Combien de régions compte le Mali ?");
  for (const [index, option] of ["8", "10", "19", "25"].entries())
    await dialog.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option);
  await dialog.getByLabel("Option 3 : bonne réponse").check();
  await page.screenshot({ path: "test-results/assessment-dialog-360.png", fullPage: true });
  await dialog.getByRole("button", { name: "Créer le quiz" }).click();
  await expect(page.getByText("Le quiz a été créé avec succès.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Quiz du module 1" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
