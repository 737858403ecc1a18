import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

const pages = ["/", "/blog", "/blog/1", "/downloads", "/no/such/page", "/blog/999999"];
const widths = [375, 1280];

for (const path of pages) {
  test(`axe finds no serious or critical problem on ${path}`, async ({ page }) => {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
    expect(serious).toEqual([]);
  });
}

for (const width of widths) {
  test(`pages fit and are kept as screenshots at ${String(width)} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of pages.slice(0, 4)) {
      await page.goto(path);
      // Nothing wider than the viewport: no sideways scrolling on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      const name = `${path === "/" ? "home" : path.slice(1).replace(/\//g, "-")}-${String(width)}.png`;
      await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
    }
  });
}
