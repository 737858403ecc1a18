import { expect, test, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";

// Issue 43 point 2: under `npm start` the feeds and pages name the local WebSub hub, and a publish
// pings it once the rebuilt site shows the post (netlify/local/websub-hub.ts, decision 0077).
const form = (page: Page) => page.locator("#admin-post-form");
const hubPath = "/.netlify/local/websub";

test("pages and feeds name the local hub; a published post's feeds are pinged to it once its page is live, and its page lists the ping", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const hub = `${baseURL ?? ""}${hubPath}`;
  await page.goto("/");
  await expect(page.locator('head link[rel="hub"]')).toHaveAttribute("href", hub);
  await expect(page.locator('head link[rel="self"]')).toHaveAttribute("href", `${baseURL ?? ""}/`);
  expect(await (await page.request.get("/rss.xml")).text()).toContain(`<atom:link href="${hub}" rel="hub"/>`);
  expect(((await (await page.request.get("/feed.json")).json()) as { hubs?: unknown }).hubs).toEqual([{ type: "WebSub", url: hub }]);

  await logIn(page);
  const runId = String(Date.now());
  const title = unique("Pinged once live");
  const tagName = `Websub ${runId}`;
  await form(page).getByLabel("Title").fill(title);
  const tags = form(page).getByRole("combobox", { name: "Tags" });
  await tags.fill(tagName);
  await expect(form(page).getByRole("option", { name: `Create “${tagName}”` })).toBeVisible();
  await tags.press("Enter");
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Readers' hubs hear of it once the page is there.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { title: string; url: string }[];
  const postUrl = posts.find((candidate) => candidate.title === title)?.url ?? "";
  expect(postUrl).not.toBe("");

  // The post's own tag feed names this ping among all others; when it arrives the page is already live.
  const tagFeed = `${baseURL ?? ""}/blog/tag/websub-${runId}/rss.xml`;
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`${hubPath}.json`).catch(() => undefined);
        if (!answer?.ok()) return false;
        return ((await answer.json()) as { urls: string[] }[]).some((ping) => ping.urls.includes(tagFeed));
      },
      { timeout: 90_000 },
    )
    .toBe(true);
  expect((await page.request.get(postUrl)).status()).toBe(200);

  await page.goto(hubPath);
  await expect(page.getByRole("heading", { name: "Local WebSub hub" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Pings received, newest first" }).getByRole("link", { name: tagFeed })).toBeVisible();
});
