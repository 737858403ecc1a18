import { expect, test, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";

const form = (page: Page) => page.locator("#admin-post-form");
const postItem = (page: Page, title: string) => page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });

test("the owner tags an imported batch, filters the list by tag, tags everyone shown, and sends a post to that segment after seeing its exact count", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await logIn(page);
  const stamp = String(Date.now());
  const batch = `batch-${stamp}`;
  const vip = `vip-${stamp}`;
  const readers = ["ada", "grace"].map((name) => `${name}-segment-${stamp}@example.com`);
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: {
      file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${readers.join("\r\n")}\r\n`) },
      consent: "true",
      tags: batch,
    },
  });
  expect(imported.status()).toBe(200);

  // The Subscribers tab: filtered by the batch's tag, each person with their tags and why.
  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  await page.getByRole("form", { name: "Filter subscribers" }).getByLabel("Tag").fill(batch);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
  const list = page.getByRole("region", { name: "Subscriber list" });
  await expect(list.getByRole("row")).toHaveCount(3);
  await expect(list.getByRole("row").filter({ hasText: readers[0] ?? "" })).toContainText(`${batch} Import: import of`);

  // Everyone listed gets a second tag at once.
  const bulk = page.getByRole("form", { name: /Tag everyone listed/ });
  await bulk.getByLabel("Add tags").fill(vip);
  await bulk.getByRole("button", { name: "Apply" }).click();
  await expect(toast(page, "Tags Changed")).toContainText(`Added ${vip} for 2 people.`);
  await expect(list.getByRole("row").filter({ hasText: readers[1] ?? "" })).toContainText(`${vip} You: set by the owner`);

  // A post sent to the segment: the count first, a mistake named inline, then the send.
  await page.getByRole("tab", { name: "Blog Posts" }).click();
  const title = unique("Segment letter");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Only for the people who asked.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  await panel.getByLabel("An expression").check();
  const expression = panel.getByLabel("Segment expression");
  await expression.fill("tag");
  await expect(panel.getByTestId("audience-error")).toHaveText("Expected a tag slug after 'tag' at position 4");
  await expression.fill(`tag ${vip} AND NOT tag nobody-${stamp}`);
  await expect(panel.getByTestId("audience-error")).toHaveText(`Unknown subscriber tag 'nobody-${stamp}': no subscriber has this tag`);
  await expression.fill(`tag ${vip}`);
  await expect(panel.getByTestId("audience-count")).toHaveText("Reaches 2 subscribers now.");
  await panel.getByRole("button", { name: "Send to 2 subscribers" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(`Send “${title}” to 2 subscribers?`);
  await dialog.getByRole("button", { name: /^(Send anyway|Send to 2 subscribers)$/ }).click();
  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem").first();
  await expect(entry.getByRole("status")).toHaveText("Sent", { timeout: 60_000 });
  await expect(entry).toContainText(`Sent: 2`);
  await expect(entry.getByTestId("send-audience")).toHaveText(`To: tag ${vip}`);
  for (const reader of readers) expect((await inboxFor(page.request, reader, 1))[0]?.subject).toBe(title);
});
