import { createHmac } from "node:crypto";
import { linkIn } from "../setup/smtp";
import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { waitForMail } from "./mailbox";
import { submitSignInForm } from "./sign-in";

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) from a base32 secret, as an authenticator app computes it. */
function totp(base32Secret: string, at = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of base32Secret.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const hmac = createHmac("sha1", key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  const code = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, "0");
}

test("a student edits the profile, changes the password, turns on two-factor and signs in with a code", async ({ page }) => {
  test.setTimeout(120_000);
  const email = `profil-${Date.now()}-${Math.floor(Math.random() * 1e6)}@exemple.ml`;
  const firstPassword = "Baobab-Niger-Kayes-71";
  const secondPassword = "Sikasso-Mangue-Pluie-93";

  await test.step("sign up and confirm the address", async () => {
    await page.goto("/auth?onglet=inscription");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Créer mon compte" }) });
    await form.getByLabel("Prénom").fill("Mariam");
    await form.getByLabel(/^Nom/).fill("Sangaré");
    await form.getByLabel("E-mail").fill(email);
    await form.getByLabel("Mot de passe").fill(firstPassword);
    await form.getByRole("button", { name: "Créer mon compte" }).click();
    await expect(page.getByText(/Compte créé avec succès/)).toBeVisible();
    const mail = await waitForMail(email, /Confirmez votre adresse e-mail/);
    await page.goto(linkIn(mail.body, /https?:\/\/\S+\/auth\/verification\?token=[\w.%-]+/));
    if (!/\/dashboard/.test(page.url())) await submitSignInForm(page, email, firstPassword);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  await test.step("Général: badge, validation, save with a toast, reloaded values", async () => {
    await page.goto("/dashboard/profile");
    await expect(page.getByRole("heading", { name: "Mon Profil" })).toBeVisible();
    await expect(page.getByTestId("role-badge")).toHaveText("Étudiant");
    await expect(page.getByTestId("role-badge")).toHaveClass(/green/);
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    await expect(page.getByLabel("E-mail")).toBeDisabled();
    await expect(page.getByText("L'e-mail ne peut pas être modifié")).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Prénom").fill("Mariam");
    await page.getByLabel(/^Nom/).fill("Sangaré Diallo");
    await page.getByLabel("Téléphone").fill("76 12");
    await page.getByRole("button", { name: "Mettre à jour" }).click();
    await expect(page.getByText(/^Numéro invalide/)).toBeVisible();
    await expect(page.getByLabel("Téléphone")).toHaveValue("76 12");
    await expect(page.getByLabel(/^Nom/)).toHaveValue("Sangaré Diallo");
    await expect(page.getByLabel("Téléphone")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: "Impossible de mettre à jour le profil" }).first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A Malian number typed without its prefix is read as one (defect 7.2 of issue 8).
    await page.getByLabel("Téléphone").fill("76123456");
    await page.getByRole("button", { name: "Mettre à jour" }).click();
    await expect(page.getByText("Profil mis à jour avec succès")).toBeVisible();
    await expect(page.getByLabel("Téléphone")).toHaveValue("+223 76 12 34 56");
    await expect(page.getByText("Mariam Sangaré Diallo").first()).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(/^Nom/)).toHaveValue("Sangaré Diallo");
    await expect(page.getByLabel("Téléphone")).toHaveValue("+223 76 12 34 56");
    await expect(page.getByRole("banner").getByText("Mariam Sangaré Diallo", { exact: true })).toBeVisible();
    // Shown once: the toast cookie was cleared.
    await expect(page.getByText("Profil mis à jour avec succès")).toHaveCount(0);
  });

  await test.step("Activité lists the real events", async () => {
    await page.getByRole("link", { name: "Activité" }).click();
    await expect(page).toHaveURL(/onglet=activite/);
    const list = page.getByTestId("activite");
    await expect(list.getByText("Profil mis à jour")).toBeVisible();
    await expect(list.getByText("Champs modifiés : nom, téléphone")).toBeVisible();
    await expect(list.getByText("Adresse e-mail confirmée")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  await test.step("Sécurité: password change", async () => {
    await page.getByRole("link", { name: "Sécurité" }).click();
    await expect(page.getByTestId("sessions").getByText("Cet appareil")).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel("Mot de passe actuel").fill("pas-le-bon-mot-de-passe");
    await page.getByLabel(/^Nouveau mot de passe/).fill(secondPassword);
    await page.getByLabel("Confirmer le nouveau mot de passe").fill(secondPassword);
    await page.getByRole("button", { name: "Changer le mot de passe" }).click();
    await expect(page.getByText("Mot de passe actuel incorrect.")).toBeVisible();

    await page.getByLabel("Mot de passe actuel").fill(firstPassword);
    await page.getByLabel(/^Nouveau mot de passe/).fill("motdepasse");
    await page.getByLabel("Confirmer le nouveau mot de passe").fill("motdepasse");
    await page.getByRole("button", { name: "Changer le mot de passe" }).click();
    await expect(page.getByText(/trop courant/)).toBeVisible();

    await page.getByLabel("Mot de passe actuel").fill(firstPassword);
    await page.getByLabel(/^Nouveau mot de passe/).fill(secondPassword);
    await page.getByLabel("Confirmer le nouveau mot de passe").fill(secondPassword);
    await page.getByRole("button", { name: "Changer le mot de passe" }).click();
    await expect(page.getByText("Vos autres sessions ont été fermées.")).toBeVisible();
    // Still on this page: the bell's live reload waits for the answer and its new session cookie.
    await expect(page).toHaveURL(/\/dashboard\/profile\?onglet=securite$/);
    // Still signed in on this device (a new session cookie came with the answer).
    await page.reload();
    await expect(page.getByRole("heading", { name: "Mon Profil" })).toBeVisible();
  });

  let secret = "";
  await test.step("Sécurité: two-factor set-up with a QR code and backup codes", async () => {
    await page.getByRole("button", { name: "Configurer" }).scrollIntoViewIfNeeded();
    await page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Configurer" }) })
      .getByLabel("Mot de passe")
      .fill("faux-mot-de-passe");
    await page.getByRole("button", { name: "Configurer" }).click();
    await expect(page.getByText("Mot de passe incorrect.")).toBeVisible();
    await page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Configurer" }) })
      .getByLabel("Mot de passe")
      .fill(secondPassword);
    await page.getByRole("button", { name: "Configurer" }).click();
    await expect(page.getByRole("img", { name: /QR code/ }).locator("svg")).toBeVisible();
    secret = (await page.getByTestId("cle-totp").textContent())!.replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel("Code de vérification").fill("000000" === totp(secret) ? "111111" : "000000");
    await page.getByRole("button", { name: "Activer" }).click();
    await expect(page.getByText("Code incorrect.")).toBeVisible();
    await page.getByLabel("Code de vérification").fill(totp(secret));
    await page.getByRole("button", { name: "Activer" }).click();
    await expect(page.getByTestId("codes-de-secours").getByRole("listitem")).toHaveCount(10);
    await expect(page.getByText("Double authentification activée").first()).toBeVisible();
    // The security notice also arrives live, as a toast of its own: checked once it is there.
    await expect(page.getByRole("region", { name: /^Notifications/ }).getByRole("button", { name: "Voir" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole("link", { name: "J'ai noté mes codes" }).click();
    await expect(page.getByTestId("codes-de-secours")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Désactiver" })).toBeVisible();
  });

  await test.step("sign out, then sign-in asks for the code", async () => {
    await page.getByRole("button", { name: "Se déconnecter de cet appareil" }).click();
    await expect(page).toHaveURL(/\/$/);
    await submitSignInForm(page, email, secondPassword);
    await expect(page.getByLabel("Code de vérification")).toBeVisible();
    await page.getByLabel("Code de vérification").fill(totp(secret));
    await page.getByRole("button", { name: "Vérifier" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bienvenue, Mariam !");
    await page.goto("/dashboard/profile?onglet=activite");
    await expect(page.getByTestId("activite").getByText("Double authentification activée")).toBeVisible();
    await expect(page.getByTestId("activite").getByText("Mot de passe modifié")).toBeVisible();
    await expect(page.getByTestId("activite").getByText("Connexion", { exact: true }).first()).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the profile form and the session list work, and another device's session can be closed", async ({ page, user, pageOf }) => {
    test.setTimeout(90_000);
    // A second device.
    const otherPage = await pageOf(user);

    await page.goto("/dashboard/profile");
    await page.getByLabel("Téléphone").fill("+223 12 34");
    await page.getByRole("button", { name: "Mettre à jour" }).click();
    await expect(page.getByText(/^Numéro invalide/)).toBeVisible();
    await expect(page.getByLabel("Téléphone")).toHaveValue("+223 12 34");
    await page.getByLabel("Téléphone").fill("+223 20 22 33 44");
    await page.getByRole("button", { name: "Mettre à jour" }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
    await expect(page.getByText("Profil mis à jour avec succès")).toBeVisible();
    await expect(page.getByLabel("Téléphone")).toHaveValue("+223 20 22 33 44");

    await page.getByRole("link", { name: "Sécurité" }).click();
    const sessions = page.getByTestId("sessions").getByRole("listitem");
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: "Cet appareil" })).toHaveCount(1);
    await sessions
      .filter({ hasNotText: "Cet appareil" })
      .getByRole("button", { name: /Fermer la session/ })
      .click();
    await expect(page.getByText("Session fermée")).toBeVisible();
    await expect(sessions).toHaveCount(1);

    await otherPage.goto("/dashboard/profile");
    await expect(otherPage).toHaveURL(/\/auth\?redirectTo=%2Fdashboard%2Fprofile/);

    await page.getByRole("link", { name: "Activité" }).click();
    await expect(page.getByTestId("activite").getByText("Session révoquée")).toBeVisible();
  });
});
