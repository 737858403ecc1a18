import { expect, test, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

/** The Postmark webhook's credentials the e2e server is given (tests/e2e/start-servers.ts). */
export const e2ePostmarkAuth = "e2e-hooks:postmark-e2e-password";

const postItem = (page: Page, title: string) => page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });

test("spam complaints arrive mid-send: the send pauses itself, the owner sees why and resumes, and the rest is sent once; the complainers are listed", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await logIn(page);
  const stamp = String(Date.now());
  const complainers = [1, 2, 3, 4, 5].map((n) => `complainer-${String(n)}-${stamp}@example.com`);
  const fillers = Array.from({ length: 10 }, (_, n) => `filler-${String(n)}-${stamp}@example.com`);
  // The provider goes down when its turn comes (the local catcher plays a 20 s outage, and the send
  // waits 40 s before it tries again: tests/e2e/server-process.ts): the send stops mid-way with
  // everyone after it pending, as a long send would be when complaints come in.
  const outage = `provider-outage+complaints-${stamp}@example.com`;
  const after = `after-${stamp}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: {
      file: {
        name: "list.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(`email\r\n${[...complainers, ...fillers, outage, after].join("\r\n")}\r\n`),
      },
      consent: "true",
    },
  });
  expect(imported.status()).toBe(200);

  const title = unique("Complaint letter");
  const form = page.locator("#admin-post-form");
  await form.getByLabel("Title").fill(title);
  await form.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Some readers will not like this one.");
  await form.getByLabel("Publish immediately").check();
  await form.getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  await panel.getByRole("button", { name: /^Send to \d+ subscribers?$/ }).click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^(Send to |Send anyway)/ })
    .click();
  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem").first();
  // Mid-send: the provider's outage holds the rest.
  await expect(entry.locator("[data-paused]")).toBeVisible({ timeout: 60_000 });
  for (const address of complainers) expect((await inboxFor(page.request, address, 1))[0]?.subject).toBe(title);

  // The five mark it as spam; Postmark posts each complaint to the webhook.
  for (const [index, address] of complainers.entries()) {
    const answer = await page.request.post("/api/email-events/postmark", {
      headers: { authorization: `Basic ${Buffer.from(e2ePostmarkAuth).toString("base64")}` },
      data: {
        RecordType: "SpamComplaint",
        ID: Number(stamp.slice(-6)) * 10 + index,
        Type: "SpamComplaint",
        TypeCode: 512,
        Email: address,
        BouncedAt: new Date().toISOString(),
      },
    });
    expect(answer.status()).toBe(204);
  }
  // An unsigned one changes nothing.
  const unsigned = await page.request.post("/api/email-events/postmark", { data: { RecordType: "SpamComplaint", ID: 1, Email: after } });
  expect(unsigned.status()).toBe(401);

  // The send stopped itself; the owner sees why.
  const why = entry.locator("[data-auto-paused]");
  await expect(entry.getByRole("status").first()).toHaveText("Paused", { timeout: 15_000 });
  await expect(why).toContainText("5 spam complaints");
  await expect(why).toContainText("Gmail and Yahoo");
  expect(await axeViolations(page, { include: ["[data-auto-paused]"], impact: "any" })).toEqual([]);
  await expect(entry.locator('[data-figure="complaints"]')).toContainText("Complaints: 5");
  await inboxFor(page.request, after, 0);

  await why.getByRole("button", { name: "Resume" }).click();
  await expect(toast(page, "Send Resumed")).toBeVisible();
  await expect(entry.getByRole("status").first()).toHaveText("Sent", { timeout: 150_000 });
  expect((await inboxFor(page.request, after, 1))[0]?.subject).toBe(title);
  for (const address of complainers) await inboxFor(page.request, address, 1);

  // The subscriber list: Complained, with the reason and the date.
  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  const filter = page.getByRole("group", { name: "Show subscribers" });
  await filter
    .locator("label")
    .filter({ hasText: /^Complained \(/ })
    .click();
  const row = page
    .getByRole("region", { name: "Subscriber list" })
    .getByRole("row")
    .filter({ hasText: complainers[0] ?? "" });
  await expect(row).toContainText("Complained");
  await expect(row.locator("[data-status-reason]")).toContainText("Marked a message as spam");
  const health = page.locator("[data-list-health]");
  await expect(health).toContainText("Gmail's and Yahoo's line is 0.3 %");
  expect(await axeViolations(page, { include: ["[data-list-health]", "[data-status-reason]"], impact: "any" })).toEqual([]);
});
