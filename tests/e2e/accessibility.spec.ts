import { expect, test } from "@playwright/test";
import { axeViolations } from "./axe.ts";

const pages = ["/", "/blog", "/blog/1", "/downloads", "/no/such/page", "/blog/999999"];
const widths = [375, 1280];

for (const path of pages) {
  test(`axe finds no serious or critical problem on ${path}`, async ({ page }) => {
    await page.goto(path);
    expect(await axeViolations(page)).toEqual([]);
  });
}

for (const width of widths) {
  test(`pages fit ${String(width)} px: nothing sticks out sideways, and the pictures on the first screen show`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of pages.slice(0, 4)) {
      await page.goto(path);
      // Nothing wider than the viewport: no sideways scrolling on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      const cutOff = await page.evaluate(elementsPastTheEdges);
      if (cutOff.length > 0) {
        const name = `${path === "/" ? "home" : path.slice(1).replace(/\//g, "-")}-${String(width)}.png`;
        await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
      }
      expect(cutOff, `${path}: elements past the screen's edges`).toEqual([]);
      await expect.poll(() => page.evaluate(brokenPicturesOnFirstScreen), { message: `${path}: pictures that do not show` }).toEqual([]);
    }
  });
}

/**
 * Visible elements that reach past the left or right edge of the screen, unless an ancestor scrolls
 * or crops them: what no sideways scroll can bring into view. Runs in the page.
 */
function elementsPastTheEdges(): string[] {
  const width = document.documentElement.clientWidth;
  const cropped = (element: Element) => {
    for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflowX !== "visible") return true;
    }
    return false;
  };
  return [...document.body.querySelectorAll("*")]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden") return false;
      return (box.left < -1 || box.right > width + 1) && !cropped(element);
    })
    .map((element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${[...element.classList].join(".")}`);
}

/** Images on the first screen that have not loaded or cannot be decoded. Runs in the page. */
function brokenPicturesOnFirstScreen(): string[] {
  return [...document.images]
    .filter((image) => {
      const box = image.getBoundingClientRect();
      return box.width > 0 && box.top < window.innerHeight && !(image.complete && image.naturalWidth > 0);
    })
    .map((image) => image.currentSrc || image.src);
}
