import { expect, test } from "@playwright/test";
import { startImageServer } from "../support/image-server.ts";
import { eventually, logIn } from "./admin.ts";
import { toast } from "./islands.ts";

// Issue 32: a Ghost export imported from the dashboard (dry run, then import); its old address answers 301 to the new page.
const runId = String(Date.now()).slice(-7);
const slug = `moved-in-${runId}`;
const title = `Moved in ${runId}`;

function ghostExport(): string {
  return JSON.stringify({
    db: [
      {
        meta: { exported_on: Date.now(), version: "5.101.0" },
        data: {
          posts: [
            {
              id: `e2e-${runId}`,
              title,
              slug,
              html: `<p>Straight from Ghost.</p><img src="__GHOST_URL__/content/images/photo.png" alt="A photo">`,
              feature_image: "__GHOST_URL__/content/images/cover.jpg",
              type: "post",
              status: "published",
              created_at: "2024-01-10T09:00:00.000Z",
              published_at: "2024-01-11T09:00:00.000Z",
            },
          ],
          tags: [],
          posts_tags: [],
        },
      },
    ],
  });
}

test("imports a Ghost export from the dashboard: dry run, then import; the old address redirects to the post", async ({ page, request }) => {
  test.setTimeout(120_000);
  const images = await startImageServer();
  try {
    await logIn(page);
    await page.getByRole("tab", { name: "Import & Backup" }).click();
    const panel = page.getByRole("region", { name: "Import a Blog" });
    await panel.getByLabel("From").selectOption("ghost");
    await panel.getByLabel("Export file").setInputFiles({ name: "ghost.json", mimeType: "application/json", buffer: Buffer.from(ghostExport()) });
    await panel.getByLabel("Old site address").fill(images.url);
    await panel.getByRole("button", { name: "Dry Run" }).click();
    const report = panel.getByTestId("import-report");
    await expect(report).toContainText("Would import 1 post, skipped 0. Images to copy: 2. Redirects: 1.");
    expect(images.requests).toEqual([]);

    await panel.getByRole("button", { name: "Import Now" }).click();
    await expect(report).toContainText("Imported 1 post, skipped 0. Images copied: 2. Redirects: 1.");
    await expect(toast(page, "Import Complete")).toBeVisible();

    // The rebuilt site has the post, and its Ghost address answers 301 to it.
    await eventually(request, `/blog/${slug}`, (html, status) => status === 200 && html.includes("Straight from Ghost."));
    await eventually(request, `/${slug}/`, (_, status) => status === 200);
    const old = await request.get(`/${slug}/`, { maxRedirects: 0 });
    expect(old.status()).toBe(301);
    expect(old.headers().location).toBe(`/blog/${slug}`);
    await page.goto(`/${slug}/`);
    await expect(page).toHaveURL(new RegExp(`/blog/${slug}/?$`));
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator("article img").first()).toHaveAttribute("src", /\/api\/files\/images\/|\.netlify\/images/);
  } finally {
    await images.stop();
  }
});
