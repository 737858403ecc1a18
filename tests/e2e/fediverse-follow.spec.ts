import { expect, test } from "@playwright/test";
import { firstPostPath, hydrated } from "./islands.ts";

// Issue 45 point 1: the site's handle and "Follow on the social web" under every post and in the
// footer; the pages name their ActivityPub documents.

test("a post names its Article and every other page the site's actor as the activity+json alternate", async ({ page }) => {
  const post = await firstPostPath(page);
  const posts = (await (await page.request.get("/api/blog-posts?published=true")).json()) as { id: number; slug: string }[];
  const id = posts.find((candidate) => post.endsWith(`/${candidate.slug}`) || post.endsWith(`/${String(candidate.id)}`))?.id;
  expect(id).toBeDefined();
  await page.goto(post);
  const alternate = page.locator('head link[rel="alternate"][type="application/activity+json"]');
  await expect(alternate).toHaveAttribute("href", new URL(`/fediverse/posts/${String(id)}`, page.url()).href);
  await page.goto("/downloads");
  await expect(alternate).toHaveAttribute("href", new URL("/fediverse/actor", page.url()).href);
});

test("the follow box copies the handle, and opens it on the reader's own server, remembered for next time", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const handle = `@nofilter@${new URL(baseURL ?? "").host}`;
  await page.goto(await firstPostPath(page));
  const box = page.locator("section").filter({ has: page.getByRole("heading", { name: "Follow on the social web" }) });
  // One under the post, one in the footer, both with the handle as text.
  await expect(box).toHaveCount(2);
  await expect(box.first().locator("[data-follow-handle]")).toHaveText(handle);
  await expect(page.locator("footer [data-follow-handle]")).toHaveText(handle);

  const wrapper = await hydrated(page, "FollowBox");
  await wrapper.getByRole("button", { name: "Copy handle" }).click();
  await expect(wrapper.getByRole("status")).toHaveText(/Handle copied/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(handle);

  // Not a server: said beside the field, and the page stays.
  await wrapper.getByLabel("Your server").fill("not a server");
  await wrapper.getByRole("button", { name: "Open on my server" }).click();
  await expect(wrapper.getByRole("status")).toHaveText(/Type your server's address/);
  await expect(wrapper.getByLabel("Your server")).toHaveAttribute("aria-invalid", "true");

  // The reader's server answers its remote-interaction page (Mastodon's `/authorize_interaction`).
  await page.route("https://social.example/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>Your server</title>" }));
  const postUrl = page.url();
  await wrapper.getByLabel("Your server").fill("@me@Social.Example");
  await wrapper.getByRole("button", { name: "Open on my server" }).click();
  await page.waitForURL(/^https:\/\/social\.example\//);
  const opened = new URL(page.url());
  expect(opened.pathname).toBe("/authorize_interaction");
  expect(opened.searchParams.get("uri")).toBe(handle.slice(1));

  await page.goto(postUrl);
  const again = await hydrated(page, "FollowBox");
  await expect(again.getByLabel("Your server")).toHaveValue("social.example");
});

test("without JavaScript the handle is still there; the copy button and the open form are not", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  const footer = page.locator("footer");
  await expect(footer.locator("[data-follow-handle]")).toHaveText(/^@nofilter@/);
  await expect(footer.getByRole("button", { name: "Copy handle" })).toBeHidden();
  await expect(footer.getByLabel("Your server")).toBeHidden();
  await context.close();
});
