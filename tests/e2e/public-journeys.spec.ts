import { expect, test } from "@playwright/test";
import { publicToastTexts } from "../../src/islands/public/toast-texts.ts";
import { hydrated, toast } from "./islands.ts";

const uniqueEmail = (tag: string) => `${tag}-${String(Date.now())}@example.com`;

test("subscribing on home shows the success toast and clears the field", async ({ page }) => {
  await page.goto("/");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  const email = form.getByLabel("Email address");
  await email.fill(uniqueEmail("home"));
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(page, "Subscribed!")).toContainText(publicToastTexts.subscribed.description);
  await expect(email).toHaveValue("");
});

test("subscribing on downloads waits for an email and shows its own success toast", async ({ page }) => {
  await page.goto("/downloads");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  const button = form.getByRole("button", { name: "Subscribe Free" });
  await expect(button).toBeDisabled();
  await form.getByLabel("Email address").fill(uniqueEmail("downloads"));
  await expect(button).toBeEnabled();
  await button.click();
  await expect(toast(page, "Subscribed!")).toContainText(publicToastTexts.subscribedForResources.description);
  await expect(form.getByLabel("Email address")).toHaveValue("");
});

test("a download asks for an email in a dialog, starts the file and counts it", async ({ page, request }) => {
  const downloads = (await (await request.get("/api/downloads")).json()) as { id: number; downloadCount: number }[];
  const first = downloads[0];
  expect(first).toBeDefined();
  const { id, downloadCount } = first as { id: number; downloadCount: number };
  const label = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "download" : "downloads"}`;

  await page.goto("/downloads");
  const count = page.locator(`[data-download-count="${String(id)}"]`);
  await count.scrollIntoViewIfNeeded();
  await expect(count).toHaveText(label(downloadCount));
  const button = page.locator(`button[data-download-id="${String(id)}"]`);

  await button.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const email = dialog.getByLabel("Email address");
  await expect(email).toBeFocused();
  await email.fill(uniqueEmail("download"));
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).not.toBe("");
  await expect(toast(page, "Download Started")).toContainText("Your download should begin shortly. Check your email for more resources!");
  await expect(count).toHaveText(label(downloadCount + 1));
  await expect(page).toHaveURL(/\/downloads\/?$/);
});

test("cancelling the download dialog shows the failure toast", async ({ page }) => {
  await page.goto("/downloads");
  const wrapper = await hydrated(page, "DownloadButton");
  await wrapper.getByRole("button", { name: "Get Free Download" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Download Failed")).toContainText("Failed to download the file. Please try again.");

  // Escape closes it the same way.
  await wrapper.getByRole("button", { name: "Get Free Download" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(toast(page, "Download Failed")).toHaveCount(1);
});

test("sharing a post without native share copies the link", async ({ page, context, request }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  const posts = (await (await request.get("/api/blog-posts?published=true")).json()) as { id: number }[];
  await page.goto(`/blog/${String(posts[0]?.id)}`);
  const wrapper = await hydrated(page, "ShareButton");
  await wrapper.getByRole("button", { name: "Share" }).click();
  await expect(toast(page, "Link Copied")).toContainText("The post link is on your clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
});

test("without JavaScript the home newsletter form still posts to the API", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  const form = page.locator('form[data-newsletter="home"]');
  await expect(form).toHaveAttribute("action", "/api/newsletter/subscribe");
  await form.getByLabel("Email address").fill(uniqueEmail("nojs"));
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/subscribed\/$/);
  await expect(page.getByRole("heading", { name: "Subscribed!" })).toBeVisible();
  await expect(page.getByText(publicToastTexts.subscribed.description)).toBeVisible();
  await context.close();
});
