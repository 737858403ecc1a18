import { expect, test, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { eventually, logIn, unique } from "./admin.ts";
import { fileOnDisk } from "./files-on-disk.ts";
import { toast } from "./islands.ts";

const demoFile = (name: string) => fileURLToPath(new URL(`../../netlify/local/demo-content/files/${name}`, import.meta.url));

const form = (page: Page) => page.locator("#admin-download-form");
const resource = (page: Page, title: string) => page.getByRole("list", { name: "Resources" }).getByRole("listitem").filter({ hasText: title });

async function openDownloads(page: Page) {
  await logIn(page);
  await page.getByRole("tab", { name: "Downloads" }).click();
  await expect(form(page).getByRole("button", { name: "Upload Resource" })).toBeVisible();
}

test("the resource form refuses a missing file, a wrong type and a file over 4 MB before uploading", async ({ page }, testInfo) => {
  await openDownloads(page);
  let uploads = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/downloads") && request.method() === "POST") uploads++;
  });

  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  for (const message of ["Title is required", "Description is required", "Category is required"]) {
    await expect(form(page).getByText(message)).toBeVisible();
  }
  await expect(toast(page, "Please select a file to upload.")).toBeVisible();

  await form(page).getByLabel("Title").fill("Huge deck");
  await form(page).getByLabel("Description").fill("Too big to send.");
  await form(page).getByLabel("Category").selectOption("Guides");
  // Each message left as its field was fixed; the missing file's stays until a file is chosen.
  for (const message of ["Title is required", "Description is required", "Category is required"]) {
    await expect(form(page).getByText(message)).toHaveCount(0);
  }
  await expect(form(page).getByText("Please select a file to upload.")).toBeVisible();
  const file = form(page).getByLabel("File", { exact: true });
  await file.setInputFiles(await fileOnDisk(testInfo, "deck.pdf", 4 * 1024 * 1024 + 1));
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  await expect(form(page).getByText("The file is too large (the limit is 4 MB)")).toBeVisible();

  await file.setInputFiles({ name: "script.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  await expect(form(page).getByText(/Only PDF, Word, Excel, PowerPoint or ZIP files are allowed/)).toBeVisible();

  // Each under 4 MB, together more than one upload carries.
  await file.setInputFiles(await fileOnDisk(testInfo, "deck.pdf", 3 * 1024 * 1024));
  await form(page)
    .getByLabel("Thumbnail Image (optional)")
    .setInputFiles(await fileOnDisk(testInfo, "thumb.png", 1.5 * 1024 * 1024));
  await form(page).getByLabel("Decorative image (no alt text)").check();
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  await expect(form(page).getByRole("alert")).toHaveText(/The file and thumbnail together are too large to send/);
  expect(uploads).toBe(0);
});

test("a large upload shows its progress", async ({ page }, testInfo) => {
  await openDownloads(page);
  // Slow the upload down (Chromium's own network emulation) so the bar can be seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  const title = unique("Big PDF");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByLabel("Description").fill("Three megabytes of checklist.");
  await form(page).getByLabel("Category").selectOption("Guides");
  const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(3 * 1024 * 1024, 32), Buffer.from("\n%%EOF\n")]);
  await form(page)
    .getByLabel("File", { exact: true })
    .setInputFiles(await fileOnDisk(testInfo, "big-guide.pdf", pdf));
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  const bar = form(page).getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toBeVisible();
  await expect(form(page).getByText(/Uploading… [1-9]\d?%/)).toBeVisible();
  await expect(toast(page, "Download Created")).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveCount(0);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await resource(page, title)
    .getByRole("button", { name: `Delete ${title}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Resource" }).click();
  await expect(resource(page, title)).toHaveCount(0);
});

test("the owner uploads a resource, a visitor downloads it; edit keeps the file; delete removes it", async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  await openDownloads(page);
  const title = unique("Board deck checklist");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByLabel("Description").fill("Everything to check before the board meeting.");
  await form(page).getByLabel("Category").selectOption("Checklists");
  await form(page).getByLabel("File", { exact: true }).setInputFiles(demoFile("investor-pitch-checklist.pdf"));
  await form(page).getByLabel("Thumbnail Image (optional)").setInputFiles(demoFile("thumb-investor-pitch-checklist.png"));
  // The chosen thumbnail shows before anything is sent.
  await expect(form(page).getByRole("img", { name: "Thumbnail preview" })).toHaveJSProperty("complete", true);
  expect(
    await form(page)
      .getByRole("img", { name: "Thumbnail preview" })
      .evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(0);
  // Required with a thumbnail: the form says so before anything is sent.
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  await expect(form(page).getByText("Describe the thumbnail (alt text), or mark it decorative")).toBeVisible();
  await form(page).getByLabel("Thumbnail Alt Text").fill("Checklist card: Board Deck Checklist");
  await expect(form(page).getByText("Describe the thumbnail (alt text), or mark it decorative")).toHaveCount(0);
  await form(page).getByRole("button", { name: "Upload Resource" }).click();
  await expect(toast(page, "Download Created")).toBeVisible();
  await expect(resource(page, title)).toContainText("Checklists");
  await expect(resource(page, title)).toContainText("0 downloads");
  await expect(resource(page, title)).toContainText("investor-pitch-checklist.pdf");
  await expect(form(page).getByLabel("Title")).toHaveValue("");

  // On the public page after the rebuild, and a visitor gets the file.
  await eventually(request, "/downloads", (html) => html.includes(title));
  const visitor = await browser.newPage();
  await visitor.goto("/downloads");
  const card = visitor.locator("article").filter({ has: visitor.getByRole("heading", { name: title }) });
  await card.scrollIntoViewIfNeeded();
  // The public card carries the owner's words.
  await expect(card.getByRole("img", { name: "Checklist card: Board Deck Checklist" })).toBeVisible();
  const button = card.getByRole("button", { name: "Get Free Download" });
  await button.click();
  const dialog = visitor.getByRole("dialog");
  await dialog.getByLabel("Email address").fill(`reader-${String(Date.now())}@example.com`);
  const [download] = await Promise.all([visitor.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe("investor-pitch-checklist.pdf");
  await visitor.close();

  // Edit: the current file and thumbnail are shown and kept when left empty.
  await page.reload();
  await page.getByRole("tab", { name: "Downloads" }).click();
  await expect(resource(page, title)).toContainText("1 download");
  await resource(page, title)
    .getByRole("button", { name: `Edit ${title}` })
    .click();
  await expect(form(page).getByRole("button", { name: "Update Resource" })).toBeVisible();
  await expect(form(page)).toContainText("Current file: investor-pitch-checklist.pdf. Leave empty to keep the current one.");
  await expect(form(page).getByRole("img", { name: `Current thumbnail of ${title}` })).toBeVisible();
  const newTitle = `${title} v2`;
  await form(page).getByLabel("Title").fill(newTitle);
  await form(page).getByRole("button", { name: "Update Resource" }).click();
  await expect(toast(page, "Download Updated")).toBeVisible();
  await expect(resource(page, newTitle)).toContainText("investor-pitch-checklist.pdf");
  await expect(form(page).getByRole("button", { name: "Upload Resource" })).toBeVisible();

  // Cancel Edit returns to the upload form.
  await resource(page, newTitle)
    .getByRole("button", { name: `Edit ${newTitle}` })
    .click();
  await form(page).getByRole("button", { name: "Cancel Edit" }).click();
  await expect(form(page).getByRole("button", { name: "Upload Resource" })).toBeVisible();

  await resource(page, newTitle)
    .getByRole("button", { name: `Delete ${newTitle}` })
    .click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Resource" }).click();
  await expect(toast(page, "Download Deleted")).toBeVisible();
  await expect(resource(page, newTitle)).toHaveCount(0);
  await eventually(request, "/downloads", (html) => !html.includes(newTitle));
});
