import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import { localServerInfo } from "./local-server.ts";
import { axeViolations } from "./axe.ts";

/** Sends one email through the real mailer to the catcher `npm start` runs (no SMTP_URL in tests). */
async function sendToCatcher(message: { to: string; subject: string; html: string; text: string }): Promise<void> {
  const { mailCatcherUrl } = await localServerInfo();
  if (!mailCatcherUrl) throw new Error("npm start runs no mail catcher: is SMTP_URL set?");
  const mailer = smtpMailer(mailCatcherUrl, "No Filter <hello@localhost>");
  try {
    await mailer.send(message);
  } finally {
    await mailer.close();
  }
}

/**
 * axe on an inbox page. The email's frame is left out: it is the email's markup, not the page's, and
 * axe cannot run inside it (the sandbox allows no scripts, so axe's timers never fire there).
 */
const seriousAxeProblems = (page: Page) => axeViolations(page, { exclude: ["iframe"] });

const emailHtml = (siteUrl: string) => `<!doctype html>
<html lang="en"><head><title>Welcome</title></head>
<body>
  <h1>Welcome to No Filter</h1>
  <p><a href="${siteUrl}/blog">Read the latest posts</a></p>
  <p><a href="${siteUrl}/downloads" target="_blank">Free downloads</a></p>
  <script>document.body.dataset.ran = "yes"</script>
</body></html>`;

test("the local inbox lists caught mail, shows it and passes axe", async ({ page }) => {
  const { inboxUrl, siteUrl } = await localServerInfo();
  expect(inboxUrl).toBe(`${siteUrl}/.netlify/local/inbox`);
  const empty = await page.goto("/.netlify/local/inbox");
  expect(empty?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Local inbox" })).toBeVisible();
  expect(await seriousAxeProblems(page)).toEqual([]);

  const to = `reader-${randomBytes(4).toString("hex")}@example.com`;
  await sendToCatcher({ to, subject: "Welcome <b>aboard</b>", html: emailHtml(siteUrl), text: `Read the latest posts: ${siteUrl}/blog` });
  await page.reload();
  const row = page.getByRole("row").filter({ hasText: to });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: "Welcome <b>aboard</b>" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome <b>aboard</b>");
  // The frame has a name (axe's frame-title, checked here as axe leaves the frame out).
  await expect(page.getByTitle("The email's HTML part")).toBeVisible();
  const frame = page.frameLocator('iframe[title="The email\'s HTML part"]');
  await expect(frame.getByRole("heading", { name: "Welcome to No Filter" })).toBeVisible();
  // The email's script never runs: the frame is sandboxed and its HTML served under default-src 'none'.
  await expect(frame.locator("body")).not.toHaveAttribute("data-ran", "yes");
  await expect(page.getByRole("link", { name: `${siteUrl}/blog` })).toBeVisible();
  await expect(page.getByRole("row", { name: /List-Unsubscribe|Message-ID/ }).first()).toBeVisible();
  expect(await seriousAxeProblems(page)).toEqual([]);

  // A link that opens a tab opens one, outside the sandbox.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), frame.getByRole("link", { name: "Free downloads" }).click()]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe("/downloads");
  expect(await tab.evaluate(() => window.origin)).toBe(siteUrl); // a sandboxed page's origin would be "null"
  await expect(tab.getByRole("heading", { level: 1 })).toBeVisible();
  await tab.close();

  // A plain link takes the whole window there (the site's pages refuse to be framed).
  await frame.getByRole("link", { name: "Read the latest posts" }).click();
  await expect(page).toHaveURL(`${siteUrl}/blog`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("the JSON view lists caught mail newest first, with the links of each", async ({ request }) => {
  const { siteUrl } = await localServerInfo();
  const to = `json-${randomBytes(4).toString("hex")}@example.com`;
  await sendToCatcher({ to, subject: "First", html: emailHtml(siteUrl), text: "First" });
  await sendToCatcher({ to, subject: "Second", html: emailHtml(siteUrl), text: "Second" });
  const response = await request.get(`/.netlify/local/inbox.json?to=${encodeURIComponent(to)}`);
  expect(response.status()).toBe(200);
  const messages = (await response.json()) as { subject: string; to: string[]; links: string[] }[];
  expect(messages.map((mail) => mail.subject)).toEqual(["Second", "First"]);
  expect(messages[0]?.to).toEqual([to]);
  expect(messages[0]?.links).toEqual([`${siteUrl}/blog`, `${siteUrl}/downloads`]);
});
