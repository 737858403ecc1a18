import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { firstPostPath } from "./islands.ts";
import { axeViolations } from "./axe.ts";

// Dark mode (docs/decisions/0042-dark-mode.md): the system's setting unless the header's toggle
// stored a choice in localStorage, set on <html> by BaseLayout's inline script before the first paint.
const paperLight = "rgb(250, 250, 247)";
const paperDark = "rgb(21, 21, 20)";

/** The page's background and stored theme as the first frame painted them (recorded by `recordFirstFrame`). */
const firstFrame = (page: Page) =>
  page.evaluate(() => (window as unknown as { firstFrame: { background: string; theme: string | null } }).firstFrame);

/**
 * Records the page's background at its first animation frame, before the first paint: a frame the
 * visitor sees. It only reads; what sets the theme is the page's own inline script.
 */
async function recordFirstFrame(page: Page) {
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrame: unknown }).firstFrame = {
        background: getComputedStyle(document.documentElement).backgroundColor,
        theme: document.documentElement.getAttribute("data-theme"),
      };
    });
  });
}

/** Module scripts never arrive: what is left is the HTML, the stylesheet and the inline script. */
const withoutModuleScripts = (page: Page) => page.route(/\/_astro\/.*\.js$/, (route) => route.abort());

const htmlBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const toggle = (page: Page) => page.getByRole("banner").getByRole("button", { name: "Dark theme" });

test("with the system set to dark the page is dark from its first frame, before any module script", async ({ browser }) => {
  for (const [colorScheme, background] of [
    ["dark", paperDark],
    ["light", paperLight],
  ] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await recordFirstFrame(page);
    await withoutModuleScripts(page);
    await page.goto("/");
    await expect.poll(() => firstFrame(page), { message: colorScheme }).toEqual({ background, theme: null });
    expect(await htmlBackground(page), colorScheme).toBe(background);
    await context.close();
  }
});

test("the header's toggle switches the theme and remembers it in localStorage, without a cookie or a flash, after a reload", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "light" });
  const page = await context.newPage();
  await page.goto("/");
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
  expect(await htmlBackground(page)).toBe(paperLight);

  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await htmlBackground(page)).toBe(paperDark);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

  // Another page, its module scripts refused: the inline script alone paints it dark from the first frame.
  await recordFirstFrame(page);
  await withoutModuleScripts(page);
  await page.goto("/blog");
  await expect.poll(() => firstFrame(page)).toEqual({ background: paperDark, theme: "dark" });
  await page.unrouteAll();

  // Back to light under a system that is dark: the stored choice wins over the system.
  await page.goto("/downloads");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
  await page.reload();
  await expect.poll(() => firstFrame(page)).toEqual({ background: paperLight, theme: "light" });
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");

  expect(await context.cookies()).toEqual([]);
  await context.close();
});

test("on a phone the toggle is a row of the header's menu", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "light", viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  await page.goto("/blog");
  await page.getByRole("banner").getByText("Menu").click();
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await htmlBackground(page)).toBe(paperDark);
  await page.reload();
  expect(await htmlBackground(page)).toBe(paperDark);
  await context.close();
});

test("the toggle is hidden where scripts do not run, and the page still follows the system", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark", javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  expect(await htmlBackground(page)).toBe(paperDark);
  await expect(page.locator("[data-theme-toggle]")).toHaveCount(2);
  await expect(page.locator("[data-theme-toggle]:visible")).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("banner").getByText("Menu").click();
  await expect(page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Blog" })).toBeVisible();
  await expect(page.locator("[data-theme-toggle]:visible")).toHaveCount(0);
  await context.close();
});

test("the inline theme script is allowed by its hash in the Content-Security-Policy, not by 'unsafe-inline'", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto("/");
  const csp = (await response?.allHeaders())?.["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((directive) => directive.trim().startsWith("script-src")) ?? "";
  // JSON-LD blocks are data, never run, so no CSP rule concerns them.
  const inline = await page
    .locator('head script:not([src]):not([type="application/ld+json"])')
    .evaluateAll((scripts) => scripts.map((script) => script.textContent ?? ""));
  expect(inline).toHaveLength(1);
  const hash = createHash("sha256")
    .update(inline[0] ?? "")
    .digest("base64");
  expect(scriptSrc).toContain(`'sha256-${hash}'`);
  expect(scriptSrc).not.toContain("unsafe-inline");
  await expect(page.locator("html")).toHaveAttribute("data-js", "");
  expect(violations).toEqual([]);

  // The pages the API fills from the site's template (a confirmation link's) carry the same script and hash.
  const confirm = await page.request.get("/api/newsletter/confirm?token=not-a-token");
  expect(confirm.headers()["content-security-policy"]).toContain(`'sha256-${hash}'`);
  expect(await confirm.text()).toContain(`<script>${inline[0] ?? ""}</script>`);
});

test("in the dark theme the open search dialog and its results pass axe, contrast included", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByRole("button", { name: "Search" }).click();
  await page.locator("dialog[data-search-dialog] input").fill("founder");
  await expect(page.locator("dialog[data-search-dialog] mark").first()).toBeVisible();
  expect(await axeViolations(page, { include: ["dialog[data-search-dialog]"], impact: "any" })).toEqual([]);
  await context.close();
});

test("axe finds no serious problem, contrast included, in both themes on the four demo pages", async ({ browser }) => {
  test.setTimeout(180_000);
  const setup = await browser.newPage();
  const paths = ["/", "/blog", await firstPostPath(setup), "/downloads"];
  await setup.close();
  // Light and dark as the system's setting, and dark chosen with the toggle under a light system.
  for (const [name, colorScheme, stored] of [
    ["light", "light", null],
    ["system dark", "dark", null],
    ["chosen dark", "light", "dark"],
  ] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    if (stored) {
      await page.goto("/privacy");
      await page.evaluate((theme) => localStorage.setItem("theme", theme), stored);
    }
    for (const path of paths) {
      await test.step(`${name}: ${path}`, async () => {
        await page.goto(path);
        expect(await htmlBackground(page)).toBe(name === "light" ? paperLight : paperDark);
        // accessibility.spec.ts scans these four in the light theme already (the same rules and impacts).
        if (name === "light") return;
        expect(await axeViolations(page), `${name}: ${path}`).toEqual([]);
      });
    }
    await context.close();
  }
});
