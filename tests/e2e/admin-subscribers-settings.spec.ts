import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { eventually, logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { apiCall, recordRequests } from "./page-requests.ts";
import { axeViolations } from "./axe.ts";

test("the subscriber list counts signups and exports them as email-subscribers.csv", async ({ page, request, baseURL }) => {
  const emails = [`first-${String(Date.now())}@example.com`, `second-${String(Date.now())}@example.com`];
  for (const email of emails) {
    const response = await request.post("/api/newsletter/subscribe", { data: { email }, headers: { origin: baseURL ?? "" } });
    expect(response.ok()).toBe(true);
  }
  await logIn(page);
  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  const table = page.getByRole("table");
  for (const email of emails) {
    const row = table.getByRole("row").filter({ hasText: email });
    // Until they confirm by email (double opt-in).
    await expect(row).toContainText("Pending");
    await expect(row).toContainText("newsletter");
  }
  const total = await table.locator("tbody tr").count();
  const listed = (await (await page.request.get("/api/newsletter/subscribers")).json()) as { isActive: boolean }[];
  const active = listed.filter((subscriber) => subscriber.isActive).length;
  await expect(page.locator("dl div").filter({ hasText: "Total Subscribers" })).toContainText(String(total));
  await expect(page.locator("dl div").filter({ hasText: "Active Subscribers" })).toContainText(String(active));
  await expect(page.getByRole("heading", { name: /Email Subscribers/ })).toContainText(`${String(active)} active`);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("email-subscribers.csv");
  await expect(toast(page, "Export Complete")).toBeVisible();
  const lines = (await readFile(await download.path(), "utf8")).trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^email,/i);
  expect(lines).toHaveLength(total + 1);
  for (const email of emails) expect(lines.some((line) => line.startsWith(`${email},`))).toBe(true);
});

test("subscribers imported from a CSV are listed and filtered by status; one is exported, then erased", async ({ page }) => {
  const stamp = String(Date.now());
  const emails = ["ada", "grace", "linus"].map((name) => `${name}-${stamp}@example.com`);
  await logIn(page);
  await page.getByRole("tab", { name: "Email Subscribers" }).click();

  const panel = page.getByRole("region", { name: "Import Subscribers" });
  const csv = `\uFEFFemail,subscribed_at\r\n${emails[0]},2024-01-02\r\n"${emails[1]}",\r\nnot-an-email,\r\n${emails[2]},\r\n`;
  await panel.getByLabel("CSV file").setInputFiles({ name: "subscribers.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  // The owner must confirm these people agreed first.
  await panel.getByRole("button", { name: "Import" }).click();
  await expect(panel.getByText("Please confirm that these people agreed to receive this newsletter.")).toBeVisible();
  await panel.getByRole("checkbox", { name: /agreed to receive this newsletter/ }).check();
  await panel.getByRole("button", { name: "Import" }).click();
  await expect(toast(page, "Import Complete")).toContainText("Imported 3, skipped 0.");
  await expect(panel.getByRole("status")).toContainText("Imported 3, skipped 0.");
  await expect(panel.getByRole("status")).toContainText('Line 4: Invalid email address: "not-an-email"');
  expect(await axeViolations(page), "after an import").toEqual([]);

  const table = page.getByRole("table");
  const rowOf = (email: string) => table.getByRole("row").filter({ hasText: email });
  for (const email of emails) {
    await expect(rowOf(email)).toContainText("Active");
    await expect(rowOf(email)).toContainText("import");
  }
  await expect(rowOf(emails[0] ?? "")).toContainText("January 2, 2024");

  // Each filter shows its own rows, as many as its count says.
  const filter = page.getByRole("group", { name: "Show subscribers" });
  const countOf = async (name: string) => {
    const label = await filter
      .locator("label")
      .filter({ hasText: new RegExp(`^${name} \\(`) })
      .textContent();
    return Number(label?.match(/\(([\d,]+)\)/)?.[1]?.replace(/,/g, ""));
  };
  const all = await countOf("All");
  await expect(table.locator("tbody tr")).toHaveCount(all);
  const choose = (name: string) =>
    filter
      .locator("label")
      .filter({ hasText: new RegExp(`^${name} \\(`) })
      .click();
  await choose("Active");
  await expect(filter.getByRole("radio", { name: /^Active/ })).toBeChecked();
  await expect(table.locator("tbody tr")).toHaveCount(await countOf("Active"));
  await expect(rowOf(emails[1] ?? "")).toBeVisible();
  // Arrow keys move between the choices.
  await filter.getByRole("radio", { name: /^Active/ }).press("ArrowRight");
  await expect(filter.getByRole("radio", { name: /^Unsubscribed/ })).toBeChecked();
  await expect(rowOf(emails[1] ?? "")).toHaveCount(0);
  const statuses = ["Pending", "Active", "Unsubscribed", "Bounced", "Complained"];
  expect((await Promise.all(statuses.map(countOf))).reduce((sum, count) => sum + count, 0)).toBe(all);
  await choose("All");

  // Export one person: everything held about them, as a JSON file.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: `Export ${emails[1] ?? ""}` }).click()]);
  expect(download.suggestedFilename()).toMatch(/^subscriber-\d+\.json$/);
  await expect(toast(page, "Export Complete")).toBeVisible();
  const held = JSON.parse(await readFile(await download.path(), "utf8")) as { subscriber: { email: string }; consents: { source: string }[] };
  expect(held.subscriber.email).toBe(emails[1]);
  expect(held.consents.map((consent) => consent.source)).toEqual(["import"]);

  // Erase them: asked first, then gone from the list and the totals.
  await page.getByRole("button", { name: `Erase ${emails[1] ?? ""}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Erase ${emails[1] ?? ""}?` });
  await expect(dialog).toContainText("Their address, consent record and email history are deleted for good. This cannot be undone.");
  expect(await axeViolations(page), "the erase dialog").toEqual([]);
  await dialog.getByRole("button", { name: "Erase Subscriber" }).click();
  await expect(toast(page, "Subscriber Erased")).toBeVisible();
  await expect(rowOf(emails[1] ?? "")).toHaveCount(0);
  await expect(page.locator("dl div").filter({ hasText: "Total Subscribers" })).toContainText(String(all - 1));
});

test("a changed hero title reaches the home page; a bad URL is refused with the reason; the postal address keeps its lines", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await logIn(page);
  await page.getByRole("tab", { name: "Site Settings" }).click();
  await expect(page.getByRole("complementary")).toContainText("Social links");

  const youtube = page.getByRole("textbox", { name: "YouTube channel link" });
  const youtubeSaved = await youtube.inputValue();
  await youtube.fill("not a link");
  await youtube.press("Enter");
  await expect(page.getByText("Please enter a full http:// or https:// URL.")).toBeVisible();
  await expect(youtube).toHaveAttribute("aria-invalid", "true");
  // The message leaves as soon as the value is fixed, before it is saved.
  await youtube.fill("https://www.youtube.com/@founders-unfiltered");
  await expect(page.getByText("Please enter a full http:// or https:// URL.")).toHaveCount(0);
  await expect(youtube).toHaveAttribute("aria-invalid", "false");
  await expect(page.locator("#setting-youtube_url-status")).toHaveText("Not saved yet: press Enter or Save.");
  // Back to the saved value: leaving the field then saves nothing.
  await youtube.fill(youtubeSaved);
  await expect(page.locator("#setting-youtube_url-status")).toHaveText("");

  const heroTitle = page.getByRole("textbox", { name: "Hero title" });
  const original = await heroTitle.inputValue();
  const title = unique("Built in public");
  const heroSaves = recordRequests(page, apiCall("PUT", "/api/site-settings/hero_title"));
  // The list's refetch after a save is held back until the field has been left, as on a slow connection.
  const refetchHeld = Promise.withResolvers<void>();
  const refetchReleased = Promise.withResolvers<void>();
  await page.route("**/api/site-settings", async (route) => {
    refetchHeld.resolve();
    await refetchReleased.promise;
    await route.continue();
  });
  await heroTitle.fill(title);
  await heroTitle.press("Enter");
  await expect(toast(page, "Setting Updated")).toBeVisible();
  await refetchHeld.promise;
  // Leaving the field right after Enter saves nothing more: the value is already saved.
  await page.getByRole("textbox", { name: "Hero subtitle" }).focus();
  expect((await heroSaves.soFar()).map((save) => save.postDataJSON() as unknown)).toEqual([{ value: title }]);
  await expect(page.locator("#setting-hero_title-status")).toHaveText("Saved.");
  await expect(heroTitle).toHaveValue(title);
  // Enter again on the saved value says there is nothing to save (and saves nothing).
  await heroTitle.press("Enter");
  await expect(page.locator("#setting-hero_title-status")).toHaveText("No changes to save.");
  expect(await heroSaves.soFar()).toHaveLength(1);
  const refetched = page.waitForResponse((response) => apiCall("GET", "/api/site-settings")(response.request()));
  refetchReleased.resolve();
  await refetched;
  await page.unroute("**/api/site-settings");
  heroSaves.stop();
  await eventually(request, "/", (html) => html.includes(title));

  // Saved on leaving the field too; an empty value brings the default back.
  await heroTitle.fill("");
  await page.getByRole("textbox", { name: "Hero subtitle" }).focus();
  await expect(heroTitle).toHaveValue(original);
  await expect(page.locator("#setting-hero_title-status")).toHaveText("Saved.");
  await eventually(request, "/", (html) => !html.includes(title));

  // Or with its Save button, which has nothing to save until the value changes.
  const subtitle = page.getByRole("textbox", { name: "Hero subtitle" });
  const save = page.getByRole("button", { name: "Save Hero subtitle" });
  await expect(save).toBeDisabled();
  const originalSubtitle = await subtitle.inputValue();
  await subtitle.fill(`${originalSubtitle}!`);
  await save.click();
  await expect(page.locator("#setting-hero_subtitle-status")).toHaveText("Saved.");
  await expect(subtitle).toHaveValue(`${originalSubtitle}!`);
  await expect(save).toBeDisabled();
  await subtitle.fill("");
  await save.click();
  await expect(subtitle).toHaveValue(originalSubtitle);
  await expect(page.locator("#setting-hero_subtitle-status")).toHaveText("Saved.");

  // The postal address for email footers is typed on several lines: Shift+Enter starts one, Enter saves.
  const address = page.getByRole("textbox", { name: "Postal address (shown in every email's footer)" });
  const addressStatus = page.locator("#setting-mailing_address-status");
  const placeholder = "No Filter\n123 Example Street\nSpringfield, ST 00000\nUSA";
  await expect(address).toHaveValue(placeholder);
  await address.fill("Founder Media Ltd");
  await address.press("Shift+Enter");
  await address.pressSequentially("1 Real Road");
  await address.press("Enter");
  await expect(addressStatus).toHaveText("Saved.");
  await expect(address).toHaveValue("Founder Media Ltd\n1 Real Road");
  await address.fill("");
  await address.press("Enter");
  await expect(address).toHaveValue(placeholder);
  await expect(addressStatus).toHaveText("Saved.");
});

test("when the server can't be reached, each action says so in SPEC's words and nothing is lost", async ({ page, request, baseURL }) => {
  const subscriber = `offline-${String(Date.now())}@example.com`;
  expect((await request.post("/api/newsletter/subscribe", { data: { email: subscriber }, headers: { origin: baseURL ?? "" } })).ok()).toBe(true);
  await logIn(page);
  const offline = (pattern: string) => page.route(pattern, (route) => route.abort("internetdisconnected"));

  // Deleting a post: the post stays listed.
  const posts = page.getByRole("list", { name: "Posts" }).getByRole("listitem");
  const firstTitle = (await posts.first().getByRole("heading").textContent())?.trim() ?? "";
  await offline("**/api/blog-posts/*");
  await posts
    .first()
    .getByRole("button", { name: `Delete ${firstTitle}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Post" }).click();
  await expect(toast(page, "Error")).toContainText("Failed to delete blog post.");
  await expect(posts.filter({ hasText: firstTitle })).toHaveCount(1);

  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeVisible();
  await offline("**/api/newsletter/subscribers/export");
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expect(toast(page, "Export Failed")).toContainText("Failed to export email subscribers.");
  // Erasing a subscriber: they stay listed.
  await offline("**/api/newsletter/subscribers/*");
  await page.getByRole("button", { name: `Erase ${subscriber}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Erase Subscriber" }).click();
  await expect(toast(page, "Error")).toContainText("Failed to erase subscriber.");
  await expect(page.getByRole("row").filter({ hasText: subscriber })).toHaveCount(1);

  await page.getByRole("tab", { name: "Site Settings" }).click();
  const subtitle = page.getByRole("textbox", { name: "Hero subtitle" });
  const original = await subtitle.inputValue();
  await offline("**/api/site-settings/*");
  await subtitle.fill(`${original} (offline)`);
  await subtitle.press("Enter");
  await expect(toast(page, "Error")).toContainText("Failed to update site setting.");
  // What was typed is still in the field, and the saved value unchanged.
  await expect(subtitle).toHaveValue(`${original} (offline)`);
  await expect(page.locator("#setting-hero_subtitle-status")).toHaveText("Not saved yet: press Enter or Save.");
});
