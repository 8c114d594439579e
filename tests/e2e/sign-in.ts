import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Demo accounts of the development seed (app/.server/db/seed/demo-accounts.ts). */
export const demoAccounts = {
  student: { email: "etudiant@campus.test", password: "Demo-Etudiant-2025", name: "Aïssata Keïta" },
  teacher: { email: "enseignant@campus.test", password: "Demo-Enseignant-2025", name: "Seydou Traoré" },
  admin: { email: "admin@campus.test", password: "Demo-Admin-ICEF-2025", name: "Fatoumata Coulibaly" },
} as const;

/** Fills and sends the sign-in form of /auth as a person would (coming back to `redirectTo` when given). */
export async function submitSignInForm(page: Page, email: string, password: string, redirectTo?: string) {
  await page.goto(redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth");
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Se connecter" }) });
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Mot de passe").fill(password);
  await form.getByRole("button", { name: "Se connecter" }).click();
}

/** Signs `person` in through Better Auth's API; the cookies land in the context `request` belongs to (page.request). */
export async function signInThroughApi(request: APIRequestContext, origin: string, person: { email: string; password: string }) {
  const response = await request.post("/api/auth/sign-in/email", {
    data: { email: person.email, password: person.password },
    headers: { Origin: origin },
  });
  expect(response.status(), `sign-in of ${person.email}: ${await response.text()}`).toBe(200);
}

/**
 * Signs in through the API (the form itself is tested by auth.spec.ts, with submitSignInForm),
 * then opens `to`. The origin is the page's own server: the config's, or an isolated one's.
 */
export async function signIn(page: Page, email: string, password: string, to = "/dashboard") {
  const origin = new URL((await page.request.get("/healthz")).url()).origin;
  await signInThroughApi(page.request, origin, { email, password });
  await page.goto(to);
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, "\\$&")}$`));
}

/** Signs in as one of the demo accounts, landing on `to`. */
export function signInAs(page: Page, who: keyof typeof demoAccounts, to = "/dashboard") {
  return signIn(page, demoAccounts[who].email, demoAccounts[who].password, to);
}
