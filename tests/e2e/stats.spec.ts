import { expect, test, type Browser, type Page } from "@playwright/test";
import { eventually, logIn } from "./admin.ts";
import { firstPostPath, hydrated, toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

// Headless Chromium says "HeadlessChrome", which isbot (rightly) drops: the visitors here say what real browsers say.
const desktopAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const phoneAgent =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** Opens `path` and waits for its page-view beacon to be answered. */
async function visit(page: Page, path: string): Promise<void> {
  const beacon = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/events");
  await page.goto(path);
  expect((await beacon).status()).toBe(202);
}

async function visitor(browser: Browser, userAgent: string, phone = false) {
  const context = await browser.newContext({ userAgent, ...(phone && { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }) });
  return { context, page: await context.newPage() };
}

/** The row of the table captioned `caption` whose first cell is `name`, as its cells' texts. */
async function rowOf(page: Page, caption: string, name: string): Promise<string[]> {
  const table = page.locator("table", { has: page.locator("caption", { hasText: caption }) });
  const row = table.locator("tbody tr", { has: page.locator("td:first-child", { hasText: new RegExp(`^${name}$`) }) });
  return (await row.locator("td").allInnerTexts()).map((text) => text.trim());
}

test("two visitors, a signup from a post: the Stats tab shows them, with no cookie on any public page; axe finds nothing serious", async ({
  browser,
  page,
}) => {
  const source = `e2e-${Date.now().toString(36)}`;
  const post = await firstPostPath(page);

  const reader = await visitor(browser, desktopAgent);
  await visit(reader.page, `/?utm_source=${source}&utm_medium=social`);
  await visit(reader.page, post);
  const form = (await hydrated(reader.page, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(`${source}@example.com`);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(reader.page, "Subscribed!")).toBeVisible();
  expect(await reader.context.cookies()).toEqual([]);

  const phone = await visitor(browser, phoneAgent, true);
  await visit(phone.page, "/downloads");
  expect(await phone.context.cookies()).toEqual([]);

  await logIn(page);
  await page.getByRole("tab", { name: "Stats" }).click();
  await page.getByText("7 days", { exact: true }).click();
  await expect(async () => {
    await page.getByRole("tab", { name: "Blog Posts" }).click();
    await page.getByRole("tab", { name: "Stats" }).click();
    expect(await rowOf(page, "Top sources", source)).toEqual([source, "1"]);
    expect(await rowOf(page, "Signups and conversion per source", source)).toEqual([source, "1", "0", "100.0%"]);
    expect(await rowOf(page, "Signups and conversion per page", post)).toEqual([post, expect.any(String), expect.any(String), expect.any(String)]);
    expect((await rowOf(page, "Devices", "phone"))[0]).toBe("phone");
    expect((await rowOf(page, "Top pages", "/downloads"))[0]).toBe("/downloads");
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText("Apple Mail Privacy Protection")).toBeVisible();

  expect(await axeViolations(page, { include: ["#stats-title", "section[aria-labelledby=stats-title]"] })).toEqual([]);
  await reader.context.close();
  await phone.context.close();
});

/** The row of the table captioned `caption` that has a cell reading exactly `text`, as its cells' texts. */
async function rowWith(page: Page, caption: string, text: string): Promise<string[]> {
  const table = page.locator("table", { has: page.locator("caption", { hasText: caption }) });
  const row = table.locator("tbody tr", { has: page.locator("td", { hasText: new RegExp(`^${text}$`) }) });
  return (await row.locator("td").allInnerTexts()).map((cell) => cell.trim());
}

test("a download and a newsletter link clicked from the inbox: the Stats tab shows exactly those figures", async ({ browser, page, baseURL }) => {
  test.setTimeout(120_000);
  const source = `e2e-dl-${Date.now().toString(36)}`;
  const origin = { origin: baseURL ?? "" };

  // A visitor of its own (the day's visitor hash is the address and the user agent) comes from a campaign and downloads.
  const reader = await visitor(browser, `${desktopAgent} ${source}`);
  await visit(reader.page, `/downloads?utm_source=${source}`);
  const [resource] = (await (await page.request.get("/api/downloads")).json()) as { id: number; title: string }[];
  expect(resource).toBeDefined();
  await reader.page.locator(`button[data-download-id="${String(resource?.id)}"]`).click();
  const dialog = reader.page.getByRole("dialog");
  await dialog.getByLabel("Email address").fill(`${source}@example.com`);
  const [download] = await Promise.all([reader.page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).not.toBe("");

  // A newsletter to the list, one reader of which clicks a link in it.
  await logIn(page);
  const clicker = `click-${source}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: origin,
    multipart: {
      file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${clicker}\r\n`) },
      consent: "true",
      tags: `cohort-${source}`,
    },
  });
  expect(imported.status()).toBe(200);
  // The post carries a reader topic of its own: its newsletter's clicks count for the topic.
  const topic = { slug: `topic-${source}`, name: `Topic ${source}` };
  const madeTopic = await page.request.post("/api/tags", { headers: origin, data: { ...topic, topic: true } });
  expect(madeTopic.status(), await madeTopic.text()).toBe(201);
  const title = `Clicks tell the truth ${source}`;
  const made = await page.request.post("/api/blog-posts", {
    headers: origin,
    multipart: {
      title,
      content: "<p>One link, counted once per reader.</p>",
      excerpt: "Counted honestly.",
      category: "Funding",
      published: "true",
      tags: topic.slug,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = (await made.json()) as { id: number; slug: string };
  // The email's links lead to the post: it is sent once the rebuilt site serves it.
  await eventually(page.request, `/blog/${post.slug}`, (_html, status) => status === 200);
  const sent = await page.request.post("/api/newsletter/sends", { headers: origin, data: { postId: post.id } });
  expect(sent.status(), await sent.text()).toBe(202);
  const send = (await sent.json()) as { id: number };
  const [mail] = await inboxFor(page.request, clicker, 1, 60_000);
  const tracked = mail?.links.find((link) => new URL(link).pathname === "/api/newsletter/click");
  expect(tracked, JSON.stringify(mail?.links)).toBeDefined();
  // Clicked twice by the same reader: two clicks, one unique.
  for (let click = 0; click < 2; click += 1) {
    const landed = await reader.page.goto(tracked ?? "");
    expect(new URL(reader.page.url()).origin).toBe(new URL(baseURL ?? "").origin);
    expect(landed?.status()).toBe(200);
  }
  await expect
    .poll(async () => ((await (await page.request.get(`/api/newsletter/sends/${String(send.id)}`)).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe("sent");
  const delivered = ((await (await page.request.get(`/api/newsletter/sends/${String(send.id)}`)).json()) as { sent: number }).sent;

  await page.getByRole("tab", { name: "Stats" }).click();
  await page.getByText("7 days", { exact: true }).click();
  await expect(async () => {
    await page.getByRole("tab", { name: "Blog Posts" }).click();
    await page.getByRole("tab", { name: "Stats" }).click();
    expect(await rowWith(page, "Downloads per page and source", source)).toEqual(["/downloads", source, "1"]);
    expect(await rowOf(page, "Newsletters sent in this range", title)).toEqual([title, expect.any(String), String(delivered), "1", "2", "0"]);
    const links = page.locator("table", { has: page.locator("caption", { hasText: `Clicks per link: ${title}` }) });
    expect((await links.locator("tbody tr").allInnerTexts()).filter((row) => /\t2\t1$/.test(row.trim()))).toHaveLength(1);
    // Per topic: nobody chose it (the reader follows everything), one newsletter, its two clicks by one person.
    expect(await rowOf(page, "Readers and clicks per topic", topic.name)).toEqual([topic.name, "0", "0", "0", "0", "1", "2", "1"]);
    // Per subscriber tag: the import's tag on one new reader, and that reader's two clicks.
    expect(await rowOf(page, "Readers and clicks per subscriber tag", `cohort-${source}`)).toEqual([
      `cohort-${source}`,
      "1",
      "1",
      "0",
      "+1",
      "2",
      "1",
    ]);
  }).toPass({ timeout: 20_000 });
  expect(await reader.context.cookies()).toEqual([]);
  await reader.context.close();
});
