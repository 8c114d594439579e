import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Runs axe-core on the page (WCAG 2.x A and AA rules plus best practices) and fails on any
 * serious or critical violation, listing each rule with the elements it found.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[] } = {}) {
  let serious: Awaited<ReturnType<typeof seriousViolations>> = [];
  // A toast can also start fading in during the scan (a notification arriving live): what axe found
  // is checked again once the page has settled, and only what stays counts.
  for (let scan = 1; scan <= 3; scan += 1) {
    await animationsEnded(page);
    serious = await seriousViolations(page, options.exclude ?? []);
    if (serious.length === 0) break;
  }
  const report = serious
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help}\n` +
        violation.nodes.map((node) => `    ${node.target.join(" ")}  ${node.failureSummary?.split("\n").join(" ") ?? ""}`).join("\n"),
    )
    .join("\n");
  expect(serious, `axe found serious or critical violations on ${page.url()}:\n${report}`).toEqual([]);
}

/**
 * A toast fading in has, for a few hundred milliseconds, the contrast of a half-transparent one:
 * running transitions end first (endless ones, such as spinners, are not waited for).
 */
async function animationsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => {})),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
}

async function seriousViolations(page: Page, exclude: string[]) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}
