import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { logIn } from "./admin.ts";
import { firstPostPath, hydrated, toast } from "./islands.ts";

// Headless Chromium says "HeadlessChrome", which isbot (rightly) drops: the visitors here say what real browsers say.
const desktopAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const phoneAgent =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** Opens `path` and waits for its page-view beacon to be answered. */
async function visit(page: Page, path: string): Promise<void> {
  const beacon = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/events");
  await page.goto(path);
  expect((await beacon).status()).toBe(202);
}

async function visitor(browser: Browser, userAgent: string, phone = false) {
  const context = await browser.newContext({ userAgent, ...(phone && { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }) });
  return { context, page: await context.newPage() };
}

/** The row of the table captioned `caption` whose first cell is `name`, as its cells' texts. */
async function rowOf(page: Page, caption: string, name: string): Promise<string[]> {
  const table = page.locator("table", { has: page.locator("caption", { hasText: caption }) });
  const row = table.locator("tbody tr", { has: page.locator("td:first-child", { hasText: new RegExp(`^${name}$`) }) });
  return (await row.locator("td").allInnerTexts()).map((text) => text.trim());
}

test("two visitors, a signup from a post: the Stats tab shows them, with no cookie on any public page; axe finds nothing serious", async ({
  browser,
  page,
}) => {
  const source = `e2e-${Date.now().toString(36)}`;
  const post = await firstPostPath(page);

  const reader = await visitor(browser, desktopAgent);
  await visit(reader.page, `/?utm_source=${source}&utm_medium=social`);
  await visit(reader.page, post);
  const form = (await hydrated(reader.page, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(`${source}@example.com`);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(reader.page, "Subscribed!")).toBeVisible();
  expect(await reader.context.cookies()).toEqual([]);

  const phone = await visitor(browser, phoneAgent, true);
  await visit(phone.page, "/downloads");
  expect(await phone.context.cookies()).toEqual([]);

  await logIn(page);
  await page.getByRole("tab", { name: "Stats" }).click();
  await page.getByText("7 days", { exact: true }).click();
  await expect(async () => {
    await page.getByRole("tab", { name: "Blog Posts" }).click();
    await page.getByRole("tab", { name: "Stats" }).click();
    expect(await rowOf(page, "Top sources", source)).toEqual([source, "1"]);
    expect(await rowOf(page, "Signups and conversion per source", source)).toEqual([source, "1", "0", "100.0%"]);
    expect(await rowOf(page, "Signups and conversion per page", post)).toEqual([post, expect.any(String), expect.any(String), expect.any(String)]);
    expect((await rowOf(page, "Devices", "phone"))[0]).toBe("phone");
    expect((await rowOf(page, "Top pages", "/downloads"))[0]).toBe("/downloads");
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText("Apple Mail Privacy Protection")).toBeVisible();

  const results = await new AxeBuilder({ page }).include("#stats-title").include("section[aria-labelledby=stats-title]").analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await reader.context.close();
  await phone.context.close();
});
