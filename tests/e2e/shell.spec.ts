import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";
import { waitForHydration } from "./hydration";
import { demoAccounts as accounts, signInAs } from "./sign-in";

const sidebar = (page: Page) => page.locator("#barre-laterale");

test.describe("student/admin shell", () => {
  test("a student sees the main entries only, the active link, and the top bar", async ({ page }) => {
    await signInAs(page, "student");
    const nav = sidebar(page).getByRole("navigation", { name: "Navigation principale" });
    for (const label of ["Tableau de Bord", "Mon Profil", "Mes Formations", "Mes paiements", "Forum", "Messagerie", "Certificats"]) {
      // « Messagerie » carries its unread badge (the demo student has an unread reply).
      const name = label === "Messagerie" ? /^Messagerie( \d+ messages? non lus?)?$/ : label;
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole("link", { name: "Vue d'ensemble" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Gestion Utilisateurs" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Portail Enseignant" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Tableau de Bord" })).toHaveAttribute("aria-current", "page");
    await expect(sidebar(page).getByRole("button", { name: "Déconnexion" })).toBeVisible();

    const topBar = page.getByRole("banner");
    await expect(topBar.getByPlaceholder("Rechercher…")).toBeEditable();
    await expect(topBar.getByText(accounts.student.name, { exact: true })).toBeVisible();
    await expect(topBar.getByText(accounts.student.email, { exact: true })).toBeVisible();
    await expect(topBar.getByText("AK", { exact: true })).toBeVisible();
    await topBar.getByRole("button", { name: "Notifications" }).click();
    // Other specs may notify the demo student meanwhile: the popover, whatever it lists, leads to all of them.
    await expect(
      page.getByRole("dialog", { name: "Notifications" }).getByRole("link", { name: "Voir toutes les notifications" }),
    ).toBeVisible();
    await page.keyboard.press("Escape");

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bienvenue, Aïssata !");
    // No sample figures from the prototype.
    await expect(page.getByText("68%")).toHaveCount(0);
    await expect(page.getByText("124h")).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // The sidebar's plain anchors: a click navigates in the app (the document, and this marker on
    // its window, stay), with one request for the page's data and none on hover.
    await waitForHydration(page);
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(new URL(request.url()).pathname);
    });
    await nav.getByRole("link", { name: "Mon Profil" }).hover();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await nav.getByRole("link", { name: "Mon Profil" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(dataRequests).toEqual(["/dashboard/profile.data"]);
    await expect(nav.getByRole("link", { name: "Mon Profil" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Tableau de Bord" })).not.toHaveAttribute("aria-current", "page");
  });

  test("an admin sees the admin group and not the teacher group", async ({ page }) => {
    await signInAs(page, "admin");
    const nav = sidebar(page).getByRole("navigation", { name: "Navigation principale" });
    const expected: Array<[string, string]> = [
      ["Vue d'ensemble", "/admin"],
      ["Gestion Utilisateurs", "/admin/users"],
      ["Mes Cours", "/admin/my-courses"],
      ["Statistiques", "/admin/analytics"],
      ["Finances", "/admin/financial"],
      ["Créer Cours", "/admin/create-course"],
    ];
    await expect(nav.getByText("Administration")).toBeVisible();
    for (const [label, href] of expected) await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    await expect(nav.getByRole("link", { name: "Portail Enseignant" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Statistiques" }).click();
    await expect(page).toHaveURL(/\/admin\/analytics$/);
    await expect(page.getByRole("heading", { name: "Statistiques avancées" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Statistiques" })).toHaveAttribute("aria-current", "page");
    await expectNoSeriousA11yViolations(page);
  });

  test("a teacher sees the teacher group in the main shell, and the teacher shell", async ({ page }) => {
    // It opens every teacher screen: more than the default 30 s on a busy two-core machine.
    test.setTimeout(90_000);
    await signInAs(page, "teacher");
    const nav = sidebar(page).getByRole("navigation", { name: "Navigation principale" });
    await expect(nav.getByRole("link", { name: "Portail Enseignant" })).toHaveAttribute("href", "/teacher");
    await expect(nav.getByRole("link", { name: "Mes Cours" })).toHaveAttribute("href", "/teacher/courses");
    await expect(nav.getByRole("link", { name: "Créer Cours" })).toHaveAttribute("href", "/teacher/create-course");
    await expect(nav.getByRole("link", { name: "Gestion Utilisateurs" })).toHaveCount(0);

    await nav.getByRole("link", { name: "Portail Enseignant" }).click();
    await expect(page).toHaveURL(/\/teacher$/);
    const teacherNav = sidebar(page).getByRole("navigation", { name: "Navigation principale" });
    const entries: Array<[string, string]> = [
      ["Tableau de Bord", "/teacher"],
      ["Mes Cours", "/teacher/courses"],
      ["Mes Étudiants", "/teacher/students"],
      ["Sessions Zoom", "/teacher/sessions"],
      ["Quiz & Évaluations", "/teacher/quiz"],
      ["Messagerie", "/teacher/messages"],
      ["Statistiques", "/teacher/analytics"],
      ["Créer un Cours", "/teacher/create-course"],
      ["Gérer Contenus", "/teacher/content"],
      ["Planifier Session", "/teacher/schedule"],
      ["Paramètres", "/teacher/settings"],
    ];
    for (const [label, href] of entries)
      await expect(teacherNav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    await expect(teacherNav.getByText("Gestion des Cours")).toBeVisible();
    await expect(sidebar(page).getByRole("button", { name: "Déconnexion" })).toBeVisible();
    const topBar = page.getByRole("banner");
    await expect(topBar.getByText(accounts.teacher.name, { exact: true })).toBeVisible();
    await expect(topBar.getByText("Enseignant", { exact: true })).toBeVisible();
    await expect(topBar.getByText(accounts.teacher.email)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Every teacher entry answers (200) with its screen, none is a 404.
    for (const [, href] of entries) {
      const response = await page.goto(href);
      expect(response?.status(), href).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }).first(), href).toBeVisible();
    }
  });
});

test("the course creator is for teachers: a student goes back to the dashboard", async ({ page }) => {
  await signInAs(page, "student");
  await page.goto("/dashboard/course-creator");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the sidebar collapse is kept across reloads and toggles with Ctrl+B", async ({ page }) => {
  await signInAs(page, "student");
  const toggle = sidebar(page).getByRole("button", { name: "Réduire la barre latérale" });
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "false");
  await toggle.click();
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "true");
  await expect(sidebar(page).getByRole("button", { name: "Déplier la barre latérale" })).toHaveAttribute("aria-expanded", "false");
  // Icons only, names kept for assistive technology.
  await expect(sidebar(page).getByRole("link", { name: "Mon Profil" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  const cookie = (await page.context().cookies()).find((c) => c.name === "sidebar_state");
  expect(cookie?.value).toBe("collapsed");
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600);

  await page.reload();
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "true");

  // The shortcut is React's: until the reloaded page is hydrated, a key press does nothing.
  await waitForHydration(page);
  await page.locator("body").click();
  await page.keyboard.press("Control+b");
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "false");
  await page.reload();
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "false");
  await waitForHydration(page);
  await page.keyboard.press("Meta+b");
  await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "true");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the collapse toggle posts, keeps the cookie and comes back to the page", async ({ page }) => {
    await signInAs(page, "admin", "/dashboard/profile");
    await sidebar(page).getByRole("button", { name: "Réduire la barre latérale" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "true");
    await sidebar(page).getByRole("button", { name: "Déplier la barre latérale" }).click();
    await expect(page.locator("[data-shell]")).toHaveAttribute("data-collapsed", "false");
  });

  test("the slide-over opens on a phone", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAs(page, "student");
    await page.locator("summary", { hasText: "Ouvrir le menu" }).click();
    await page.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Certificats" }).click();
    await expect(page).toHaveURL(/\/dashboard\/certificates$/);
  });
});

test("under 768 px the sidebar becomes a slide-over panel", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, "student");
  await expect(sidebar(page)).toBeHidden();
  const open = page.locator("summary", { hasText: "Ouvrir le menu" });
  await open.click();
  const nav = page.getByRole("navigation", { name: "Navigation principale" });
  await expect(nav.getByRole("link", { name: "Mon Profil" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Déconnexion" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await page.keyboard.press("Control+b");
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Mon Profil" }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await expect(nav).toBeHidden();
  await expectNoSeriousA11yViolations(page);
});
