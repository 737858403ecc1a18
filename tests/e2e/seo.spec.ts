import { expect, test, type APIRequestContext } from "@playwright/test";
import { localServerInfo } from "./local-server.ts";

const firstPostUrl = async (request: APIRequestContext) => ((await (await request.get("/api/blog-posts/1")).json()) as { url: string }).url;

test("robots.txt and the sitemap list the public pages and never the dashboard's path", async ({ request }) => {
  const adminPath = new URL((await localServerInfo()).adminUrl).pathname.replace(/\/$/, "");
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/Sitemap: .*\/sitemap-index\.xml/);
  const index = await (await request.get("/sitemap-index.xml")).text();
  const sitemapUrl = /<loc>([^<]+)<\/loc>/.exec(index)?.[1] ?? "";
  const sitemap = await (await request.get(new URL(sitemapUrl).pathname)).text();
  expect(sitemap).toContain(`${await firstPostUrl(request)}/<`);
  expect(sitemap).toContain("/blog/category/cash-flow/<");
  expect(sitemap).toContain("/downloads/");
  for (const text of [robots, index, sitemap]) expect(text).not.toContain(adminPath);
});

test("the RSS feed lists the newest published posts, 20 at most, at their slugs", async ({ request }) => {
  const feed = await (await request.get("/rss.xml")).text();
  const posts = (await (await request.get("/api/blog-posts?published=true")).json()) as { title: string; url: string }[];
  expect(feed).toContain("<rss");
  expect((feed.match(/<item>/g) ?? []).length).toBe(Math.min(20, posts.length));
  expect(feed).toContain(`${posts[0]?.url ?? ""}/</link>`);
});

test("a post page carries canonical, social cards and BlogPosting data, all at its slug", async ({ page, request }) => {
  const url = await firstPostUrl(page.request);
  await page.goto("/blog/1");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${url}/$`));
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  // The cover goes out as a 1200×630 JPEG card, whatever size the owner uploaded.
  const card = page.locator('meta[property="og:image"]');
  await expect(card).toHaveAttribute("content", /^https?:\/\/.+\/\.netlify\/images\?url=%2Fapi%2Ffiles%2Fimages%2F.+&w=1200&h=630&fit=cover&fm=jpg$/);
  const image = await request.get((await card.getAttribute("content")) ?? "");
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  const bytes = await image.body();
  // A JPEG's size is in its start-of-frame marker (SOF0 or SOF2): height, then width.
  const frame = bytes.findIndex((byte, index) => byte === 0xff && (bytes[index + 1] === 0xc0 || bytes[index + 1] === 0xc2));
  expect([bytes.readUInt16BE(frame + 7), bytes.readUInt16BE(frame + 5)]).toEqual([1200, 630]);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}") as Record<string, unknown>;
  expect(data["@type"]).toBe("BlogPosting");
  expect(data.headline).toBe(await page.getByRole("heading", { level: 1 }).textContent());
  expect(data.mainEntityOfPage).toMatch(new RegExp(`${url}$`));
});
