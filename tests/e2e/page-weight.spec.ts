import { gzipSync } from "node:zlib";
import { expect, test, type Page, type Request } from "@playwright/test";
import { firstPostPath } from "./islands.ts";

// Byte budgets are deterministic, so they are asserted here (speed budgets belong in a benchmark).
// Measured in Chromium: every script the page really fetched, gzipped as the CDN sends it, plus the
// page's inline script (the stored theme, docs/decisions/0042-dark-mode.md), gzipped on its own.
// Budgets (docs/decisions/0018-public-islands-in-react.md): at most 5 KB of JavaScript on any
// public page after load and 3 s idle with no input; at most 80 KB on a post whose islands have
// all been woken (React's runtime is most of it).
const kb = 1024;
const adminBundle = /AdminApp|AdminLayout|islands\/admin|_astro\/admin\//;

/** The JavaScript a page fetches, from now on: gzip bytes per script. */
function watchScripts(page: Page) {
  const sizes = new Map<string, Promise<number>>();
  const inFlight = new Set<Request>();
  page.on("request", (request) => inFlight.add(request));
  page.on("requestfinished", (request) => inFlight.delete(request));
  page.on("requestfailed", (request) => inFlight.delete(request));
  page.on("response", (response) => {
    if (!/javascript/.test(response.headers()["content-type"] ?? "")) return;
    // Chromium drops a body it no longer holds ("No resource with given identifier", seen once under a
    // loaded CI run); the same static file, fetched again by its address, has the same bytes.
    const url = response.url();
    sizes.set(
      url,
      response
        .body()
        .catch(() => page.request.get(url).then((again) => again.body()))
        .then((body) => gzipSync(body).byteLength),
    );
  });
  return {
    /** Once the network is quiet: the scripts fetched and the page's inline scripts, their gzip bytes in all. */
    async settle() {
      // A round trip to the page, so every request it started has been reported.
      await page.evaluate(() => 0);
      await expect.poll(() => inFlight.size).toBe(0);
      // Inline JavaScript (not JSON-LD data): in the HTML, so no response above reports it.
      const inline = await page
        .locator('script:not([src]):is(:not([type]), [type="module"], [type="text/javascript"])')
        .evaluateAll((scripts) => scripts.map((script) => script.textContent ?? ""));
      const inlineBytes = inline.reduce((sum, text) => sum + gzipSync(text).byteLength, 0);
      const bytes = (await Promise.all(sizes.values())).reduce((sum, size) => sum + size, inlineBytes);
      return {
        bytes,
        files: [...sizes.keys()].map((url) => new URL(url).pathname).concat(inline.length > 0 ? [`${String(inline.length)} inline`] : []),
      };
    },
  };
}

test("every public page runs at most 5 KB of JavaScript after load and 3 s idle, and never the admin bundle", async ({ page }) => {
  const post = await firstPostPath(page);
  // Tag lists (issue 42) are list pages like a category's: a tag that lists a post, when the site has one yet.
  const tags = (await (await page.request.get("/api/tags")).json()) as { slug: string; postCount: number }[];
  const tagList = tags.find((tag) => tag.postCount > 0);
  for (const path of ["/", "/blog", post, "/downloads", "/account", "/blog/tags", ...(tagList ? [`/blog/tag/${tagList.slug}`] : [])]) {
    await test.step(path, async () => {
      const scripts = watchScripts(page);
      await page.clock.install();
      await page.goto(path);
      await page.clock.runFor(3000);
      const { bytes, files } = await scripts.settle();
      test.info().annotations.push({ type: `${path}: JavaScript after load and 3 s idle (gzip bytes)`, description: String(bytes) });
      expect(bytes, `${path}: ${files.join(", ")}`).toBeLessThanOrEqual(5 * kb);
      expect(files.join(" "), `${path} loads no island code on its own`).not.toMatch(/awaken|react|client/i);
      expect(files.join(" "), `${path} loads no search code before the search opens`).not.toMatch(/pagefind|search-dialog/i);
      expect(files.join(" "), `${path} loads the admin bundle`).not.toMatch(adminBundle);
      expect(await page.content(), path).not.toMatch(adminBundle);
      page.removeAllListeners();
    });
  }
  const blog = watchScripts(page);
  await page.goto("/blog");
  // The blog list has nothing to interact with but the header's search (docs/decisions/0034) and the
  // page-view beacon (0032): the page's one script (site-script.ts) and what it imports, no island.
  const onBlog = await blog.settle();
  test.info().annotations.push({ type: "the blog list's scripts (gzip bytes)", description: `${String(onBlog.bytes)}: ${onBlog.files.join(", ")}` });
  expect(onBlog.files.join(" ")).toMatch(/BaseLayout/);
  expect(onBlog.files.join(" "), "no island code on the blog list").not.toMatch(/awaken|react|client/i);
  expect(onBlog.bytes, "the page's one script").toBeLessThanOrEqual(5 * kb);
});

test("the page-view beacon goes out once the page has loaded, as text/plain, and no public page sets a cookie", async ({ page, context }) => {
  const beacons: { body: string; contentType: string }[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/events") {
      beacons.push({ body: request.postData() ?? "", contentType: request.headers()["content-type"] ?? "" });
    }
  });
  for (const path of ["/", "/blog", "/no-such-page"]) {
    const before = beacons.length;
    await page.goto(`${path}?utm_source=weight-test`);
    await expect.poll(() => beacons.length).toBe(before + 1);
    const sent = beacons.at(-1);
    expect(sent?.contentType).toMatch(/^text\/plain/);
    const report = JSON.parse(sent?.body ?? "{}") as { url: string; notFound?: boolean };
    expect(new URL(report.url).pathname).toBe(path);
    expect(report.notFound ?? false).toBe(path === "/no-such-page");
  }
  expect(await context.cookies()).toEqual([]);
});

test("a post scrolled to the end with every island woken stays within 80 KB of JavaScript; a toast adds Radix Toast", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  const post = await firstPostPath(page);
  const scripts = watchScripts(page);
  await page.goto(post);
  // Touch the islands: point at Share at the top, then scroll to the end and into the form.
  await page.getByRole("button", { name: "Share" }).hover();
  await page.keyboard.press("End");
  await page.locator('form[data-newsletter] input[name="email"]').focus();
  for (const name of ["ShareButton", "NewsletterForm"]) {
    await expect(page.locator(`[data-island="${name}"]`).first()).toHaveAttribute("data-hydrated", "");
  }
  const touched = await scripts.settle();
  test.info().annotations.push({ type: "post: JavaScript with every island woken (gzip bytes)", description: String(touched.bytes) });
  expect(touched.bytes, `all JavaScript: ${touched.files.join(", ")}`).toBeLessThanOrEqual(80 * kb);

  // The first toast brings the Radix Toaster, which the 80 KB leaves out (docs/decisions/0018).
  await page.getByRole("button", { name: "Share" }).click();
  await expect(page.locator(".nf-toast").filter({ hasText: "Link Copied" })).toBeVisible();
  const toasted = await scripts.settle();
  test.info().annotations.push({ type: "post: JavaScript once a toast has shown (gzip bytes)", description: String(toasted.bytes) });
  expect(toasted.bytes - touched.bytes, "the Toaster's share").toBeLessThanOrEqual(14 * kb);
});
