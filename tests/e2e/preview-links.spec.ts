import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./admin.ts";
import { axeViolations } from "./axe.ts";

// Issue 30: a draft's signed preview link, opened by someone without a session.
const runId = String(Date.now()).slice(-7);

async function savePost(page: Page, method: "POST" | "PUT", path: string, fields: Record<string, string>) {
  const response = await page.request.fetch(path, { method, headers: { origin: new URL(page.url()).origin }, multipart: fields });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as { id: number; url: string };
}

test("a draft's preview link shows the post template with a banner; edits show; revoked is 410; published redirects", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await logIn(page);
  const fields = { title: `Preview me ${runId}`, content: "<p>The first draft of the truth.</p>", excerpt: "Not out yet.", category: "Funding" };
  const post = await savePost(page, "POST", "/api/blog-posts", fields);
  const made = await page.request.post(`/api/blog-posts/${String(post.id)}/preview-links`, {
    headers: { origin: new URL(page.url()).origin },
    data: { expiresInHours: 24 },
  });
  expect(made.status()).toBe(201);
  const link = (await made.json()) as { id: number; url: string };

  // A private window: no session.
  const visitor = await (await browser.newContext()).newPage();
  const shown = await visitor.goto(link.url);
  expect(shown?.status()).toBe(200);
  expect(shown?.headers()["x-robots-tag"]).toBe("noindex");
  expect(shown?.headers()["cache-control"]).toBe("no-store");
  await expect(visitor.getByRole("note", { name: "Preview" })).toContainText("Preview — not published");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(fields.title);
  await expect(visitor.getByText("The first draft of the truth.")).toBeVisible();
  await expect(visitor.locator("article .badge").first()).toHaveText("Funding");
  // The site's stylesheet applies: the banner is the brand's red.
  await expect(visitor.getByRole("note", { name: "Preview" })).toHaveCSS("background-color", "rgb(185, 28, 28)");
  expect(await axeViolations(visitor)).toEqual([]);

  await savePost(page, "PUT", `/api/blog-posts/${String(post.id)}`, { ...fields, title: `Preview me, revised ${runId}` });
  await visitor.reload();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(`Preview me, revised ${runId}`);

  const listed = (await (await page.request.get(`/api/blog-posts/${String(post.id)}/preview-links`)).json()) as { views: number }[];
  expect(listed[0]?.views).toBe(2);

  // Published: the link leads to the live post.
  const second = (await (
    await page.request.post(`/api/blog-posts/${String(post.id)}/preview-links`, {
      headers: { origin: new URL(page.url()).origin },
      data: { expiresInHours: 1 },
    })
  ).json()) as { url: string };
  expect((await page.request.delete(`/api/preview-links/${String(link.id)}`, { headers: { origin: new URL(page.url()).origin } })).status()).toBe(
    204,
  );
  const gone = await visitor.goto(link.url);
  expect(gone?.status()).toBe(410);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Preview Unavailable");

  const live = await savePost(page, "PUT", `/api/blog-posts/${String(post.id)}`, { ...fields, published: "true" });
  const redirected = await visitor.request.get(second.url, { maxRedirects: 0 });
  expect(redirected.status()).toBe(302);
  expect(redirected.headers().location).toBe(live.url);
});

test("the dashboard shares a draft's preview for a chosen time, lists it with its views, and revokes it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await logIn(page);
  const title = `Share from the dashboard ${runId}`;
  await savePost(page, "POST", "/api/blog-posts", { title, content: "<p>Draft words.</p>" });
  await page.reload();
  const item = page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });
  await item.getByRole("button", { name: `Share preview of ${title}` }).click();
  const lifetime = item.getByLabel("Link works for");
  await expect(lifetime).toHaveValue("168");
  await lifetime.selectOption({ label: "1 hour" });
  await item.getByRole("button", { name: "Create Preview Link" }).click();
  const links = item.getByRole("list", { name: "Preview links" });
  await expect(links.getByRole("listitem")).toHaveCount(1);
  await expect(links).toContainText("0 views");
  await expect(links).toContainText("Expires");
  const url = await links.getByLabel("Preview link").inputValue();
  expect(url).toMatch(/\/preview\/\d+\/[\da-f]+\.[\w-]+$/);

  const visitor = await (await browser.newContext()).newPage();
  expect((await visitor.goto(url))?.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);

  await links.getByRole("button", { name: /^Revoke the link/ }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke Link" }).click();
  await expect(item.getByRole("list", { name: "Preview links" })).toHaveCount(0);
  expect((await visitor.goto(url))?.status()).toBe(410);
});
