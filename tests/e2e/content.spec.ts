import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * "Gérer Contenus": the demo teacher sends a PDF to a lesson (resumable upload, attached on
 * arrival), renames it, takes it off the lesson, and deletes it after confirming; at 360 and
 * 1280 px, with axe; the list and its filters without JavaScript. On a server of its own, since it
 * changes a seeded lesson's documents.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

let own: IsolatedServer;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  own = await startIsolatedServer({ timeoutMs: 240_000 });
});

test.afterAll(async () => {
  await own?.stop();
});

async function newPage(browser: Browser, options: { width: number; javaScriptEnabled?: boolean }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: own.base,
    viewport: { width: options.width, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return context.newPage();
}

const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

for (const width of [1280, 360]) {
  test(`a teacher adds, renames, takes off and deletes a document (${width} px)`, async ({ browser }) => {
    const page = await newPage(browser, { width });
    await signInAs(page, "teacher", "/teacher/content");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Gérer Contenus");
    await expectNoSeriousA11yViolations(page);

    const name = `support-${width}.pdf`;
    await page.getByLabel("Document", { exact: true }).check();
    const target = page.getByLabel("Leçon", { exact: true });
    const lessonLabel = (await target.locator("option").nth(1).textContent())!;
    await target.selectOption({ index: 1 });
    await page.getByLabel("Fichier", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: pdf });

    const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name, exact: true }) });
    await expect(row).toBeVisible();
    await expect(row.getByRole("list", { name: `Où « ${name} » est utilisé` })).toContainText(lessonLabel);
    await expect(page.getByText("Fichier rattaché").first()).toBeVisible();

    // Renamed: the extension stays.
    await row.getByText("Renommer", { exact: true }).first().click();
    await row.getByLabel("Nouveau nom").fill(`Fiche ${width}`);
    await row.getByRole("button", { name: "Renommer" }).click();
    const renamed = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Fiche ${width}.pdf`, exact: true }) });
    await expect(renamed).toBeVisible();

    // Used: no "Supprimer". Taken off its lesson, it waits among the unattached uploads.
    await expect(renamed.getByRole("link", { name: /Supprimer/ })).toHaveCount(0);
    await renamed.getByRole("button", { name: /^Retirer/ }).click();
    const unattached = page.getByRole("region", { name: "Envois non rattachés" });
    const waiting = unattached.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Fiche ${width}.pdf` }) });
    await expect(waiting).toContainText("Utilisé nulle part.");
    await page.screenshot({ path: test.info().outputPath(`content-${width}.png`), fullPage: true });

    await waiting.getByRole("link", { name: `Supprimer « Fiche ${width}.pdf »` }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText(`Supprimer « Fiche ${width}.pdf » ?`);
    await expectNoSeriousA11yViolations(page);
    await confirm.getByRole("button", { name: "Supprimer définitivement" }).click();
    await expect(page.getByText("Fichier supprimé").first()).toBeVisible();
    await expect(page.getByRole("link", { name: `Fiche ${width}.pdf` })).toHaveCount(0);

    // Nothing wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test("without JavaScript the list and its filters work; sending a file says it needs JavaScript", async ({ browser }) => {
  const signedIn = await newPage(browser, { width: 360 });
  await signInAs(signedIn, "teacher", "/teacher/content");
  const cookies = await signedIn.context().cookies();
  const page = await newPage(browser, { width: 360, javaScriptEnabled: false });
  await page.context().addCookies(cookies);
  await page.goto("/teacher/content");
  await expect(page.getByText("L'envoi d'un fichier demande JavaScript").first()).toBeVisible();
  await page.getByLabel("Type").selectOption({ label: "Quiz et exercices" });
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(/type=quiz/);
  await expect(page.getByRole("heading", { name: "Quiz et exercices" }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("content-nojs-360.png"), fullPage: true });
});
