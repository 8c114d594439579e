import { expect, test } from "@playwright/test";
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
