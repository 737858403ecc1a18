import { expect, test } from "@playwright/test";
import { startImageServer } from "../support/image-server.ts";
import { eventually, logIn } from "./admin.ts";
import { toast } from "./islands.ts";

// Issue 32: a Ghost export imported from the dashboard (dry run, then import); its old address answers 301 to the new page.
// Issue 41: the dry run lists each post and names a paid post (a draft here) and the members (kept out until ticked).
const runId = String(Date.now()).slice(-7);
const slug = `moved-in-${runId}`;
const title = `Moved in ${runId}`;
const paidSlug = `paid-${runId}`;
const paidTitle = `For paying members ${runId}`;

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
            {
              id: `e2e-paid-${runId}`,
              title: paidTitle,
              slug: paidSlug,
              html: "<p>Only for those who pay.</p>",
              type: "post",
              status: "published",
              visibility: "paid",
              created_at: "2024-01-12T09:00:00.000Z",
              published_at: "2024-01-12T09:00:00.000Z",
            },
          ],
          tags: [],
          posts_tags: [],
          newsletters: [{ id: "n1", name: "Default" }],
          members: [
            { id: "m1", email: `member-${runId}@example.com`, status: "paid", created_at: "2023-01-01T00:00:00.000Z" },
            { id: "m2", email: `left-${runId}@example.com`, status: "free", created_at: "2023-01-02T00:00:00.000Z" },
          ],
          members_newsletters: [{ member_id: "m1", newsletter_id: "n1" }],
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
    // The consent tick is asked only of an export that can hold an email list.
    const consent = panel.getByRole("checkbox", { name: /I confirm these people agreed/ });
    await panel.getByLabel("From").selectOption("wordpress");
    await expect(consent).toHaveCount(0);
    await panel.getByLabel("From").selectOption("substack");
    await expect(panel.getByRole("checkbox", { name: /^Substack email list:/ })).toBeVisible();
    await panel.getByLabel("From").selectOption("ghost");
    await expect(panel.getByRole("checkbox", { name: /^Ghost members:/ })).not.toBeChecked();
    await panel.getByLabel("Export file").setInputFiles({ name: "ghost.json", mimeType: "application/json", buffer: Buffer.from(ghostExport()) });
    await panel.getByLabel("Old site address").fill(images.url);
    await panel.getByRole("button", { name: "Dry Run" }).click();
    const report = panel.getByTestId("import-report");
    await expect(report).toContainText(
      "Would import 2 posts, skipped 0. Images to copy: 2. Redirects: 2. Subscribers: 0 to import, 0 already here, 2 kept out.",
    );
    // Each post with the status it will have; the paid one a draft, with the warning; the members listed as kept out, and why.
    const items = panel.getByTestId("import-items");
    await expect(items.getByRole("row", { name: new RegExp(title) }).getByRole("cell")).toContainText(["Import", "Published", "", "2", `/${slug}`]);
    await expect(items.getByRole("row", { name: new RegExp(paidTitle) }).getByRole("cell")).toContainText([
      "Import",
      "Draft",
      "",
      "0",
      `/${paidSlug}`,
    ]);
    await expect(report).toContainText(
      `${paidTitle}: Only for paying members on the old site: imported as a draft, so it is not published to everyone.`,
    );
    const reasons = panel.getByTestId("import-subscriber-reasons");
    await expect(reasons).toContainText("Kept out: Unsubscribed on Ghost: 1");
    await expect(reasons).toContainText("Kept out: you did not confirm these people agreed to receive this newsletter: 1");
    expect(images.requests).toEqual([]);

    // With the tick, the dry run offers the member who still wanted the newsletter.
    await consent.check();
    await panel.getByRole("button", { name: "Dry Run" }).click();
    await expect(report).toContainText("Subscribers: 1 to import, 0 already here, 1 kept out.");

    await panel.getByRole("button", { name: "Import Now" }).click();
    await expect(report).toContainText(
      "Imported 2 posts, skipped 0. Images copied: 2. Redirects: 2. Subscribers: 1 imported, 0 already here, 1 kept out.",
    );
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
    // The paid post came in as a draft: not on the site.
    expect((await request.get(`/blog/${paidSlug}`)).status()).toBe(404);
  } finally {
    await images.stop();
  }
});
