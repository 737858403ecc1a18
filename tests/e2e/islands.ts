import { expect, type Page } from "@playwright/test";

/** The islands hydrate lazily (when visible or idle); `data-hydrated` marks them awake. */
export async function hydrated(page: Page, island: string) {
  const wrapper = page.locator(`[data-island="${island}"]`).first();
  await wrapper.scrollIntoViewIfNeeded();
  await expect(wrapper).toHaveAttribute("data-hydrated", "");
  return wrapper;
}

/** The toast with this title. */
export const toast = (page: Page, title: string) => page.locator(".nf-toast").filter({ hasText: title });
