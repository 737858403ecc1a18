import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { publicToastTexts } from "../../src/islands/public/toast-texts.ts";
import { firstPostPath, toast } from "./islands.ts";

const uniqueEmail = (tag: string) => `${tag}-${String(Date.now())}@example.com`;

/**
 * Holds the React half of the island loader until `release()`: input given before then is sure to
 * land on a sleeping island, as a visitor's click straight after load does on a slow connection.
 */
async function holdIslands(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_astro/awaken*.js", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const island = (page: Page, name: string) => page.locator(`[data-island="${name}"]`).first();

/**
 * The "Get Free Download" button of the oldest resource: the demo content's, on the page whatever
 * other tests add or delete while a rebuild is pending.
 */
async function downloadButton(page: Page, request: APIRequestContext) {
  const downloads = (await (await request.get("/api/downloads")).json()) as { id: number }[];
  const oldest = downloads.at(-1);
  expect(oldest).toBeDefined();
  return page.locator(`button[data-download-id="${String(oldest?.id)}"]`);
}

test.describe("input that lands before an island wakes still goes through", () => {
  test("Get Free Download clicked straight after load opens the dialog, and the download goes through", async ({ page, request }) => {
    const button = await downloadButton(page, request);
    const release = await holdIslands(page);
    await page.goto("/downloads", { waitUntil: "domcontentloaded" });
    await button.click();
    await expect(button.locator("xpath=ancestor::*[@data-island][1]")).not.toHaveAttribute("data-hydrated", "");
    release();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Email address")).toBeFocused();
    await dialog.getByLabel("Email address").fill(uniqueEmail("early-click"));
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).not.toBe("");
    await expect(toast(page, "Download Started")).toBeVisible();
    await expect(page).toHaveURL(/\/downloads\/?$/);
  });

  test("Enter on Get Free Download before it wakes opens the dialog", async ({ page, request }) => {
    const button = await downloadButton(page, request);
    const release = await holdIslands(page);
    await page.goto("/downloads", { waitUntil: "domcontentloaded" });
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(button.locator("xpath=ancestor::*[@data-island][1]")).not.toHaveAttribute("data-hydrated", "");
    release();
    await expect(page.getByRole("dialog")).toBeVisible();
  });

  test("Share clicked straight after load copies the link", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
    });
    const post = await firstPostPath(page);
    const release = await holdIslands(page);
    await page.goto(post, { waitUntil: "domcontentloaded" });
    await page.getByRole("button", { name: "Share" }).click();
    await expect(island(page, "ShareButton")).not.toHaveAttribute("data-hydrated", "");
    release();
    await expect(toast(page, "Link Copied")).toContainText("The post link is on your clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  });

  test("Enter in the newsletter form before it wakes subscribes with a toast, staying on the page", async ({ page }) => {
    const release = await holdIslands(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    const form = page.locator('form[data-newsletter="home"]');
    await form.getByLabel("Email address").fill(uniqueEmail("early-enter"));
    await form.getByLabel("Email address").press("Enter");
    await expect(island(page, "NewsletterForm")).not.toHaveAttribute("data-hydrated", "");
    release();
    await expect(toast(page, "Subscribed!")).toContainText(publicToastTexts.subscribed.description);
    await expect(form.getByLabel("Email address")).toHaveValue("");
    await expect(page).toHaveURL(/\/$/);
  });
});

/**
 * Pauses the page's clock a second ahead of its time (nothing in the page is timed then). The page's
 * time is read, then the pause sent: a machine slow enough to let a second pass in between gets
 * another try rather than a "past" error.
 */
async function pauseClockAhead(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const pageNow = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(pageNow + 1000);
      return;
    } catch (error) {
      if (attempt === 5 || !/past/i.test(String(error))) throw error;
    }
  }
}

test.describe("the public toaster (Radix Toast, SPEC §9)", () => {
  async function raiseFailureToast(page: Page) {
    await page.getByRole("button", { name: "Get Free Download" }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    const shown = toast(page, "Download Failed");
    await expect(shown).toContainText("Failed to download the file. Please try again.");
    return shown;
  }

  test("a toast shows for 5 seconds", async ({ page }) => {
    await page.clock.install();
    await page.goto("/downloads");
    await page.getByRole("button", { name: "Get Free Download" }).first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    // From here only the test moves the page's clock, and the toast opens after that: its 5 s run on
    // the paused clock, so a loaded machine's real time cannot eat into them.
    await pauseClockAhead(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    const shown = toast(page, "Download Failed");
    await expect(shown).toContainText("Failed to download the file. Please try again.");
    await page.mouse.move(0, 0);
    await page.clock.runFor(4000);
    await expect(shown).toBeVisible();
    await page.clock.runFor(1100);
    await expect(shown).toHaveCount(0);
  });

  test("a swipe right past 50 px dismisses it, a shorter one does not", async ({ page }) => {
    await page.goto("/downloads");
    const shown = await raiseFailureToast(page);
    const swipe = async (dx: number) => {
      const box = await shown.boundingBox();
      if (!box) throw new Error("the toast has no box");
      const y = box.y + box.height / 2;
      const x = box.x + 20;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx, y, { steps: 10 });
      await page.mouse.up();
    };
    await swipe(30);
    await expect(shown).toBeVisible();
    await swipe(80);
    await expect(shown).toHaveCount(0);
  });

  test("F8 moves focus to the notifications", async ({ page }) => {
    await page.goto("/downloads");
    await raiseFailureToast(page);
    await page.keyboard.press("F8");
    const region = page.getByRole("region", { name: /Notifications/ });
    expect(await region.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  });
});

test("without JavaScript, Get Free Download opens its dialog and the form answers the file", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const button = await downloadButton(page, request);
  await page.goto("/downloads");
  await button.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Email address").fill(uniqueEmail("nojs-download"));
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.\w+$/);
  await context.close();
});

test("the download counts are live: a download made since the build shows once the page has loaded", async ({ page, request }) => {
  const listed = async () => (await (await request.get("/api/downloads")).json()) as { id: number; downloadCount: number }[];
  const id = (await listed()).at(-1)?.id ?? -1;
  // A download from elsewhere: counted in the database, not in the built page.
  await page.goto("/");
  const status = await page.evaluate(
    async ([path, email]) =>
      (await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) })).status,
    [`/api/downloads/${String(id)}/request`, uniqueEmail("elsewhere")] as const,
  );
  expect(status).toBe(200);
  const count = (await listed()).find((download) => download.id === id)?.downloadCount ?? -1;
  await page.goto("/downloads");
  await expect(page.locator(`[data-download-count="${String(id)}"]`)).toHaveText(`${count.toLocaleString("en-US")} downloads`);
});
