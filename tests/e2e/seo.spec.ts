import { expect, test, type APIRequestContext } from "@playwright/test";
import { parseFeed } from "feedsmith";
import { mf2 } from "microformats-parser";
import { parse } from "node-html-parser";
import ogs from "open-graph-scraper";
import { eventually, logIn, unique } from "./admin.ts";
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

test("the sitemap gives each post its last change as <lastmod>", async ({ request }) => {
  const index = await (await request.get("/sitemap-index.xml")).text();
  const sitemap = await (await request.get(new URL(/<loc>([^<]+)<\/loc>/.exec(index)?.[1] ?? "").pathname)).text();
  const post = (await (await request.get("/api/blog-posts/1")).json()) as { url: string; updatedAt: string };
  expect(sitemap).toContain(`${post.url}/</loc><lastmod>${post.updatedAt}</lastmod>`);
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
  expect(data.mainEntityOfPage).toMatch(new RegExp(`${url}/$`));
});

test("a post without a cover shares its own generated 1200×630 PNG, read by a link-preview scraper; a new title is a new image (issue 43 point 4)", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await logIn(page);
  const origin = baseURL ?? "";
  const fields = { title: unique("Shared without a cover"), content: "<p>No photo, still a picture.</p>", category: "Cash Flow", published: "true" };
  const made = await page.request.post("/api/blog-posts", { headers: { origin }, multipart: fields });
  expect(made.status(), await made.text()).toBe(201);
  const post = (await made.json()) as { id: number; url: string };
  await eventually(request, post.url, (_html, status) => status === 200);

  /** What a link preview sees: open-graph-scraper reads the live page (given as HTML: its URL check refuses localhost). */
  const preview = async () => {
    const { result } = await ogs({ html: await (await request.get(`${post.url}/`)).text() });
    const image = result.ogImage?.[0];
    expect(image?.url).toMatch(/^https?:\/\/[^/]+\/share\/.+\.png$/);
    return { title: result.ogTitle, image, twitterAlt: result.twitterImage?.[0]?.alt };
  };
  const first = await preview();
  expect(first.title).toBe(`${fields.title} — No Filter`);
  // The scraper hands the meta tags' values over as written.
  expect([Number(first.image?.width), Number(first.image?.height)]).toEqual([1200, 630]);
  expect(first.image).toMatchObject({ type: "image/png", alt: `${fields.title} (Cash Flow): No Filter` });
  expect(first.twitterAlt).toBe(first.image?.alt);
  const answer = await request.get(new URL(first.image?.url ?? "").pathname);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("image/png");
  expect(answer.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  // A PNG's size is in its IHDR chunk: width, then height, from byte 16.
  const bytes = await answer.body();
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);

  // A changed title draws a new image under a new address.
  const retitled = await page.request.fetch(`/api/blog-posts/${String(post.id)}`, {
    method: "PUT",
    headers: { origin },
    multipart: { ...fields, title: `${fields.title}, retold` },
  });
  expect(retitled.status(), await retitled.text()).toBeLessThan(300);
  await eventually(request, post.url, (html) => html.includes(`${fields.title}, retold`));
  const second = await preview();
  expect(second.image?.url).not.toBe(first.image?.url);
  expect((await request.get(new URL(second.image?.url ?? "").pathname)).headers()["content-type"]).toBe("image/png");
});

/** The `<head>` of a page as the server answers it. */
async function head(request: APIRequestContext, path: string) {
  const response = await request.get(path);
  return parse(await response.text()).querySelector("head");
}
const activityJson = "application/activity+json";
/** The feeds a page announces (its ActivityPub document, also an alternate, is read apart). */
const alternates = (document: Awaited<ReturnType<typeof head>>) =>
  (document?.querySelectorAll('link[rel="alternate"]') ?? [])
    .filter((link) => link.getAttribute("type") !== activityJson)
    .map((link) => [link.getAttribute("type"), link.getAttribute("href")]);
const activityAlternates = (document: Awaited<ReturnType<typeof head>>) =>
  (document?.querySelectorAll(`link[rel="alternate"][type="${activityJson}"]`) ?? []).map((link) => link.getAttribute("href"));
const siteFeeds = [
  ["application/rss+xml", "/rss.xml"],
  ["application/atom+xml", "/atom.xml"],
  ["application/feed+json", "/feed.json"],
];

test("every page type announces the site's three feeds, a category's and a tag's pages theirs too, and each feed parses (issue 43 points 1 and 3)", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // A tagged post, so the tag's pages and feeds exist.
  await logIn(page);
  const tagName = unique("Feed tag");
  const title = unique("Feeds, told straight");
  const made = await page.request.post("/api/blog-posts", {
    headers: { origin: baseURL ?? "" },
    multipart: { title, content: "<p>Every reader's format.</p>", category: "Funding", tags: tagName, published: "true" },
  });
  expect(made.status(), await made.text()).toBe(201);
  const post = (await made.json()) as { id: number; url: string; tags: string[] };
  const tagSlug = post.tags[0] ?? "";
  await eventually(request, `/blog/tag/${tagSlug}`, (_html, status) => status === 200);

  for (const path of ["/", "/blog", "/blog/tags", post.url, "/downloads", "/privacy", "/subscribed", "/no-such-page"]) {
    const document = await head(request, path);
    expect(alternates(document), path).toEqual(siteFeeds);
    // Issue 45: and its ActivityPub document, a post's Article or else the site's actor.
    const activity = path === post.url ? `/fediverse/posts/${String(post.id)}` : "/fediverse/actor";
    expect(activityAlternates(document), path).toEqual([new URL(activity, baseURL).href]);
  }
  const scoped = { "/blog/category/funding": "/blog/category/funding/", [`/blog/tag/${tagSlug}`]: `/blog/tag/${tagSlug}/` };
  for (const [path, folder] of Object.entries(scoped)) {
    expect(alternates(await head(request, path)), path).toEqual([
      ...siteFeeds,
      ...siteFeeds.map(([type, file]) => [type, `${folder}${file?.slice(1) ?? ""}`]),
    ]);
    for (const [, file] of siteFeeds) {
      const feed = await request.get(`${folder}${file?.slice(1) ?? ""}`);
      expect(feed.status()).toBe(200);
      const parsed = parseFeed(await feed.text());
      const items = parsed.format === "atom" ? parsed.feed.entries : parsed.format === "rdf" ? [] : parsed.feed.items;
      expect(JSON.stringify(items), `${folder}${file ?? ""}`).toContain(title.replace(/&/g, "&amp;"));
    }
  }
  // The site's own feeds carry the post with its whole content.
  for (const [, file] of siteFeeds) {
    const text = await (await request.get(file ?? "")).text();
    expect(text).toContain(title);
    expect(text).toContain("Every reader's format.");
  }

  // Point 3: the post is an h-entry with every field; its tag and category are p-category.
  const html = await (await request.get(post.url)).text();
  const entry = mf2(html, { baseUrl: new URL(post.url, baseURL).href }).items.find((item) => item.type?.includes("h-entry"));
  const properties = entry?.properties ?? {};
  for (const name of ["name", "summary", "content", "published", "updated", "url", "author", "category"])
    expect(properties[name], name).toBeDefined();
  expect(properties.name).toEqual([title]);
  expect(properties.url).toEqual([new URL(`${post.url}/`, baseURL).href]);
  expect(properties.category).toEqual(["Funding", tagName]);
  expect((properties.author?.[0] as { type?: string[] } | undefined)?.type).toEqual(["h-card"]);
});

test("a post with a cover is an h-entry with its featured photo; the home page an h-card with rel=me profiles", async ({ request, baseURL }) => {
  const url = await firstPostUrl(request);
  const entry = mf2(await (await request.get(url)).text(), { baseUrl: new URL(url, baseURL).href }).items.find((item) =>
    item.type?.includes("h-entry"),
  );
  expect(JSON.stringify(entry?.properties.featured)).toMatch(/\/api\/files\/images\//);
  expect(JSON.stringify(entry?.properties.photo)).toMatch(/\/api\/files\/images\//);
  const home = mf2(await (await request.get("/")).text(), { baseUrl: baseURL ?? "" });
  const card = home.items.find((item) => item.type?.includes("h-card"));
  expect(card?.properties.name).toEqual(["No Filter"]);
  expect(home.rels.me?.length).toBeGreaterThan(0);
  // Each card of a list is an h-entry too: its name, address, date and summary.
  const list = mf2(await (await request.get("/blog")).text(), { baseUrl: new URL("/blog/", baseURL).href });
  const cards = list.items.filter((item) => item.type?.includes("h-entry"));
  expect(cards.length).toBeGreaterThan(0);
  for (const entry of cards) {
    for (const name of ["name", "url", "published", "summary"]) expect(entry.properties[name], name).toHaveLength(1);
  }
});

test("a post's head tells the truth: image size, type and alt, article times, section, twitter:site; form answers and the sign-in link's landing page are noindex and out of the sitemap; a 404 has no canonical (issue 43 point 5)", async ({
  request,
}) => {
  const document = await head(request, await firstPostUrl(request));
  const meta = (key: string) => document?.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute("content");
  expect(meta("og:image:width")).toBe("1200");
  expect(meta("og:image:height")).toBe("630");
  expect(meta("og:image:type")).toBe("image/jpeg");
  expect(meta("og:image:alt")).toBeTruthy();
  expect(meta("twitter:image:alt")).toBe(meta("og:image:alt"));
  expect(Date.parse(meta("article:published_time") ?? "")).not.toBeNaN();
  expect(Date.parse(meta("article:modified_time") ?? "")).not.toBeNaN();
  expect(meta("article:section")).toBeTruthy();
  expect(meta("twitter:site")).toMatch(/^@\w+$/);
  const data = JSON.parse(document?.querySelector('script[type="application/ld+json"]')?.textContent ?? "{}") as Record<string, unknown>;
  expect(data.mainEntityOfPage).toBe(document?.querySelector('link[rel="canonical"]')?.getAttribute("href"));
  expect(data).toMatchObject({ image: { width: 1200, height: 630 }, author: { "@type": "Organization" } });
  expect(data.dateModified).toBe(meta("article:modified_time"));

  const home = await head(request, "/");
  const graph = JSON.parse(home?.querySelector('script[type="application/ld+json"]')?.textContent ?? "{}") as { "@graph"?: { "@type": string }[] };
  expect(graph["@graph"]?.map((node) => node["@type"])).toEqual(["WebSite", "Organization"]);

  const sitemap = await (await request.get("/sitemap-0.xml")).text();
  expect(sitemap).toMatch(/\/downloads\/?<\/loc>/);
  for (const path of [
    "/subscribed",
    "/subscribe-failed",
    "/subscribe-failed/try-later",
    "/download-failed",
    "/download-failed/try-later",
    "/comment-failed",
    "/comment-failed/try-later",
    "/account/continue",
  ]) {
    const answer = await head(request, path);
    expect(answer?.querySelector('meta[name="robots"]')?.getAttribute("content"), path).toBe("noindex, nofollow");
    expect(answer?.querySelector('link[rel="canonical"]'), path).toBeNull();
    // What asks search engines to stay away is not listed for them either.
    expect(sitemap, path).not.toMatch(new RegExp(`${path}/?</loc>`));
  }
  for (const path of ["/no-such-page", "/blog/no-such-post"]) {
    expect((await head(request, path))?.querySelector('link[rel="canonical"]'), path).toBeNull();
  }
});

test("Pagefind's hashed index and fragments are cached as immutable; TRACE answers 405 and a plain 404 carries the security headers (issue 43 point 7)", async ({
  page,
  request,
}) => {
  await page.goto("/blog");
  const fragment = page.waitForResponse((response) => response.url().includes("/pagefind/fragment/"));
  const index = page.waitForResponse((response) => response.url().includes("/pagefind/index/"));
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("dialog", { name: "Search No Filter" }).getByRole("searchbox", { name: "Search posts and resources" }).fill("funding");
  for (const response of [await index, await fragment]) {
    expect(response.headers()["cache-control"], response.url()).toBe("public, max-age=31536000, immutable");
  }
  const traced = await request.fetch("/", { method: "TRACE" });
  expect(traced.status()).toBe(405);
  for (const answer of [traced, await request.get("/_headers")]) {
    expect(answer.headers()["content-security-policy"]).toMatch(/^default-src 'self'/);
    expect(answer.headers()["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=()");
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
  }
});
