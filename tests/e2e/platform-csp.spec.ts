import { expect, test } from "@playwright/test";

// The Content-Security-Policy carries a per-request nonce instead of 'unsafe-inline'
// (docs/decisions/0005-csp-nonce-and-caching.md): the page must still hydrate, with no violation.
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

  const response = await page.goto("/");
  const csp = response!.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
  expect(csp).not.toContain("unsafe-inline';script-src-attr");
  expect(csp.match(/script-src [^;]*/)![0]).not.toContain("unsafe-inline");

  // hydrateRoot(document, ...) marks the document once React has taken over.
  await expect
    .poll(() => page.evaluate(() => Object.keys(document).some((key) => key.startsWith("__reactContainer"))))
    .toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
  expect(consoleErrors.filter((text) => /Content Security Policy|hydrat/i.test(text))).toEqual([]);

  // Each response has its own nonce.
  const again = await page.request.get("/");
  expect(again.headers()["content-security-policy"]).not.toBe(csp);
});
