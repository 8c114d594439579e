import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { signInAs } from "./sign-in";

/**
 * The installable app (issue 13): the manifest, a service worker that keeps the app shell and a
 * French offline page, and signing out that clears every cache of the device.
 */
test("installs the service worker, shows the offline page without network, and signing out clears the caches", async ({
  page,
  context,
}) => {
  await signInAs(page, "student");
  const manifest = await (await page.request.get("/manifest.webmanifest")).json();
  expect(manifest).toMatchObject({ lang: "fr", short_name: "Campus", display: "standalone", start_url: "/dashboard" });
  expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");

  // The worker installs and precaches the shell and the offline page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).some((name) => name.startsWith("workbox-precache")))).toBe(true);
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await context.setOffline(true);
  await page.goto("/dashboard/formations");
  await expect(page.getByRole("heading", { name: "Vous êtes hors ligne" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("hors-ligne.png") });
  await context.setOffline(false);

  await page.goto("/dashboard");
  await page.goto("/auth/deconnexion");
  await page
    .getByRole("button", { name: /Se déconnecter|Déconnexion/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBe(0);
});

/**
 * Learning offline (issue 13): a learner downloads a lesson (its size shown first, in the chosen
 * video quality), opens and plays it with the network cut, marks it done, answers the untimed quiz
 * that follows it, sees both waiting, and finds them on the server once back online (the quiz
 * graded once); the whole course downloaded from its home brings its end-of-course quiz, which
 * opens offline; signing out removes the stored lesson. On a server of its own
 * (a course is created and followed).
 */
test.describe("a lesson downloaded for offline use", () => {
  test.describe.configure({ mode: "serial", timeout: 600_000 });
  // A busy machine (uploads, transcoding, a second server): generous waits.
  const patient = expect.configure({ timeout: 60_000 });
  const TITLE = "Entretien des batteries solaires";
  const SLUG = "entretien-des-batteries-solaires";
  const QUIZ = "Quiz : l'état de charge";
  const FINAL = "Examen final : les batteries";
  let own: IsolatedServer;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(360_000);
    own = await startIsolatedServer({ timeoutMs: 240_000 });
    const page = await (await browser.newContext({ baseURL: own.base, viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(page, "teacher", "/teacher/create-course");
    await page.getByLabel("Titre du cours").fill(TITLE);
    await page.getByLabel("Description").fill("Contrôler, charger et remplacer les batteries d'une installation solaire.");
    await page.getByLabel("Catégorie").selectOption({ label: "Énergie" });
    await page.getByLabel("Niveau").selectOption({ label: "Débutant" });
    await page.getByLabel("Prix (FCFA)").fill("0");
    await page.getByRole("tab", { name: "Contenu & Leçons" }).click();
    for (const title of ["Lire l'état de charge", "Remplacer une batterie"]) {
      await page.getByRole("button", { name: "Ajouter une leçon" }).click();
      await page.getByLabel("Titre de la leçon").last().fill(title);
    }
    const first = page.getByRole("group", { name: /Leçon 1/ });
    await first
      .getByLabel("Contenu (texte de la leçon)")
      .fill("Mesurez la tension au repos.\n\nUne batterie à 12,2 V est à moitié chargée.");
    await first.getByLabel("Envoyer une vidéo").setInputFiles(path.join(import.meta.dirname, "../fixtures/lesson.webm"));
    await patient(first.getByRole("link", { name: "lesson.webm" })).toBeVisible();
    await page.getByRole("tab", { name: "Paramètres" }).click();
    await page.getByRole("radio", { name: /Publié/ }).check();
    await page.getByRole("button", { name: "Enregistrer" }).first().click();
    await patient(page.getByText("Cours créé avec succès")).toBeVisible();

    // An untimed quiz after the first lesson: downloaded with it, answerable offline.
    await page.goto("/teacher/quiz");
    await page.getByRole("link", { name: "Créer un quiz" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Titre *").fill(QUIZ);
    await dialog.getByLabel("Cours *").selectOption({ label: TITLE });
    await dialog.getByLabel("Leçon (facultatif)").selectOption({ label: "Lire l'état de charge" });
    await dialog.getByRole("tab", { name: /Questions/ }).click();
    await dialog.getByRole("button", { name: "Ajouter une question" }).click();
    await dialog.getByLabel("Question *").fill("Quelle tension indique une batterie à moitié chargée ?");
    for (const [index, option] of ["11,8 V", "12,2 V", "12,7 V", "13,5 V"].entries())
      await dialog.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option);
    await dialog.getByLabel("Option 2 : bonne réponse").check();
    // A practice quiz: its correction after each submit, so it can be taken again after a pass.
    await dialog.getByRole("tab", { name: /Paramètres/ }).click();
    await dialog.getByLabel("Après chaque envoi").check();
    await dialog.getByRole("button", { name: "Créer le quiz" }).click();
    await patient(page.getByText("Le quiz a été créé avec succès.")).toBeVisible();

    // An untimed end-of-course quiz (no lesson): stored by a whole-course download.
    await page.goto("/teacher/quiz");
    await page.getByRole("link", { name: "Créer un quiz" }).first().click();
    await dialog.getByLabel("Titre *").fill(FINAL);
    await dialog.getByLabel("Cours *").selectOption({ label: TITLE });
    await dialog.getByRole("tab", { name: /Questions/ }).click();
    await dialog.getByRole("button", { name: "Ajouter une question" }).click();
    await dialog.getByLabel("Question *").fill("Quelle tension indique une batterie pleine au repos ?");
    for (const [index, option] of ["11,8 V", "12,2 V", "12,7 V", "13,5 V"].entries())
      await dialog.getByLabel(`Option ${index + 1}`, { exact: true }).fill(option);
    await dialog.getByLabel("Option 3 : bonne réponse").check();
    await dialog.getByRole("button", { name: "Créer le quiz" }).click();
    await patient(page.getByText("Le quiz a été créé avec succès.")).toBeVisible();
    await page.context().close();
  });

  test.afterAll(async () => {
    await own?.stop();
  });

  test("downloads a lesson, plays it and marks it done offline, sends the progress back online, and signing out removes it", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: own.base, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInAs(page, "student", `/formations/${SLUG}/inscription`);
    await page.getByRole("button", { name: "Commencer la formation" }).click();
    await patient(page).toHaveURL(new RegExp(`/dashboard/formations/${SLUG}$`));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    // The video's low-data version is made in the background: the lesson offers it once done.
    await page.getByRole("link", { name: "Commencer la formation" }).click();
    await patient(page.getByRole("heading", { level: 1 })).toHaveText("Lire l'état de charge");
    const lessonPath = new URL(page.url()).pathname;
    await patient
      .poll(
        async () => {
          await page.reload();
          return page
            .getByRole("group", { name: "Qualité de la vidéo" })
            .getByRole("link", { name: /Économie/ })
            .count();
        },
        { timeout: 120_000, intervals: [2_000] },
      )
      .toBe(1);

    // The size first, in the chosen quality; then the download.
    const offline = page.getByRole("region", { name: "Hors ligne" });
    await offline.getByRole("button", { name: "Télécharger pour hors ligne" }).click();
    await offline.getByRole("radio", { name: /Économie/ }).check();
    const size = offline.getByTestId("taille-hors-ligne");
    await patient(size).toContainText("vidéo et documents");
    const announced = Number(await size.getAttribute("data-files-bytes"));
    const announcedTotal = Number(await size.getAttribute("data-total-bytes"));
    expect(announced).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath("telecharger-1280.png"), fullPage: true });
    await offline.getByRole("button", { name: /^Télécharger \(/ }).click();
    await patient(offline.getByRole("status")).toContainText("Leçon enregistrée sur cet appareil");

    // What is stored: the lesson's video in that quality, byte for byte what was announced.
    const stored = await page.evaluate(async () => {
      const name = (await caches.keys()).find((key) => key.startsWith("campus-hors-ligne-"))!;
      const cache = await caches.open(name);
      const keys = await cache.keys();
      const files = keys.filter((request) => new URL(request.url).pathname.startsWith("/fichiers/"));
      const sizes = await Promise.all(files.map(async (request) => (await (await cache.match(request))!.blob()).size));
      return {
        urls: keys.map((request) => new URL(request.url).pathname + new URL(request.url).search),
        fileBytes: sizes.reduce((a, b) => a + b, 0),
      };
    });
    expect(stored.fileBytes).toBe(announced);
    expect(stored.urls).toEqual(
      expect.arrayContaining([lessonPath, `${lessonPath}.data`, expect.stringMatching(/^\/fichiers\/.+\?version=basse$/)]),
    );

    // The "Téléchargements" screen lists it with its size.
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Téléchargements" }).click();
    await patient(page.getByRole("heading", { level: 1 })).toHaveText("Téléchargements");
    await patient(page.getByRole("link", { name: "Lire l'état de charge" })).toBeVisible();
    await patient(page.getByText("Disponible")).toBeVisible();
    // Everything stored (video, pages, their data) is what was announced, the pages' estimate within a fifth.
    const storedTotal = Number(await page.getByTestId("octets-enregistres").getAttribute("data-bytes"));
    expect(storedTotal).toBeGreaterThanOrEqual(announced);
    expect(Math.abs(storedTotal - announcedTotal) / storedTotal).toBeLessThan(0.2);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({ path: test.info().outputPath("telechargements-360.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // No network: the lesson opens from the phone, its video plays, and "done" waits on the phone.
    await context.setOffline(true);
    await page.goto(lessonPath);
    await patient(page.getByRole("heading", { level: 1 })).toHaveText("Lire l'état de charge");
    await patient(page.getByText("Une batterie à 12,2 V est à moitié chargée.")).toBeVisible();
    const video = page.locator("video");
    await patient
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true;
      return element.play();
    });
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 10_000 }).toBeGreaterThan(1);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    await page.getByRole("button", { name: "Marquer comme terminé" }).click();
    await patient(page.getByText("Leçon terminée · envoi en attente du réseau")).toBeVisible();
    await patient(page.getByText("Une progression attend d'être envoyée")).toBeVisible();
    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({ path: test.info().outputPath("hors-ligne-lecon-360.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Still offline: the lesson's untimed quiz, downloaded with it, is answered and waits on the phone.
    await page.getByRole("link", { name: `Commencer : ${QUIZ}` }).click();
    await patient(page.getByRole("heading", { level: 1 })).toHaveText(QUIZ);
    await page.getByRole("button", { name: "Commencer le quiz" }).click();
    await patient(page.getByText("Vous êtes hors ligne : vos réponses seront gardées sur cet appareil")).toBeVisible();
    await page.getByRole("radio", { name: "12,2 V" }).check();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("button", { name: "Terminer et envoyer" }).click();
    await patient(page.getByText("Vos réponses sont gardées sur cet appareil")).toBeVisible();
    const banner = page.getByText("2 envois attendent le réseau (progression et réponses aux quiz)");
    await patient(banner).toBeVisible();
    const quizPath = new URL(page.url()).pathname;
    // The "Téléchargements" screen (stored too) says what waits.
    await page.getByRole("link", { name: "Voir le détail" }).click();
    await patient(page.getByRole("heading", { level: 1 })).toHaveText("Téléchargements");
    const waiting = page.getByRole("region", { name: "En attente d'envoi" });
    await patient(waiting).toContainText(`Quiz « ${QUIZ} » : 1 réponse donnée`);
    await expect(waiting).toContainText("Lire l'état de charge : marquée comme terminée");
    await page.setViewportSize({ width: 360, height: 780 });
    await page.screenshot({ path: test.info().outputPath("hors-ligne-quiz-360.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back online: both sent once, and the server has them: the quiz graded, the lesson done.
    await context.setOffline(false);
    await patient(banner).toHaveCount(0, { timeout: 15_000 });
    await expect(waiting).toHaveCount(0);
    await page.goto(quizPath);
    const attempts = page.getByRole("region", { name: /Vos tentatives/ });
    await patient(attempts.getByRole("listitem")).toHaveCount(1);
    await expect(attempts).toContainText("Tentative 1");
    await expect(attempts).toContainText(/100\s%/);
    await expect(attempts).toContainText("Réussi");

    // An attempt started online whose network goes before "Terminer et envoyer": the answers wait
    // on the phone, then finish that same attempt.
    await page.getByRole("button", { name: "Repasser le quiz" }).click();
    await patient(page.getByRole("heading", { level: 1 })).toContainText("tentative 2");
    await context.setOffline(true);
    await page.getByRole("radio", { name: "12,2 V" }).check();
    await page.getByRole("button", { name: "Terminer et envoyer" }).click();
    await patient(page.getByText("Vos réponses sont gardées sur cet appareil")).toBeVisible();
    await patient(page.getByText("Vos réponses à un quiz attendent d'être envoyées")).toBeVisible();
    await context.setOffline(false);
    await patient(page.getByRole("heading", { name: /Réussi · 100\s%/ })).toBeVisible({ timeout: 15_000 });
    await page.goto(quizPath);
    await patient(attempts.getByRole("listitem")).toHaveCount(2);
    await page.goto(`/dashboard/formations/${SLUG}`);
    await patient(page.getByRole("progressbar", { name: `Progression dans ${TITLE}` })).toHaveAttribute("aria-valuenow", "50");

    // The whole course downloaded from its home: its end-of-course quiz, announced, opens offline.
    const course = page.getByRole("region", { name: "Hors ligne" });
    await course.getByRole("button", { name: "Télécharger à nouveau pour hors ligne" }).click();
    await patient(course.getByTestId("taille-hors-ligne")).toContainText("1 quiz de fin de formation");
    await course.getByRole("button", { name: /^Télécharger \(/ }).click();
    await patient(course.getByRole("status")).toContainText("2 leçons enregistrées");
    await page.goto("/dashboard/telechargements");
    const finalLink = page.getByRole("link", { name: FINAL });
    await patient(finalLink).toBeVisible();
    const finalPath = (await finalLink.getAttribute("href"))!;
    await context.setOffline(true);
    await page.goto(finalPath);
    await patient(page.getByRole("heading", { level: 1 })).toHaveText(FINAL);
    await page.getByRole("button", { name: "Commencer le quiz" }).click();
    await patient(page.getByText("Vous êtes hors ligne : vos réponses seront gardées sur cet appareil")).toBeVisible();
    await context.setOffline(false);

    // Signing out takes the stored lesson with it.
    await page.goto("/auth/deconnexion");
    await page.getByRole("button", { name: "Se déconnecter de cet appareil" }).click();
    await patient(page).toHaveURL(/\/$/);
    await patient
      .poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("campus-hors-ligne-")).length))
      .toBe(0);
    await context.close();
  });
});
