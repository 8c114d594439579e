import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Runs axe-core on the page (WCAG 2.x A and AA rules plus best practices) and fails on any
 * serious or critical violation, listing each rule with the elements it found.
 */
export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[] } = {}) {
  // A toast fading in has, for a few hundred milliseconds, the contrast of a half-transparent one:
  // let running transitions end first (endless ones, such as spinners, are not waited for).
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
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const report = serious
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help}\n` +
        violation.nodes.map((node) => `    ${node.target.join(" ")}  ${node.failureSummary?.split("\n").join(" ") ?? ""}`).join("\n"),
    )
    .join("\n");
  expect(serious, `axe found serious or critical violations on ${page.url()}:\n${report}`).toEqual([]);
}
