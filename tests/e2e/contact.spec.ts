import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations } from "./axe";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** The contact form (the footer has its own e-mail field). */
const contactForm = (page: Page) => page.locator("form", { has: page.getByRole("button", { name: "Envoyer le message" }) });

async function fillValidForm(page: Page, email: string) {
  const form = contactForm(page);
  await form.getByLabel("Nom complet").fill("Awa Traoré");
  await form.getByLabel(/^E-mail/).fill(email);
  await form.getByLabel("Téléphone").fill("+223 76 12 34 56");
  await form.getByLabel("Sujet").selectOption("Inscription aux formations");
  await form.getByLabel("Message").fill("Bonjour, quelles sont les dates de la prochaine session ?");
  await form.getByLabel("Centre d'intérêt").selectOption("Cybersécurité");
  return form;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "contact form with JavaScript" : "contact form without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("shows the server's errors beside the fields, keeps what was typed, then sends", async ({ page }) => {
      // Two round trips and an axe run: more than 30 s on a busy 2-core machine.
      test.slow();
      await page.goto("/contact");
      await expect(page.getByRole("heading", { level: 1, name: "Contactez-nous" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Envoyez-nous un message" })).toBeVisible();

      // "awa@example" passes the browser's type=email check but not the server's rule.
      const form = await fillValidForm(page, "awa@example");
      await form.getByRole("button", { name: "Envoyer le message" }).click();

      const email = contactForm(page).getByLabel(/^E-mail/);
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText("Veuillez saisir une adresse e-mail valide (exemple : nom@domaine.ml).")).toBeVisible();
      await expect(email).toHaveAccessibleDescription(/adresse e-mail valide/);
      await expect(email).toHaveValue("awa@example");
      await expect(contactForm(page).getByLabel("Nom complet")).toHaveValue("Awa Traoré");
      await expect(contactForm(page).getByLabel("Téléphone")).toHaveValue("+223 76 12 34 56");
      await expect(contactForm(page).getByLabel("Sujet")).toHaveValue("Inscription aux formations");
      await expect(contactForm(page).getByLabel("Message")).toHaveValue("Bonjour, quelles sont les dates de la prochaine session ?");
      await expect(contactForm(page).getByLabel("Centre d'intérêt")).toHaveValue("Cybersécurité");
      if (javaScriptEnabled) {
        await expect(email).toBeFocused();
        await expectNoSeriousA11yViolations(page);
      }

      await email.fill(`awa.${unique()}@example.ml`);
      await page.getByRole("button", { name: "Envoyer le message" }).click();
      await expect(page.getByText("Merci ! Votre message a bien été envoyé. Nous vous répondrons sous 48 heures.")).toBeVisible();
      await expect(page).toHaveURL(/\/contact\?envoye=1#message-envoye$/);
      await expect(page.getByRole("button", { name: "Envoyer le message" })).toHaveCount(0);

      await page.getByRole("link", { name: "Envoyer un autre message" }).click();
      await expect(contactForm(page).getByLabel("Nom complet")).toHaveValue("");
    });
  });
}

test("the browser refuses an empty form before sending it", async ({ page }) => {
  await page.goto("/contact");
  await page.getByRole("button", { name: "Envoyer le message" }).click();
  await expect(page).toHaveURL(/\/contact$/);
  expect(
    await contactForm(page)
      .getByLabel("Nom complet")
      .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
  ).toBe(true);
  for (const label of [/^Nom complet/, /^E-mail/, /^Sujet/, /^Message/]) {
    await expect(contactForm(page).getByLabel(label)).toHaveAttribute("required", "");
  }
  await expect(contactForm(page).getByLabel("Message")).toHaveAttribute("maxlength", "5000");
  await expect(contactForm(page).getByLabel(/^E-mail/)).toHaveAttribute("type", "email");
  await expect(contactForm(page).getByLabel("Téléphone")).toHaveAttribute("placeholder", "+223 XX XX XX XX");
  await expect(contactForm(page).getByLabel("Sujet").locator("option")).toHaveText([
    "Choisissez un sujet",
    "Renseignements généraux",
    "Inscription aux formations",
    "Information sur l'IA",
    "Information sur la Cybersécurité",
    "Partenariat entreprise",
    "Formation sur mesure",
    "Certification",
    "Autre",
  ]);
  await expect(contactForm(page).getByLabel("Centre d'intérêt").locator("option")).toHaveCount(11);
});

test.describe("markup typed into the form", () => {
  test.use({ javaScriptEnabled: false });

  test("comes back as text, never as markup", async ({ page }) => {
    await page.goto("/contact");
    const form = await fillValidForm(page, "pas-un-email@x");
    await form.getByLabel("Nom complet").fill(`<b id="injected">Awa</b>`);
    await form.getByLabel("Message").fill(`</textarea><script id="injected-script">window.__xss = 1</script><img id="injected-img" src=x>`);
    await form.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(contactForm(page).getByLabel(/^E-mail/)).toHaveAttribute("aria-invalid", "true");
    await expect(contactForm(page).getByLabel("Nom complet")).toHaveValue(`<b id="injected">Awa</b>`);
    await expect(contactForm(page).getByLabel("Message")).toHaveValue(
      `</textarea><script id="injected-script">window.__xss = 1</script><img id="injected-img" src=x>`,
    );
    await expect(page.locator("#injected, #injected-script, #injected-img")).toHaveCount(0);
    const html = await page.content();
    expect(html).toContain('&lt;/textarea&gt;&lt;script id="injected-script"&gt;');
  });
});

test("quick contact, info cards, chamber and map link come from the database", async ({ page }) => {
  await page.goto("/contact");
  await expect(page).toHaveTitle("Contact | ICEF");
  const quick = page.locator("section", { has: page.getByRole("heading", { name: "Contact rapide" }) });
  await expect(quick.getByRole("link", { name: /Appeler le \+223 20 22 50 36/ })).toHaveAttribute("href", "tel:+22320225036");
  await expect(quick.getByRole("link", { name: "Écrire un e-mail" })).toHaveAttribute("href", "mailto:contact@icef.ml");

  const info = page.getByRole("complementary", { name: "Nos coordonnées" });
  await expect(info.getByText("Cité SEMA, Bamako, Mali")).toBeVisible();
  await expect(info.getByRole("link", { name: /^\+223/ })).toHaveText(["+223 20 22 50 36", "+223 76 45 12 89", "+223 66 18 73 40"]);
  await expect(info.getByText("Lundi – Vendredi :")).toBeVisible();
  await expect(info.getByRole("heading", { name: /Chambre de Commerce et d'Industrie du Mali/ })).toBeVisible();

  const maps = page.getByRole("link", { name: /Voir sur Google Maps/ });
  await expect(maps).toHaveAttribute("target", "_blank");
  await expect(maps).toHaveAttribute("rel", /noopener/);
  await expect(maps).toHaveAttribute("href", /^https:\/\/www\.google\.com\/maps/);
  await expect(page.getByText("la carte interactive n'est pas chargée")).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
