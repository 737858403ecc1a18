import { expect, test } from "@playwright/test";

test("the home page shows the hero title from the site settings", async ({ page, request }) => {
  const settings = (await (await request.get("/api/site-settings")).json()) as { key: string; value: string }[];
  const heroTitle = settings.find((setting) => setting.key === "hero_title")?.value;
  expect(heroTitle).toBeTruthy();

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heroTitle as string);
  await expect(page).toHaveTitle(/No Filter/);
});

test("/api/health answers ok", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok", database: "ok" });
});

test("an unknown path answers 404 with a way back home", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("an unknown API path answers a 404 JSON error", async ({ request }) => {
  const response = await request.get("/api/no-such-call");
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({ error: "Not found" });
});

test("static pages carry the security headers from netlify.toml", async ({ request }) => {
  const response = await request.get("/");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
  const csp = response.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
});

test("the public pages load under the Content-Security-Policy without a violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  for (const path of ["/", "/blog", "/blog/1", "/downloads", "/no/such/page"]) await page.goto(path);
  expect(violations).toEqual([]);
});

test("an unknown post answers 404 with Post Not Found, while real posts are served", async ({ page, request }) => {
  const response = await page.goto("/blog/999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Post Not Found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toBeVisible();

  const posts = (await (await request.get("/api/blog-posts?published=true")).json()) as { id: number; title: string }[];
  const first = posts[0];
  expect(first).toBeDefined();
  const post = await page.goto(`/blog/${String(first?.id)}`);
  expect(post?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(first?.title ?? "");
});

test("each public page has one h1 and loads one script (islands, search, the beacon and the theme toggle) after one small inline one", async ({
  request,
}) => {
  for (const path of ["/", "/blog", "/downloads", "/privacy"]) {
    const html = await (await request.get(path)).text();
    expect(html.match(/<h1[\s>]/g), path).toHaveLength(1);
    // Each more module request cost ~150 ms of first paint on Lighthouse's phone (site-script.ts).
    // The inline one sets the stored theme before the first paint (docs/decisions/0042-dark-mode.md): it
    // fetches nothing, and it stays a few hundred bytes (page-weight.spec.ts counts it too).
    // JSON-LD blocks (structured data) are data, never run: not scripts in this sense.
    const scripts = (html.match(/<script[^>]*>/g) ?? []).filter((tag) => !tag.includes("application/ld+json"));
    expect(scripts, path).toEqual(["<script>", expect.stringMatching(/src="\/_astro\/BaseLayout[^"]+\.js"/)]);
    const inline = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    expect(inline, path).toContain("localStorage");
    expect(inline.length, path).toBeLessThanOrEqual(300);
  }
});
