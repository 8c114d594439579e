import { expect, type Page } from "@playwright/test";

/** Waits until React has taken over the page (hydrateRoot(document, ...) marks the document): its key and click handlers run. */
export async function waitForHydration(page: Page) {
  await expect.poll(() => page.evaluate(() => Object.keys(document).some((key) => key.startsWith("__reactContainer")))).toBe(true);
}

/** Waits until a page without React (public or learner) has run its scripts (app/enhance/learner.ts marks the document). */
export async function waitForEnhancement(page: Page) {
  await expect(page.locator("html[data-enhanced=true]")).toHaveCount(1);
}
