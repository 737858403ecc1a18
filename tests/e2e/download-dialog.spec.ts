import { expect, test } from "@playwright/test";
import { hydrated, toast } from "./islands.ts";

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
};

for (const [screen, options] of Object.entries(screens)) {
  test.describe(`on a ${screen}`, () => {
    test.use(options);

    test("a typo in the download dialog keeps it open with the text and a message; the server's 400 shows the same way", async ({ page }) => {
      const requests: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && /\/api\/downloads\/\d+\/request/.test(request.url())) requests.push(request.url());
      });
      await page.goto("/downloads");
      // A seeded resource no other spec touches: another spec's resource may be deleted while this page shows it.
      const card = page.locator("article").filter({ has: page.getByRole("heading", { name: "Investor Pitch Checklist" }) });
      const wrapper = await hydrated(page, "DownloadButton", card);
      await wrapper.getByRole("button", { name: "Get Free Download" }).click();
      const dialog = page.getByRole("dialog");
      const email = dialog.getByLabel("Email address");
      await email.fill("reader@gmail");
      await dialog.getByRole("button", { name: "Download" }).click();
      // Checked in the dialog: no request, no toast, the text kept and the message under the field.
      await expect(dialog).toBeVisible();
      await expect(email).toHaveValue("reader@gmail");
      await expect(email).toHaveAttribute("aria-invalid", "true");
      await expect(email).toHaveAccessibleDescription("Please enter a valid email address.");
      await expect(email).toBeFocused();
      expect(requests).toEqual([]);
      await expect(toast(page, "Download Failed")).toHaveCount(0);

      // Typing clears the message; an address only the server's stricter check refuses comes back the same way.
      await email.fill("reader..name@gmail.com");
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await dialog.getByRole("button", { name: "Download" }).click();
      await expect(dialog).toBeVisible();
      await expect(email).toHaveValue("reader..name@gmail.com");
      await expect(email).toHaveAccessibleDescription("Please enter a valid email address.");
      expect(requests).toHaveLength(1);
      await expect(toast(page, "Download Failed")).toHaveCount(0);

      // Fixed, it downloads; Cancel still shows SPEC's failure toast.
      await email.fill(`reader-${screen}-${String(Date.now())}@example.com`);
      const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
      expect(download.suggestedFilename()).not.toBe("");
      await expect(dialog).toBeHidden();
      await expect(toast(page, "Download Started")).toBeVisible();
      await wrapper.getByRole("button", { name: "Get Free Download" }).click();
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(toast(page, "Download Failed")).toContainText("Failed to download the file. Please try again.");
    });
  });
}
