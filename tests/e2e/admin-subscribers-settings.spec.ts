import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { eventually, logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";

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
    await expect(row).toContainText("Active");
    await expect(row).toContainText("newsletter");
  }
  const total = await table.locator("tbody tr").count();
  await expect(page.locator("dl div").filter({ hasText: "Total Subscribers" })).toContainText(String(total));
  await expect(page.getByRole("heading", { name: /Email Subscribers/ })).toContainText(`${String(total)} active`);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("email-subscribers.csv");
  await expect(toast(page, "Export Complete")).toBeVisible();
  const lines = (await readFile(await download.path(), "utf8")).trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^email,/i);
  expect(lines).toHaveLength(total + 1);
  for (const email of emails) expect(lines.some((line) => line.startsWith(`${email},`))).toBe(true);
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
  await youtube.fill("not a link");
  await youtube.press("Enter");
  await expect(page.getByText("Please enter a full http:// or https:// URL.")).toBeVisible();
  await expect(youtube).toHaveAttribute("aria-invalid", "true");

  const heroTitle = page.getByRole("textbox", { name: "Hero title" });
  const original = await heroTitle.inputValue();
  const title = unique("Built in public");
  const heroSaves: string[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "PUT" && sent.url().endsWith("/api/site-settings/hero_title")) heroSaves.push(sent.postData() ?? "");
  });
  // The list's refetch after a save arrives late, as on a slow connection.
  await page.route("**/api/site-settings", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await heroTitle.fill(title);
  await heroTitle.press("Enter");
  await expect(toast(page, "Setting Updated")).toBeVisible();
  // Leaving the field right after Enter saves nothing more: the value is already saved.
  await page.getByRole("textbox", { name: "Hero subtitle" }).focus();
  await expect(page.getByText(`Current: ${title}`)).toBeVisible();
  await page.waitForTimeout(2000);
  expect(heroSaves).toHaveLength(1);
  await page.unroute("**/api/site-settings");
  await eventually(request, "/", (html) => html.includes(title));

  // Saved on leaving the field too; an empty value brings the default back.
  await heroTitle.fill("");
  await page.getByRole("textbox", { name: "Hero subtitle" }).focus();
  await expect(page.getByText(`Current: ${original}`)).toBeVisible();
  await eventually(request, "/", (html) => !html.includes(title));

  // Or with its Save button, which has nothing to save until the value changes.
  const subtitle = page.getByRole("textbox", { name: "Hero subtitle" });
  const save = page.getByRole("button", { name: "Save Hero subtitle" });
  await expect(save).toBeDisabled();
  const originalSubtitle = await subtitle.inputValue();
  await subtitle.fill(`${originalSubtitle}!`);
  await save.click();
  await expect(page.getByText(`Current: ${originalSubtitle}!`)).toBeVisible();
  await expect(save).toBeDisabled();
  await subtitle.fill("");
  await save.click();
  await expect(page.getByText(`Current: ${originalSubtitle}`, { exact: true })).toBeVisible();

  // The postal address for email footers is typed on several lines: Shift+Enter starts one, Enter saves.
  const address = page.getByRole("textbox", { name: "Postal address (shown in every email's footer)" });
  const addressCurrent = page.locator("#setting-mailing_address-current");
  const placeholder = "No Filter\n123 Example Street\nSpringfield, ST 00000\nUSA";
  await expect(address).toHaveValue(placeholder);
  await address.fill("Founder Media Ltd");
  await address.press("Shift+Enter");
  await address.pressSequentially("1 Real Road");
  await address.press("Enter");
  await expect(address).toHaveValue("Founder Media Ltd\n1 Real Road");
  // innerText follows the rendering: the saved lines show as lines.
  await expect.poll(() => addressCurrent.innerText()).toBe("Current: Founder Media Ltd\n1 Real Road");
  await address.fill("");
  await address.press("Enter");
  await expect.poll(() => addressCurrent.innerText()).toBe(`Current: ${placeholder}`);
});

test("when the server can't be reached, each action says so in SPEC's words and nothing is lost", async ({ page }) => {
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

  await page.getByRole("tab", { name: "Site Settings" }).click();
  const subtitle = page.getByRole("textbox", { name: "Hero subtitle" });
  const original = await subtitle.inputValue();
  await offline("**/api/site-settings/*");
  await subtitle.fill(`${original} (offline)`);
  await subtitle.press("Enter");
  await expect(toast(page, "Error")).toContainText("Failed to update site setting.");
  // What was typed is still in the field, and the saved value unchanged.
  await expect(subtitle).toHaveValue(`${original} (offline)`);
  await expect(page.getByText(`Current: ${original}`, { exact: true })).toBeVisible();
});
