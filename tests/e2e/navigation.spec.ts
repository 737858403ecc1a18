import { expect, test } from "@playwright/test";
import { publicToastTexts } from "../../src/islands/public/toast-texts.ts";
import { hydrated, toast } from "./islands.ts";

test("home → a post → back to the blog list → another post", async ({ page }) => {
  await page.goto("/");
  const featured = page.locator("#blog a[href^='/blog/']").first();
  const title = (await page.locator("#blog h3, #blog h2").nth(1).textContent())?.trim();
  expect(title).toBeTruthy();
  await featured.click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+\/?$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Back to Blog" }).click();
  await expect(page).toHaveURL(/\/blog\/?$/);
  const cards = page.locator("main article a[href^='/blog/']");
  expect(await cards.count()).toBeGreaterThanOrEqual(3);
  await cards.last().click();
  await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+\/?$/);
});

test("About from another page goes home and lands on the about section", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/blog");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/#about$/);
  await expect(page.locator("#about")).toBeInViewport();
});

test("the mobile menu opens, shuts, and jumps to a home section", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/downloads");
  const menu = page.locator("header details");
  const toggle = menu.locator("summary");
  const mobileNav = page.getByRole("navigation", { name: "Mobile" });
  await expect(mobileNav).toBeHidden();
  await toggle.click();
  await expect(mobileNav).toBeVisible();
  await toggle.click();
  await expect(mobileNav).toBeHidden();
  await toggle.click();
  await mobileNav.getByRole("link", { name: "Downloads" }).click();
  await expect(page).toHaveURL(/\/#downloads$/);
  await expect(page.locator("#downloads")).toBeInViewport();
});

test("subscribing from a post page works, and a failed subscription says so", async ({ page }) => {
  await page.goto("/blog/1");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(`post-${String(Date.now())}@example.com`);
  await form.getByRole("button", { name: /Subscribe/ }).click();
  await expect(toast(page, "Subscribed!")).toContainText(publicToastTexts.subscribed.description);

  // The server refusing (here: the API is unreachable) shows the failure toast.
  await page.route("**/api/newsletter/subscribe", (route) => route.abort());
  await form.getByLabel("Email address").fill(`post-fail-${String(Date.now())}@example.com`);
  await form.getByRole("button", { name: /Subscribe/ }).click();
  await expect(toast(page, "Subscription Failed")).toContainText("Failed to subscribe. Please try again.");
});

test("a failed subscription on downloads shows its own message", async ({ page }) => {
  await page.goto("/downloads");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  await page.route("**/api/newsletter/subscribe", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "down" }) }),
  );
  await form.getByLabel("Email address").fill(`dl-fail-${String(Date.now())}@example.com`);
  await form.getByRole("button", { name: "Subscribe Free" }).click();
  await expect(toast(page, "Subscription Failed")).toContainText("Please try again or contact support.");
});

test("F8 moves focus to the notifications, and one toast shows at a time", async ({ page }) => {
  await page.goto("/downloads");
  await page.route("**/api/newsletter/subscribe", (route) => route.abort());
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  for (const tag of ["one", "two"]) {
    await form.getByLabel("Email address").fill(`${tag}-${String(Date.now())}@example.com`);
    await form.getByRole("button", { name: "Subscribe Free" }).click();
    await expect(toast(page, "Subscription Failed")).toBeVisible();
  }
  await expect(page.locator(".nf-toast")).toHaveCount(1);
  await page.keyboard.press("F8");
  const region = page.getByRole("region", { name: /Notifications/ });
  await expect(region).toBeAttached();
  expect(await region.evaluate((element) => element.contains(document.activeElement))).toBe(true);
});
