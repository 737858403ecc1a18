import { expect, test } from "@playwright/test";
import { logIn } from "./admin.ts";
import { toast } from "./islands.ts";

test("a new site's dashboard leads through its demo values: each Fix opens the field, and a fixed value is ticked", async ({ page }) => {
  await logIn(page);
  const checklist = page.getByRole("region", { name: /Finish setting up/ });
  await expect(checklist).toBeVisible();
  const items = checklist.getByRole("list", { name: "Setup checklist" }).getByRole("listitem");
  await expect(items.filter({ hasText: "Remove the demo posts and resources" })).toContainText("(with made-up download counts)");
  await expect(items.filter({ hasText: "Your own admin password" })).toContainText("npm start generated it");
  const heading = checklist.getByRole("heading");
  const before = Number(/(\d+) of/.exec((await heading.textContent()) ?? "")?.[1]);

  // Remove asks first (and is cancelled here: the other specs read the demo content).
  await items.filter({ hasText: "Remove the demo posts" }).getByRole("button", { name: "Remove demo content" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Posts and resources you wrote stay.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();

  // Fix opens Site Settings at the field; once saved, the item is ticked.
  const contact = items.filter({ hasText: "Your contact email" });
  await expect(contact).toContainText("Still hello@example.com.");
  await contact.getByRole("button", { name: "Fix in Site Settings" }).click();
  const field = page.getByRole("textbox", { name: "Contact email address" });
  await expect(field).toBeFocused();
  const original = await field.inputValue();
  await field.fill("founder@realstartup.io");
  await field.press("Enter");
  await expect(toast(page, "Setting Updated")).toBeVisible();
  await expect(heading).toHaveText(`Finish setting up: ${String(before + 1)} of 5 done`);
  await expect(contact).toContainText("(done)");
  await expect(contact.getByRole("button")).toHaveCount(0);

  // Back as it was for the other specs: the item is open again.
  await field.fill(original);
  await field.press("Enter");
  await expect(heading).toHaveText(`Finish setting up: ${String(before)} of 5 done`);
  // The two saves rebuilt the site: the next spec starts once it is live again.
  await expect
    .poll(async () => ((await (await page.request.get("/api/site-build")).json()) as { state: string }).state, { timeout: 60_000 })
    .toBe("live");
});
