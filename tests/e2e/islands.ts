import { expect, type Page } from "@playwright/test";

/**
 * An island, woken as a visitor would: scrolled to and pointed at (islands wake on input or when
 * scrolled near); `data-hydrated` marks them awake.
 */
export async function hydrated(page: Page, island: string) {
  const wrapper = page.locator(`[data-island="${island}"]`).first();
  await wrapper.scrollIntoViewIfNeeded();
  await wrapper.locator(":scope > *").first().hover();
  await expect(wrapper).toHaveAttribute("data-hydrated", "");
  return wrapper;
}

/** The toast with this title. */
export const toast = (page: Page, title: string) => page.locator(".nf-toast").filter({ hasText: title });
