import { expect, test, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import type { InboxMail } from "./local-inbox.ts";

const form = (page: Page) => page.locator("#admin-post-form");
const postItem = (page: Page, title: string) => page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });

test("a post published with “Email to subscribers when published” reaches the inbox only once its page answers 200", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await logIn(page);
  const reader = `maya-onpublish-${String(Date.now())}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: { file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${reader}\r\n`) }, consent: "true" },
  });
  expect(imported.status()).toBe(200);

  const title = unique("Straight to the inbox");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Published and mailed in one go, never ahead of the site.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByLabel("Email to subscribers when published").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  // The answer of a publish that also queues a send: at CI load it came after the default 5 s (the post was created).
  await expect(toast(page, "Post Created")).toBeVisible({ timeout: 15_000 });

  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { title: string; url: string; sendAsNewsletter: boolean }[];
  const post = posts.find((candidate) => candidate.title === title);
  expect(post?.sendAsNewsletter).toBe(true);
  const url = post?.url ?? "";

  const mails = await mailOnlyOnceLive(page, url, reader, title, 60_000);
  expect(mails[0]?.links.some((link) => link.includes("/api/newsletter/click") || link.endsWith(url))).toBe(true);

  // The dashboard shows the send the box made: sent, once.
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByRole("status").first()).toHaveText("Sent", { timeout: 30_000 });
  await expect(panel).toContainText("This post was already sent as the newsletter");
});

test("a scheduled post with “Email to subscribers when published” is mailed after it goes live and its page answers, not before", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  await logIn(page);
  const reader = `omar-scheduled-${String(Date.now())}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: { file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${reader}\r\n`) }, consent: "true" },
  });
  expect(imported.status()).toBe(200);
  // Scheduled 20 s ahead through the API (the form's field has whole minutes); `npm start` publishes due posts every 5 s.
  const title = unique("Goes out at seven");
  const created = await page.request.post("/api/blog-posts", {
    headers: { origin: baseURL ?? "" },
    multipart: {
      title,
      content: "<p>Scheduled, then mailed.</p>",
      publishAt: new Date(Date.now() + 20_000).toISOString(),
      sendAsNewsletter: "true",
    },
  });
  expect(created.status()).toBe(201);
  const post = (await created.json()) as { url: string; published: boolean; sendAsNewsletter: boolean };
  expect(post).toMatchObject({ published: false, sendAsNewsletter: true });
  await mailOnlyOnceLive(page, post.url, reader, title, 120_000);
});

test("the owner schedules a send for later, sees it scheduled, and cancels it before it starts", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await logIn(page);
  const reader = `noor-later-${String(Date.now())}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: { file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${reader}\r\n`) }, consent: "true" },
  });
  expect(imported.status()).toBe(200);
  const title = unique("Monday morning");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("For Monday at seven.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();

  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  await panel.getByLabel("Send at").fill("2099-03-02T07:00");
  await panel.getByRole("button", { name: /^Schedule for / }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("You can cancel it until it starts.");
  await dialog.getByRole("button", { name: /^(Schedule|Send anyway)$/ }).click();
  await expect(toast(page, "Newsletter Scheduled")).toBeVisible();

  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem");
  await expect(entry.getByRole("status").first()).toHaveText("Scheduled");
  await expect(entry).toContainText("Send at Mar 2, 2099");
  await entry.getByRole("button", { name: "Cancel send" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel send" }).click();
  await expect(toast(page, "Send Cancelled")).toBeVisible();
  await expect(entry.getByRole("status").first()).toHaveText("Cancelled");
  const inbox = await page.request.get(`/.netlify/local/inbox.json?to=${encodeURIComponent(reader)}`);
  expect(((await inbox.json()) as InboxMail[]).length).toBe(0);
});

/**
 * Watches the post's page and the reader's inbox together until the newsletter arrives. Each round
 * asks the page first, then the inbox: mail seen in a round whose page was not live yet would be
 * mail that left ahead of the site.
 */
async function mailOnlyOnceLive(page: Page, url: string, reader: string, title: string, timeoutMs: number): Promise<InboxMail[]> {
  const rounds: { pageStatus: number; mails: number }[] = [];
  const deadline = Date.now() + timeoutMs;
  let mails: InboxMail[] = [];
  while (Date.now() < deadline) {
    const pageStatus = (await page.request.get(url, { maxRedirects: 0 }).catch(() => undefined))?.status() ?? 0;
    const answer = await page.request.get(`/.netlify/local/inbox.json?to=${encodeURIComponent(reader)}`).catch(() => undefined);
    mails = answer?.ok() ? ((await answer.json()) as InboxMail[]) : [];
    rounds.push({ pageStatus, mails: mails.length });
    if (mails.length > 0) break;
    await page.waitForTimeout(200);
  }
  expect(mails.map((mail) => mail.subject)).toEqual([title]);
  expect(rounds.filter((round) => round.pageStatus !== 200 && round.mails > 0)).toEqual([]);
  const firstLive = rounds.findIndex((round) => round.pageStatus === 200);
  expect(firstLive).toBeGreaterThanOrEqual(0);
  expect(rounds.findIndex((round) => round.mails > 0)).toBeGreaterThanOrEqual(firstLive);
  console.log(`[on publish] rounds until the page answered 200: ${String(firstLive)}; until the mail: ${String(rounds.length - 1)}`);
  return mails;
}
