import { expect, type Locator, type Page } from "@playwright/test";

/**
 * An island, woken as a visitor would: scrolled to and pointed at (islands wake on input or when
 * scrolled near); `data-hydrated` marks them awake. The first in `within` (the page by default).
 */
export async function hydrated(page: Page, island: string, within: Page | Locator = page) {
  const wrapper = within.locator(`[data-island="${island}"]`).first();
  await wrapper.scrollIntoViewIfNeeded();
  await wrapper.locator(":scope > *").first().hover();
  await expect(wrapper).toHaveAttribute("data-hydrated", "");
  return wrapper;
}

/** The toast with this title. */
export const toast = (page: Page, title: string) => page.locator(".nf-toast").filter({ hasText: title });

/** The path of the first post listed on /blog (read from the page, whatever its URL scheme). */
export async function firstPostPath(page: Page): Promise<string> {
  await page.goto("/blog");
  const href = await page.locator('main article a[href^="/blog/"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  return href ?? "";
}
