import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { publishDuePosts } from "../../src/core/posts/posts.service.ts";
import { adminLogin, eventually, logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { localServerInfo } from "./local-server.ts";

// Issue 16: posts at /blog/{slug} (old addresses redirect), /blog a page at a time, scheduled posts.
const form = (page: Page) => page.locator("#admin-post-form");
const postItem = (page: Page, title: string) => page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });
const runId = String(Date.now()).slice(-7);

interface ApiPost {
  id: number;
  title: string;
  slug: string;
  url: string;
  publishAt: string | null;
}

async function adminPost(page: Page, title: string): Promise<ApiPost> {
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as ApiPost[];
  const post = posts.find((candidate) => candidate.title === title);
  expect(post, title).toBeDefined();
  return post as ApiPost;
}

async function createPost(page: Page, fields: { title: string; slug?: string; publishNow?: boolean; publishAt?: string }) {
  await form(page).getByLabel("Title").fill(fields.title);
  if (fields.slug) await form(page).getByLabel("Slug").fill(fields.slug);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Straight talk.");
  if (fields.publishNow) await form(page).getByLabel("Publish immediately").check();
  if (fields.publishAt) await form(page).getByLabel("Publish at").fill(fields.publishAt);
  await form(page).getByRole("button", { name: "Create Post" }).click();
}

test("a post lives at its slug; /blog/{id} and a renamed slug answer 301 to it; a taken slug is refused in the form", async ({ page, request }) => {
  test.setTimeout(120_000);
  await logIn(page);
  const title = unique("Cash is a fact");
  const slug = `cash-is-a-fact-${runId}`;
  await createPost(page, { title, slug, publishNow: true });
  await expect(toast(page, "Post Created")).toBeVisible();
  const post = await adminPost(page, title);
  expect(post).toMatchObject({ slug, url: `/blog/${slug}` });

  const html = await eventually(request, `/blog/${slug}`, (text, status) => status === 200 && text.includes(title));
  expect(html).toContain(`<link rel="canonical" href="http://localhost:${new URL(page.url()).port}/blog/${slug}`);
  const byId = await request.get(`/blog/${String(post.id)}`, { maxRedirects: 0 });
  expect(byId.status()).toBe(301);
  expect(new URL(byId.headers().location ?? "", "http://x").pathname).toBe(`/blog/${slug}`);
  // A visitor following the old link lands on the post.
  await page.goto(`/blog/${String(post.id)}`);
  await expect(page).toHaveURL(new RegExp(`/blog/${slug}/?$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Renaming the slug: the new address serves the post, the old one redirects to it.
  await page.goto((await adminLogin()).adminPath);
  await postItem(page, title)
    .getByRole("button", { name: `Edit ${title}` })
    .click();
  await expect(form(page).getByLabel("Slug")).toHaveValue(slug);
  await form(page).getByLabel("Slug").fill(`${slug}-renamed`);
  await form(page).getByRole("button", { name: "Update Post" }).click();
  await expect(toast(page, "Post Updated")).toBeVisible();
  await eventually(request, `/blog/${slug}-renamed`, (text, status) => status === 200 && text.includes(title));
  const old = await request.get(`/blog/${slug}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(new URL(old.headers().location ?? "", "http://x").pathname).toBe(`/blog/${slug}-renamed`);

  // Another post may not take a slug in use: the form says so under the field.
  await createPost(page, { title: unique("Copycat"), slug: `${slug}-renamed` });
  await expect(form(page).getByText("This slug is already used by another post")).toBeVisible();
  await form(page).getByLabel("Slug").fill("Not A Slug");
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(form(page).getByText("Slug may contain only lowercase letters, numbers and single hyphens")).toBeVisible();
});

test("/blog shows a page of posts at a time, with Previous and Next; a page past the end is 404", async ({ page, request }) => {
  test.setTimeout(120_000);
  const info = await localServerInfo();
  const db = new pg.Client({ connectionString: info.databaseUrl });
  await db.connect();
  try {
    // Old posts, so they sort after every other test's (the newest stay first on the home page).
    await db.query(
      `INSERT INTO posts (title, content, excerpt, published, published_at, slug)
       SELECT 'Archive ' || $1 || ' no. ' || n, '<p>From the archive.</p>', 'From the archive.', true,
              timestamptz '2001-01-01' + n * interval '1 day', 'archive-' || $1 || '-' || n
       FROM generate_series(1, 14) AS n`,
      [runId],
    );
  } finally {
    await db.end();
  }
  expect((await request.post(info.buildHookUrl)).status()).toBe(202);
  const published = (await (await request.get("/api/blog-posts?published=true")).json()) as ApiPost[];
  const pageCount = Math.ceil(published.length / 12);
  expect(pageCount).toBeGreaterThanOrEqual(2);
  await eventually(request, `/blog/page/${String(pageCount)}`, (text, status) => status === 200 && text.includes(`Archive ${runId} no. 1<`));

  await page.goto("/blog");
  const cards = page.locator("main article");
  await expect(cards).toHaveCount(12);
  await expect(cards.first()).toContainText(published[0]?.title ?? "");
  await expect(page.getByText(`Page 1 of ${String(pageCount)}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "← Previous" })).toHaveCount(0);
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/\/blog\/page\/2\/?$/);
  await expect(cards.first()).toContainText(published[12]?.title ?? "");
  await expect(page.getByText(`Page 2 of ${String(pageCount)}`)).toBeVisible();
  await page.getByRole("link", { name: "← Previous" }).click();
  await expect(page).toHaveURL(/\/blog\/?$/);

  // However long the blog, a list page stays small.
  const html = await (await request.get("/blog")).text();
  expect(html.length).toBeLessThan(200 * 1024);
  expect(await page.locator("*").count()).toBeLessThan(1500);

  expect((await request.get(`/blog/page/${String(pageCount + 1)}`)).status()).toBe(404);
  expect((await request.get("/blog/page/1", { maxRedirects: 0 })).status()).toBe(301);
  const sitemap = await (await request.get("/sitemap-0.xml")).text();
  expect(sitemap).toContain(`/blog/page/${String(pageCount)}/<`);
  const feed = await (await request.get("/rss.xml")).text();
  expect(feed.match(/<item>/g)).toHaveLength(Math.min(20, published.length));
});

test.describe("a scheduled post, set in the owner's own time zone", () => {
  test.use({ timezoneId: "America/New_York" });

  test("stays off every public page until its time, then goes live on its own (clock injected into the check)", async ({ page, request }) => {
    test.setTimeout(120_000);
    const info = await localServerInfo();
    await logIn(page);
    // Two minutes ahead, typed as the owner in New York reads their clock.
    const goesLive = new Date(Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000);
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-CA", {
        timeZone: "America/New_York",
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      })
        .formatToParts(goesLive)
        .map((part) => [part.type, part.value]),
    );
    const title = unique("Scheduled truth");
    await createPost(page, { title, publishAt: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}` });
    await expect(toast(page, "Post Created")).toBeVisible();
    await expect(postItem(page, title)).toContainText(/Scheduled for .* (EST|EDT)/);
    const post = await adminPost(page, title);
    expect(post.publishAt).toBe(goesLive.toISOString());

    // Absent from the public API, the post's address, the list, the feed and the sitemap.
    expect(await (await request.get("/api/blog-posts?published=true")).text()).not.toContain(title);
    expect((await request.get(`/api/blog-posts/${String(post.id)}`)).status()).toBe(404);
    expect((await request.get(post.url)).status()).toBe(404);
    for (const publicPath of ["/", "/blog", "/rss.xml", "/sitemap-0.xml"])
      expect(await (await request.get(publicPath)).text(), publicPath).not.toContain(title);

    // The due-posts check that npm start runs on a timer (and Netlify every minute), run here with
    // the clock set a minute before the time, then at it.
    // The app's own executor (transactions included: going live records its events in one).
    const db = await connectDatabase(info.databaseUrl, { driver: "pg", maxConnections: 1 });
    try {
      const rebuild = () => void request.post(info.buildHookUrl);
      const at = (time: number) => ({ db, rebuild, now: () => new Date(time) });
      expect(await publishDuePosts(at(goesLive.getTime() - 60_000))).toEqual([]);
      expect(await publishDuePosts(at(goesLive.getTime()))).toMatchObject([{ id: post.id, title: post.title, url: post.url }]);
    } finally {
      await db.close();
    }
    await eventually(request, post.url, (text, status) => status === 200 && text.includes(title));
    await eventually(request, "/blog", (text) => text.includes(title));
    // The write came from outside the server (as the scheduled function's would), so the server's
    // shared public reads may answer from before it for up to their second (src/api/shared-reads.ts).
    await eventually(request, "/api/blog-posts?published=true", (text) => text.includes(title));
  });
});

test("the dashboard lists posts and subscribers a page at a time", async ({ page }) => {
  test.setTimeout(90_000);
  const info = await localServerInfo();
  const db = new pg.Client({ connectionString: info.databaseUrl });
  await db.connect();
  try {
    // Unsubscribed, so no other test's newsletter send counts them.
    await db.query(
      `INSERT INTO subscribers (email, status, source)
       SELECT 'paged-' || $1 || '-' || n || '@example.com', 'unsubscribed', 'import' FROM generate_series(1, 110) AS n`,
      [runId],
    );
    await db.query(
      `INSERT INTO posts (title, content, slug) SELECT 'Paged draft ' || $1 || ' no. ' || n, '<p>x</p>', 'paged-draft-' || $1 || '-' || n FROM generate_series(1, 55) AS n`,
      [runId],
    );
  } finally {
    await db.end();
  }
  await logIn(page);
  const posts = page
    .getByRole("list", { name: "Posts" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading") });
  await expect(posts).toHaveCount(50);
  await page.getByRole("button", { name: "Show more posts" }).click();
  await expect(posts).not.toHaveCount(50);
  expect(await posts.count()).toBeGreaterThanOrEqual(55);

  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  await page.getByRole("group", { name: "Show subscribers" }).getByText("Unsubscribed").click();
  const rows = page.getByRole("table").locator("tbody tr");
  await expect(rows).toHaveCount(100);
  await page.getByRole("button", { name: "Show more subscribers" }).click();
  await expect(rows).not.toHaveCount(100);
  expect(await rows.count()).toBeGreaterThanOrEqual(110);
  await expect(page.getByRole("button", { name: "Show more subscribers" })).toHaveCount(0);
});
