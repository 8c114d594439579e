import fs from "node:fs";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { linkIn } from "../setup/smtp";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";
import { demoAccounts, signIn } from "./sign-in";

/**
 * User management (/admin/users) in a real browser. These tests change roles and deactivate
 * accounts, so they run against a server of their own (the same build, its own data folder and a
 * real SMTP server in this process, so invitations can be read) and never disturb the demo
 * accounts other spec files sign in with.
 */

// Several pages, two browsers and axe per test: more time than the default 30 s on a busy machine.
test.describe.configure({ mode: "serial", timeout: 120_000 });

const demo = demoAccounts;

let own: IsolatedServer;
let base = "";
let smtp: IsolatedServer["smtp"];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  own = await startIsolatedServer();
  base = own.base;
  smtp = own.smtp;
});

test.afterAll(async () => {
  await own?.stop();
});

async function newContext(browser: Browser, options: { javaScriptEnabled?: boolean } = {}) {
  return browser.newContext({ baseURL: base, acceptDownloads: true, ...options });
}

const usersTable = (page: Page) => page.getByRole("region", { name: "Liste des utilisateurs" });
const rowOf = (page: Page, email: string) => usersTable(page).locator(`tr[data-user-email="${email}"]`);
const toast = (page: Page) => page.getByRole("region", { name: /Notifications/ });

async function searchFor(page: Page, text: string) {
  const search = page.getByRole("search", { name: "Rechercher des utilisateurs" });
  await search.getByLabel("Rechercher").fill(text);
  await search.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
}

let admin: BrowserContext;
let adminPage: Page;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(60_000);
  admin = await newContext(browser);
  adminPage = await admin.newPage();
  await signIn(adminPage, demo.admin.email, demo.admin.password, "/admin/users");
});

test.afterAll(async () => {
  await admin?.close();
});

test("the page: stat cards from the database, search, role filter, and no serious axe violation", async () => {
  const page = adminPage;
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { level: 1, name: "Gestion des Utilisateurs" })).toBeVisible();
  const stats = page.getByRole("region", { name: "Statistiques des utilisateurs" });
  // The development seed: one admin, one teacher, the demo student and the teacher's four learners.
  await expect(stats).toContainText("Total utilisateurs7");
  await expect(stats).toContainText("Étudiants5");
  await expect(stats).toContainText("Enseignants1");
  await expect(stats).toContainText("Administrateurs1");
  await expect(usersTable(page).locator("tbody tr")).toHaveCount(7);
  // On a 1280-px laptop every column shows, the actions included: no scrolling the table sideways.
  expect(page.viewportSize()?.width).toBe(1280);
  expect(await usersTable(page).evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);

  await searchFor(page, "KEÏTA");
  await expect(usersTable(page).locator("tbody tr")).toHaveCount(1);
  await expect(rowOf(page, demo.student.email)).toBeVisible();

  await page.getByRole("link", { name: "Effacer" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("searchbox", { name: "Rechercher", exact: true }).last()).toHaveValue("");
  await page.getByLabel("Rôle", { exact: true }).selectOption({ label: "Enseignant" });
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(/role=enseignants/);
  await expect(usersTable(page).locator("tbody tr")).toHaveCount(1);
  await expect(rowOf(page, demo.teacher.email)).toBeVisible();

  // The dialog is accessible too.
  await page.getByRole("button", { name: "Nouvel utilisateur" }).click();
  await expect(page.getByRole("dialog", { name: "Nouvel utilisateur" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("an admin changes a student's role and the student's sidebar changes", async ({ browser }) => {
  const studentContext = await newContext(browser);
  const studentPage = await studentContext.newPage();
  await signIn(studentPage, demo.student.email, demo.student.password);
  const studentNav = studentPage.getByRole("navigation", { name: "Navigation principale" });
  await expect(studentNav.getByRole("link", { name: "Portail Enseignant" })).toHaveCount(0);

  const page = adminPage;
  await page.goto("/admin/users");
  const row = rowOf(page, demo.student.email);
  await row.getByLabel(`Rôle d'${demo.student.name}`).selectOption("teacher");
  await row.getByRole("button", { name: `Appliquer le rôle choisi à ${demo.student.name}` }).click();
  await expect(toast(page)).toContainText("Rôle utilisateur mis à jour avec succès");
  await expect(row.getByLabel(`Rôle d'${demo.student.name}`)).toHaveValue("teacher");
  await expect(page.getByRole("region", { name: "Journal des actions" })).toContainText(
    `a changé le rôle de ${demo.student.name} : Étudiant → Enseignant`,
  );

  // The student's next page shows the teacher group, and /teacher opens.
  await studentPage.reload();
  await expect(studentNav.getByRole("link", { name: "Portail Enseignant" })).toBeVisible();
  await studentPage.goto("/teacher");
  await expect(studentPage).toHaveURL(/\/teacher$/);

  // And back.
  await row.getByLabel(`Rôle d'${demo.student.name}`).selectOption("user");
  await row.getByRole("button", { name: `Appliquer le rôle choisi à ${demo.student.name}` }).click();
  // The select shows "user" as soon as it is chosen: wait for the server's own record of the change.
  await expect(page.getByRole("region", { name: "Journal des actions" })).toContainText(
    `a changé le rôle de ${demo.student.name} : Enseignant → Étudiant`,
  );
  await expect(row.getByLabel(`Rôle d'${demo.student.name}`)).toHaveValue("user");
  await studentPage.goto("/teacher");
  await expect(studentPage).toHaveURL(/\/dashboard$/);
  await expect(studentNav.getByRole("link", { name: "Portail Enseignant" })).toHaveCount(0);
  await studentContext.close();
});

test("an admin cannot take their own admin role away", async () => {
  const page = adminPage;
  await page.goto("/admin/users");
  const own = rowOf(page, demo.admin.email);
  await expect(own).toContainText("(vous)");
  await expect(own.getByRole("combobox")).toHaveCount(0);
  await expect(own.getByRole("button", { name: /Désactiver/ })).toHaveCount(0);
});

test("creating a user through the dialog e-mails an invitation that sets a password", async ({ browser }) => {
  const page = adminPage;
  await page.goto("/admin/users");
  await page.getByRole("button", { name: "Nouvel utilisateur" }).click();
  const dialog = page.getByRole("dialog", { name: "Nouvel utilisateur" });

  // A registered address: the error is beside the field and what was typed stays.
  await dialog.getByLabel("Prénom").fill("Mariam");
  await dialog.getByRole("textbox", { name: "Nom", exact: true }).fill("Konaté");
  await dialog.getByLabel("Adresse e-mail").fill("ETUDIANT@campus.test");
  await dialog.getByLabel("Rôle").selectOption("teacher");
  await dialog.getByRole("button", { name: "Créer et envoyer l'invitation" }).click();
  await expect(dialog.getByText("Un compte existe déjà avec cette adresse e-mail.")).toBeVisible();
  await expect(dialog.getByLabel("Adresse e-mail")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Prénom")).toHaveValue("Mariam");
  await expect(dialog.getByLabel("Rôle")).toHaveValue("teacher");

  const before = smtp.mails.length;
  await dialog.getByLabel("Adresse e-mail").fill("mariam.konate@exemple.ml");
  await dialog.getByRole("button", { name: "Créer et envoyer l'invitation" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(toast(page)).toContainText("Utilisateur créé avec succès");
  const row = rowOf(page, "mariam.konate@exemple.ml");
  await expect(row).toContainText("Mariam Konaté");
  await expect(row).toContainText("Invitation envoyée");

  const mail = await smtp.waitForMail("mariam.konate@exemple.ml", { after: before });
  expect(mail.subject).toContain("Votre compte sur la plateforme");
  expect(mail.body).toContain("Enseignant");
  const link = linkIn(mail.body, /https?:\/\/\S+\/auth\?mode=recuperation&token=[A-Za-z0-9]+/);

  const invitedContext = await newContext(browser);
  const invited = await invitedContext.newPage();
  await invited.goto(link);
  await expect(invited.getByRole("heading", { level: 1, name: "Nouveau mot de passe" })).toBeVisible();
  await invited.getByLabel("Nouveau mot de passe").fill("Fleuve-Niger-Bamako-2025");
  await invited.getByLabel("Confirmer le mot de passe").fill("Fleuve-Niger-Bamako-2025");
  await invited.getByRole("button", { name: "Mettre à jour le mot de passe" }).click();
  await expect(invited).toHaveURL(/\/dashboard$/, { timeout: 10_000 });
  await expect(
    invited.getByRole("navigation", { name: "Navigation principale" }).getByRole("link", { name: "Portail Enseignant" }),
  ).toBeVisible();
  await invitedContext.close();

  await page.reload();
  await expect(rowOf(page, "mariam.konate@exemple.ml")).toContainText("Actif");
});

test("a deactivated user is signed out everywhere and cannot sign in again until reactivated", async ({ browser }) => {
  const teacherContext = await newContext(browser);
  const teacherPage = await teacherContext.newPage();
  await signIn(teacherPage, demo.teacher.email, demo.teacher.password, "/teacher");

  const page = adminPage;
  await page.goto("/admin/users");
  const row = rowOf(page, demo.teacher.email);
  await row.getByRole("button", { name: /^Désactiver le compte de/ }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("ne pourra plus se connecter");
  await confirm.getByRole("button", { name: "Désactiver le compte" }).click();
  await expect(toast(page)).toContainText("Compte désactivé");
  await expect(row).toContainText("Désactivé");

  // Its open session has ended...
  await teacherPage.goto("/teacher");
  await expect(teacherPage).toHaveURL(/\/auth\?redirectTo=%2Fteacher$/);
  // ...and signing in again is refused.
  const form = teacherPage.locator("form").filter({ has: teacherPage.getByRole("button", { name: "Se connecter" }) });
  await form.getByLabel("E-mail").fill(demo.teacher.email);
  await form.getByLabel("Mot de passe").fill(demo.teacher.password);
  await form.getByRole("button", { name: "Se connecter" }).click();
  await expect(teacherPage).toHaveURL(/\/auth/);
  await expect(teacherPage.getByRole("alert")).toContainText("Ce compte a été désactivé.");

  await row.getByRole("button", { name: /^Réactiver le compte de/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Réactiver le compte" }).click();
  await expect(row).toContainText("Actif");
  await signIn(teacherPage, demo.teacher.email, demo.teacher.password, "/teacher");
  await teacherContext.close();
});

test("the CSV export downloads the list with the spec's columns", async () => {
  const page = adminPage;
  await page.goto("/admin/users");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exporter CSV" }).click();
  const download = await downloading;
  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`utilisateurs-${today}.csv`);
  const content = fs.readFileSync((await download.path())!, "utf8");
  expect(content.charCodeAt(0)).toBe(0xfeff);
  const lines = content.slice(1).trimEnd().split("\r\n");
  expect(lines[0]).toBe("Prénom;Nom;E-mail;Téléphone;Rôle;Statut;Date d'inscription");
  // The seven seeded people (demo accounts and the teacher's four learners) and the one invited above.
  expect(lines).toHaveLength(1 + 8);
  expect(lines.find((line) => line.includes(demo.student.email))).toMatch(
    /^Aïssata;Keïta;etudiant@campus\.test;;Étudiant;Actif;\d{2}\/\d{2}\/\d{4}$/,
  );
  expect(lines.some((line) => line.includes("mariam.konate@exemple.ml") && line.includes("Enseignant"))).toBe(true);
});

test.describe("without JavaScript", () => {
  test("role change, the inline 'Nouvel utilisateur' form and the deactivation confirmation all work", async ({ browser }) => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, demo.admin.email, demo.admin.password, "/admin/users");

    const row = rowOf(page, demo.student.email);
    await row.getByLabel(`Rôle d'${demo.student.name}`).selectOption("admin");
    await row.getByRole("button", { name: `Appliquer le rôle choisi à ${demo.student.name}` }).click();
    // The toast is in <noscript> (Chromium's script switch leaves <noscript> unparsed, so read the HTML).
    await expect(rowOf(page, demo.student.email)).toBeVisible();
    expect(await page.content()).toContain("Rôle utilisateur mis à jour avec succès");
    await expect(rowOf(page, demo.student.email).getByLabel(`Rôle d'${demo.student.name}`)).toHaveValue("admin");
    await rowOf(page, demo.student.email).getByLabel(`Rôle d'${demo.student.name}`).selectOption("user");
    await rowOf(page, demo.student.email)
      .getByRole("button", { name: /^Appliquer/ })
      .click();
    await expect(rowOf(page, demo.student.email).getByLabel(`Rôle d'${demo.student.name}`)).toHaveValue("user");

    await page.getByRole("link", { name: "Nouvel utilisateur" }).click();
    await expect(page).toHaveURL(/nouveau=1/);
    const form = page.locator("section", { has: page.getByRole("heading", { name: "Nouvel utilisateur" }) });
    await form.getByLabel("Prénom").fill("Oumar");
    await form.getByRole("textbox", { name: "Nom", exact: true }).fill("");
    await form.getByLabel("Adresse e-mail").fill("oumar.sidibe@exemple.ml");
    await form.getByRole("button", { name: "Créer et envoyer l'invitation" }).click();
    await expect(form.getByText("Le nom est obligatoire.")).toBeVisible();
    await expect(form.getByLabel("Adresse e-mail")).toHaveValue("oumar.sidibe@exemple.ml");
    await form.getByRole("textbox", { name: "Nom", exact: true }).fill("Sidibé");
    await form.getByRole("button", { name: "Créer et envoyer l'invitation" }).click();
    await expect(rowOf(page, "oumar.sidibe@exemple.ml")).toContainText("Invitation envoyée");
    await smtp.waitForMail("oumar.sidibe@exemple.ml");

    await rowOf(page, "oumar.sidibe@exemple.ml")
      .getByRole("link", { name: /^Désactiver le compte de/ })
      .click();
    await expect(page).toHaveURL(/confirmer=/);
    await page.getByRole("button", { name: "Désactiver le compte" }).click();
    await expect(rowOf(page, "oumar.sidibe@exemple.ml")).toContainText("Désactivé");
    await context.close();
  });
});
