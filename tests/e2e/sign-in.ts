import { expect, type Page } from "@playwright/test";

/** Fills and sends the sign-in form of /auth as a person would (coming back to `redirectTo` when given). */
export async function submitSignInForm(page: Page, email: string, password: string, redirectTo?: string) {
  await page.goto(redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Se connecter" }) });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Mot de passe").fill(password);
  await form.getByRole("button", { name: "Se connecter" }).click();
}

/** Signs in through /auth and waits to land on `to`. */
export async function signIn(page: Page, email: string, password: string, to = "/dashboard") {
  await submitSignInForm(page, email, password, to);
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, "\\$&")}$`));
}
