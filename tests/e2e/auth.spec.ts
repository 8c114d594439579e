import { expect, test, type Browser, type Page } from "@playwright/test";
import { linkIn, type TestSmtpServer } from "../setup/smtp";
import { expectNoSeriousA11yViolations } from "./axe";
import { startIsolatedServer, type IsolatedServer } from "./isolated-server";

/**
 * /auth in Chromium, with and without JavaScript. The mails are read as a person would read
 * them: this file runs its own server (same build, own data folder) sending over SMTP to a real
 * SMTP server in this process, whose received mails give the links to follow.
 */

test.describe.configure({ mode: "serial" });

let own: IsolatedServer | undefined;
let base = "";
let smtp: TestSmtpServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startIsolatedServer();
  base = own.base;
  smtp = own.smtp;
});

test.afterAll(async () => {
  await own?.stop();
});

async function newPage(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, ...options });
  return context.newPage();
}

async function signOutHere(page: Page) {
  await page.goto("/auth/deconnexion");
  await page.getByRole("button", { name: "Se déconnecter de cet appareil" }).click();
  await expect(page).toHaveURL(`${base}/`);
}

test("sign up, confirm by mail, sign out, sign in, sign out", async ({ browser }) => {
  // A whole account's life with two mails: the default 30 s is too short on a loaded 2-core machine.
  test.setTimeout(90_000);
  const page = await newPage(browser);
  await page.goto("/auth");
  await page.getByRole("link", { name: "Inscription" }).click();
  await expect(page).toHaveURL(/onglet=inscription/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Créer un compte");

  // A common password is refused with its reason; what was typed is kept.
  await page.getByLabel("Prénom").fill("Kadiatou");
  await page.getByRole("textbox", { name: "Nom", exact: true }).fill("Sangaré");
  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("motdepasse123");
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expect(page.getByText("Ce mot de passe est trop courant")).toBeVisible();
  await expect(page.getByLabel("Prénom")).toHaveValue("Kadiatou");
  await expect(page.getByLabel(/^Mot de passe/)).toHaveAttribute("aria-invalid", "true");

  const before = smtp.mails.length;
  await page.getByLabel(/^Mot de passe/).fill("le marché de Médine");
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expect(page.getByRole("status")).toHaveText("Compte créé avec succès ! Vérifiez votre e-mail pour confirmer votre inscription.");

  // Signing in before confirming: refused, with a button to send the mail again.
  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("le marché de Médine");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("alert")).toContainText("n'est pas encore confirmée");
  await page.getByRole("button", { name: "Renvoyer l'e-mail de confirmation" }).click();
  await expect(page.getByRole("status")).toContainText("Un nouvel e-mail de confirmation vous a été envoyé.");

  const mail = await smtp.waitForMail("kadiatou@example.ml", { after: before });
  expect(mail.subject).toContain("Confirmez votre adresse e-mail");
  expect(mail.body).toContain("Bonjour Kadiatou,");
  const link = linkIn(mail.body, /http:\/\/127\.0\.0\.1:\d+\/auth\/verification\?token=[\w.-]+/);
  await page.goto(link);
  await expect(page).toHaveURL(`${base}/dashboard`);

  // Signed in: /auth sends back to the dashboard.
  await page.goto("/auth");
  await expect(page).toHaveURL(`${base}/dashboard`);

  await signOutHere(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard$/);

  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("le marché de Médine");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${base}/dashboard`);
  await signOutHere(page);
});

test("without JavaScript: errors, recovery by mail, new password, back to the dashboard", async ({ browser }) => {
  const page = await newPage(browser, { javaScriptEnabled: false });
  await page.goto("/auth");
  await page.getByLabel(/^E-mail/).fill("inconnu@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("une phrase quelconque");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("alert")).toHaveText("E-mail ou mot de passe incorrect.");
  await expect(page.getByLabel(/^E-mail/)).toHaveValue("inconnu@example.ml");

  await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
  await expect(page).toHaveURL(/onglet=recuperation/);
  const before = smtp.mails.length;
  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByRole("button", { name: "Envoyer le lien" }).click();
  await expect(page.getByRole("status")).toHaveText("Un e-mail de récupération a été envoyé. Vérifiez votre boîte mail.");

  const mail = await smtp.waitForMail("kadiatou@example.ml", { after: before });
  const link = linkIn(mail.body, /http:\/\/127\.0\.0\.1:\d+\/auth\?mode=recuperation&(amp;)?token=[\w-]+/);
  const opened = await page.goto(link);
  expect(opened?.headers()["cache-control"]).toBe("no-store");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nouveau mot de passe");
  // Only the new-password form: no tabs.
  await expect(page.getByRole("navigation", { name: "Choix du formulaire" })).toHaveCount(0);

  await page.getByLabel("Nouveau mot de passe").fill("une nouvelle phrase");
  await page.getByLabel("Confirmer le mot de passe").fill("une autre phrase");
  await page.getByRole("button", { name: "Mettre à jour le mot de passe" }).click();
  await expect(page.getByText("Les mots de passe ne correspondent pas.")).toBeVisible();

  await page.getByLabel("Nouveau mot de passe").fill("court");
  await page.getByLabel("Confirmer le mot de passe").fill("court");
  await page.getByRole("button", { name: "Mettre à jour le mot de passe" }).click();
  await expect(page.getByText("Le mot de passe doit contenir au moins 8 caractères.")).toBeVisible();

  await page.getByLabel("Nouveau mot de passe").fill("une nouvelle phrase");
  await page.getByLabel("Confirmer le mot de passe").fill("une nouvelle phrase");
  await page.getByRole("button", { name: "Mettre à jour le mot de passe" }).click();
  await expect(page.getByRole("status")).toHaveText("Mot de passe mis à jour avec succès !");
  // The meta refresh takes the browser to the dashboard after 2 seconds, without JavaScript.
  await expect(page).toHaveURL(`${base}/dashboard`, { timeout: 6_000 });

  // The link has served: opening it again says so.
  await page.goto(link);
  await expect(page.getByRole("alert")).toContainText("n'est plus valable");
});

test("redirectTo: back to the page that asked, never to another site", async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto("/dashboard/profile");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard%2Fprofile$/);
  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("une nouvelle phrase");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${base}/dashboard/profile`);
  await signOutHere(page);

  await page.goto(`/auth?redirectTo=${encodeURIComponent("//evil.example/vol")}`);
  await page.getByLabel(/^E-mail/).fill("kadiatou@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("une nouvelle phrase");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page).toHaveURL(`${base}/dashboard`);
});

test("loading label while signing in (with JavaScript)", async ({ browser }) => {
  const page = await newPage(browser);
  await page.goto("/auth");
  await page.getByLabel(/^E-mail/).fill("inconnu@example.ml");
  await page.getByLabel(/^Mot de passe/).fill("une phrase quelconque");
  // Hold the action's answer until the button's pending state has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/auth.data*", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("button", { name: "Connexion..." })).toBeDisabled();
  release();
  await expect(page.getByRole("alert")).toHaveText("E-mail ou mot de passe incorrect.");
});

test("accessibility of every state of /auth", async ({ browser }) => {
  // Nine axe runs: more than the default 30 s on a busy two-core machine.
  test.setTimeout(90_000);
  const page = await newPage(browser);
  for (const url of [
    "/auth",
    "/auth?onglet=inscription",
    "/auth?onglet=recuperation",
    "/auth?mode=recuperation&token=perime",
    "/auth?message=inscription",
    "/auth?message=appareil",
    "/auth/appareil?token=un-lien-recu",
  ]) {
    await page.goto(url);
    await expectNoSeriousA11yViolations(page);
  }
  await page.goto("/auth?onglet=inscription");
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await expect(page.getByText("Le prénom est obligatoire.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  // The current tab is marked for assistive technology.
  await expect(page.getByRole("link", { name: "Inscription" })).toHaveAttribute("aria-current", "page");
  // A dead "confirm this browser" link says so, and leads to the sign-in.
  await page.goto("/auth/appareil?token=un-lien-mort");
  await page.getByRole("button", { name: "C'est moi : confirmer cet appareil" }).click();
  await expect(page.getByRole("alert")).toContainText("Ce lien de confirmation n'est plus valable");
  await expectNoSeriousA11yViolations(page);
});
