import { expect, test, type Page } from "@playwright/test";
import { adminLogin, eventually, logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";

// Issue 42, point 1: the owner tags a post in the form; the post page links each tag to its list.
const form = (page: Page) => page.locator("#admin-post-form");
const runId = String(Date.now()).slice(-7);

test("the owner tags a post (an existing tag suggested, a new one made); the tag's list shows it; a renamed tag's old list answers 301", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await logIn(page);
  const existing = `Bootstrapping ${runId}`;
  const existingSlug = `bootstrapping-${runId}`;
  const made = await page.request.post("/api/tags", { headers: { origin: baseURL ?? "" }, data: { name: existing, topic: false } });
  expect(made.status(), await made.text()).toBe(201);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toBeVisible();

  const title = unique("Tagged truth");
  await form(page).getByLabel("Title").fill(title);
  const tags = form(page).getByRole("combobox", { name: "Tags" });
  // Typing part of a tag's name suggests it (this run's: reruns leave others); choosing it adds it to the post.
  await tags.fill(`strapping ${runId}`);
  const suggestion = form(page).getByRole("listbox", { name: "Tag suggestions" }).getByRole("option", { name: existing });
  await expect(suggestion).toBeVisible();
  await tags.press("ArrowDown");
  await expect(suggestion).toHaveAttribute("aria-selected", "true");
  await tags.press("Enter");
  await expect(form(page).getByRole("list", { name: "Tags on this post" })).toContainText(existing);
  // A name no tag has is offered as a new tag and made when the post is saved.
  const fresh = `Cold email ${runId}`;
  await tags.fill(fresh);
  await expect(form(page).getByRole("option", { name: `Create “${fresh}”` })).toBeVisible();
  await tags.press("Enter");
  await expect(form(page).getByRole("list", { name: "Tags on this post" })).toContainText(`${fresh}(new)`);

  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Tags, told straight.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();

  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { title: string; slug: string; tags: string[] }[];
  const post = posts.find((candidate) => candidate.title === title);
  const freshSlug = `cold-email-${runId}`;
  expect(post?.tags).toEqual([existingSlug, freshSlug]);

  // The post page shows each tag, linking to its list, which lists the post.
  await eventually(request, `/blog/${post?.slug ?? ""}`, (html, status) => status === 200 && html.includes(fresh));
  await page.goto(`/blog/${post?.slug ?? ""}`);
  const tagLink = page.getByRole("list", { name: "Tags" }).getByRole("link", { name: fresh });
  await expect(tagLink).toHaveAttribute("href", `/blog/tag/${freshSlug}`);
  await tagLink.click();
  await expect(page).toHaveURL(new RegExp(`/blog/tag/${freshSlug}/?$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(fresh);
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  // Its own feed, and the tag index lists it.
  const feed = await request.get(`/blog/tag/${freshSlug}/rss.xml`);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain(title);
  const index = await (await request.get("/sitemap-index.xml")).text();
  const sitemap = await (await request.get(new URL(/<loc>([^<]+)<\/loc>/.exec(index)?.[1] ?? "").pathname)).text();
  expect(sitemap).toMatch(new RegExp(`<loc>[^<]*/blog/tag/${freshSlug}/?</loc>`));
  expect(sitemap).toMatch(/<loc>[^<]*\/blog\/tags\/?<\/loc>/);
  await page.goto("/blog/tags");
  await expect(page.getByRole("link", { name: fresh })).toHaveAttribute("href", `/blog/tag/${freshSlug}`);

  // Renaming the tag's slug in the dashboard's Tags panel: the new list serves the post, the old address answers 301 to it.
  await page.goto((await adminLogin()).adminPath);
  const row = page.getByRole("form", { name: `Tag ${fresh}` });
  await row.getByLabel("Slug").fill(`${freshSlug}-renamed`);
  await row.getByLabel("Description (optional)").fill("Writing to strangers who become customers.");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Tag Updated")).toContainText(`/blog/tag/${freshSlug}-renamed`);
  await eventually(request, `/blog/tag/${freshSlug}-renamed`, (html, status) => status === 200 && html.includes(title));
  const old = await request.get(`/blog/tag/${freshSlug}`, { maxRedirects: 0 });
  expect(old.status()).toBe(301);
  expect(new URL(old.headers().location ?? "", "http://x").pathname).toBe(`/blog/tag/${freshSlug}-renamed`);
  const oldFeed = await request.get(`/blog/tag/${freshSlug}/rss.xml`, { maxRedirects: 0 });
  expect(oldFeed.status()).toBe(301);
});
