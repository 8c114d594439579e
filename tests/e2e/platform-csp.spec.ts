import { expect, test } from "@playwright/test";
import { waitForHydration } from "./hydration";

// The Content-Security-Policy carries a per-request nonce instead of 'unsafe-inline'
// (docs/decisions/0005-csp-nonce-and-caching.md): a React page must still hydrate, with no violation.
test("pages hydrate under the nonce-based CSP, with no violation", async ({ page }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => {
      violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });

  const response = await page.goto("/auth");
  const csp = response!.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
  expect(csp).not.toContain("unsafe-inline';script-src-attr");
  expect(csp.match(/script-src [^;]*/)![0]).not.toContain("unsafe-inline");

  await waitForHydration(page);
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  expect(consoleErrors.filter((text) => /Content Security Policy|hydrat/i.test(text))).toEqual([]);

  // Each response has its own nonce.
  const again = await page.request.get("/auth");
  expect(again.headers()["content-security-policy"]).not.toBe(csp);
});

// The public pages are not hydrated (docs/decisions/0024-public-pages-without-react.md): no React,
// no inline script but structured data, and their small script runs under the same policy.
test("public pages ship no React and their enhancement script runs under the CSP", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/formations");
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toMatch(/^\/assets\/progressive-[\w-]+\.js$/);
  expect(await page.locator("script:not([src]):not([type='application/ld+json'])").count()).toBe(0);
  expect(await page.evaluate(() => Object.keys(document).some((key) => key.startsWith("__reactContainer")))).toBe(false);
  // The script did run: the list follows the search box.
  await page.getByPlaceholder("Rechercher une formation...").fill("solaire");
  await expect(page.locator("main article h2:visible")).toHaveText(["Énergie Solaire"]);
  expect(violations).toEqual([]);
});
