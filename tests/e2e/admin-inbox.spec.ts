import { expectNoSeriousA11yViolations } from "./axe";
import { expect, test } from "./fixtures";
import { waitForMail } from "./mailbox";

/**
 * The contact inbox on a phone and on a desktop: a visitor writes through the contact form, an
 * admin of the test's own (no other spec's toast or notification in the way) finds the message,
 * answers it (the answer leaves by e-mail), then archives it.
 */
test.describe.configure({ timeout: 240_000 });

for (const width of [360, 1280]) {
  test(`an admin answers a contact message at ${width} px`, async ({ page: visitor, createUser, pageOf }, testInfo) => {
    await visitor.setViewportSize({ width, height: 900 });
    const name = `Mariam Diarra ${width}-${Date.now()}`;
    const email = `mariam.${width}.${Date.now()}@exemple.ml`;

    await visitor.goto("/contact");
    const form = visitor.locator("form").filter({ has: visitor.getByRole("button", { name: "Envoyer le message" }) });
    await form.getByLabel("Nom complet").fill(name);
    await form.getByLabel(/^E-mail/).fill(email);
    await form.getByLabel("Sujet").selectOption("Certification");
    await form.getByLabel("Message").fill("Bonjour, le certificat en cybersécurité est-il reconnu par l'État ?");
    await form.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(visitor).toHaveURL(/envoye=1/);

    const page = await pageOf(await createUser("admin"), { viewport: { width, height: 900 } });
    await page.goto("/admin/messages");
    await expect(page.getByRole("heading", { name: "Messages de contact" })).toBeVisible();
    await page.getByRole("searchbox", { name: "Rechercher", exact: true }).fill(name);
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(/q=/);
    await page.screenshot({ path: testInfo.outputPath(`inbox-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("link", { name: /Certification/ }).click();
    await expect(page.getByRole("heading", { name: "Certification" })).toBeVisible();
    await expect(page.getByText("le certificat en cybersécurité est-il reconnu")).toBeVisible();
    // Blanks only pass the browser's "required": the server says why beside the field.
    await page.getByLabel("Votre réponse").fill("   ");
    await page.getByRole("button", { name: "Envoyer la réponse" }).click();
    await expect(page.getByText("La réponse est obligatoire.")).toBeVisible();

    await page.getByLabel("Votre réponse").fill("Bonjour,\n\nOui : il est délivré avec le visa de la Chambre de commerce.");
    await page.getByRole("button", { name: "Envoyer la réponse" }).click();
    await expect(page.getByText("Réponse envoyée", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Réponses" })).toBeVisible();
    await expect(page.getByText("il est délivré avec le visa")).toBeVisible();
    await expect(page.getByLabel("Votre réponse")).toHaveValue("");
    await expect(page.getByText("Répondu", { exact: true })).toBeVisible();
    const answer = await waitForMail(email, /^Re\s:\sCertification/);
    expect(answer.body).toContain("il est délivré avec le visa de la Chambre de commerce.");
    await page.screenshot({ path: testInfo.outputPath(`message-${width}.png`), fullPage: true });
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("button", { name: "Archiver ce message" }).click();
    await expect(page.getByText("Message archivé")).toBeVisible();
    await expect(page.getByRole("link", { name: /Certification/ })).toHaveCount(0);
  });
}
