import { expect, test, type Page } from "@playwright/test";
import { linkIn } from "../setup/smtp";
import { expectNoSeriousA11yViolations } from "./axe";
import { waitForMail } from "./mailbox";
import { NEWSLETTER_MESSAGES } from "~/lib/newsletter";

const address = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.ml`;
const { subscribed: SUBSCRIBED, pending: PENDING, already: ALREADY, invalid: INVALID } = NEWSLETTER_MESSAGES;

/** Double opt-in: the link of the confirmation mail, then its button (a link alone confirms nothing). */
async function confirmByMail(page: Page, email: string) {
  const mail = await waitForMail(email, /^Confirmez votre abonnement/);
  await page.goto(linkIn(mail.body, /https?:\/\/\S+\/newsletter\/confirmation\?jeton=[^\s"<>]+/));
  await page.getByRole("button", { name: "Confirmer mon abonnement" }).click();
  await expect(page.getByRole("main").getByText(/^C.est confirmé/)).toBeVisible();
}

test.describe("footer newsletter with JavaScript", () => {
  test("subscribes in place, then says so kindly the second time", async ({ page }) => {
    await page.goto("/a-propos");
    const footer = page.getByRole("contentinfo");
    const email = address("js");
    await footer.getByLabel("Adresse e-mail").fill(`  ${email.toUpperCase()} `.trim());
    await footer.getByRole("button", { name: "S'abonner" }).click();
    await expect(footer.getByText(SUBSCRIBED)).toBeVisible();
    await expect(page).toHaveURL(/\/a-propos$/);
    // A success empties the field.
    await expect(footer.getByLabel("Adresse e-mail")).toHaveValue("");

    // Not confirmed yet: the same address is told to confirm, not welcomed twice.
    await footer.getByLabel("Adresse e-mail").fill(email);
    await footer.getByRole("button", { name: "S'abonner" }).click();
    await expect(footer.getByText(PENDING)).toBeVisible();

    await confirmByMail(page, email);
    await page.goto("/a-propos");
    await footer.getByLabel("Adresse e-mail").fill(email);
    await footer.getByRole("button", { name: "S'abonner" }).click();
    await expect(footer.getByText(ALREADY)).toBeVisible();
    await expect(page).toHaveURL(/\/a-propos$/);
  });

  test("shows the server's refusal beside the field and keeps the text", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    // Passes the browser's type=email check, not the server's.
    await footer.getByLabel("Adresse e-mail").fill("awa@example");
    await footer.getByRole("button", { name: "S'abonner" }).click();
    await expect(footer.getByText(INVALID)).toBeVisible();
    await expect(footer.getByLabel("Adresse e-mail")).toHaveValue("awa@example");
    await expect(footer.getByLabel("Adresse e-mail")).toHaveAttribute("aria-invalid", "true");
  });
});

test.describe("newsletter without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the footer form lands on /newsletter, which shows the answer", async ({ page }) => {
    await page.goto("/formations");
    const email = address("nojs");
    await page.getByRole("contentinfo").getByLabel("Adresse e-mail").fill(email);
    await page.getByRole("contentinfo").getByRole("button", { name: "S'abonner" }).click();
    await expect(page).toHaveURL(/\/newsletter$/);
    await expect(page.getByRole("heading", { level: 1, name: "Lettre d'information" })).toBeVisible();
    await expect(page.getByRole("main").getByText(SUBSCRIBED)).toBeVisible();
    // The page sits in the public layout.
    await expect(page.getByRole("banner")).toBeVisible();

    await confirmByMail(page, email);
    await page.goto("/newsletter");
    await page.getByRole("main").getByLabel("Votre adresse e-mail").fill(email);
    await page.getByRole("main").getByRole("button", { name: "S'abonner" }).click();
    await expect(page.getByRole("main").getByText(ALREADY)).toBeVisible();
  });

  test("a bad address gets the form back with the message and the text", async ({ page }) => {
    await page.goto("/newsletter");
    const main = page.getByRole("main");
    await main.getByLabel("Votre adresse e-mail").fill("awa@example");
    await main.getByRole("button", { name: "S'abonner" }).click();
    await expect(main.getByText(INVALID)).toBeVisible();
    await expect(main.getByLabel("Votre adresse e-mail")).toHaveValue("awa@example");
    await expect(main.getByLabel("Votre adresse e-mail")).toHaveAttribute("aria-invalid", "true");
  });
});

test("the /newsletter page shows the form and its errors accessibly", async ({ page }) => {
  const response = await page.goto("/newsletter");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Lettre d'information | ICEF");
  const main = page.getByRole("main");
  await expect(main.getByLabel("Votre adresse e-mail")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await main.getByLabel("Votre adresse e-mail").fill("awa@example");
  await main.getByRole("button", { name: "S'abonner" }).click();
  await expect(main.getByText(INVALID)).toBeVisible();
  await expect(main.getByLabel("Votre adresse e-mail")).toHaveAccessibleDescription(INVALID);
  await expectNoSeriousA11yViolations(page);
});
