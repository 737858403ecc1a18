import { expect, test, type Page } from "@playwright/test";
import { eventually, logIn } from "./admin.ts";
import { axeViolations } from "./axe.ts";

// Issue 30: site search from the built pages (Pagefind), opened from the header.
const runId = String(Date.now()).slice(-7);
// Words no demo post or resource has, unique to this run.
const bodyWord = `zanzibarite${runId}`;
const draftWord = `quokkafied${runId}`;
const searchCode = /pagefind|search-dialog/;

const dialog = (page: Page) => page.getByRole("dialog", { name: "Search No Filter" });
const searchField = (page: Page) => dialog(page).getByRole("searchbox", { name: "Search posts and resources" });
const results = (page: Page) => dialog(page).getByRole("listitem");

async function createPost(page: Page, fields: { title: string; content: string; published: boolean }) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post("/api/blog-posts", {
    headers: { origin },
    multipart: { title: fields.title, content: fields.content, published: String(fields.published), excerpt: "", category: "Funding" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; url: string };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await logIn(page);
  const published = await createPost(page, {
    title: `The runway talk ${runId}`,
    content: `<p>We stretched the runway with a ${bodyWord} habit nobody wanted to hear about.</p>`,
    published: true,
  });
  await createPost(page, { title: `Unfinished ${runId}`, content: `<p>Not for readers yet: ${draftWord}.</p>`, published: false });
  // The index is written by the same build as the pages: once the post is live, it is searchable.
  await eventually(page.request, published.url, (html, status) => status === 200 && html.includes(bodyWord));
  await page.close();
});

test("search from the home page by keyboard finds a post by a word only in its body; a draft's word finds nothing", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto("/");
  await page.waitForLoadState("load");
  expect(
    fetched.filter((path) => searchCode.test(path)),
    "no search code before the search opens",
  ).toEqual([]);
  const trigger = page.getByRole("button", { name: "Search" });
  await expect(trigger).toHaveAttribute("aria-haspopup", "dialog");

  await page.keyboard.press("/");
  await expect(dialog(page)).toBeVisible();
  await expect(searchField(page)).toBeFocused();
  await page.keyboard.type(bodyWord);
  await expect(results(page)).toHaveCount(1);
  const hit = results(page).first().getByRole("link");
  await expect(hit).toContainText(`The runway talk ${runId}`);
  await expect(hit).toContainText("Post");
  await expect(hit.locator("mark")).toHaveText(bodyWord);
  await expect(dialog(page).getByRole("status")).toHaveText(`1 result for “${bodyWord}”.`);

  await searchField(page).fill(draftWord);
  await expect(dialog(page).getByRole("status")).toHaveText(`No results for “${draftWord}”.`);
  await expect(results(page)).toHaveCount(0);

  // Escape closes and gives focus back to the page; Ctrl+K opens again; Enter follows the first result.
  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await page.keyboard.press("Control+k");
  await expect(searchField(page)).toBeFocused();
  await searchField(page).fill(bodyWord);
  await expect(results(page)).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: `The runway talk ${runId}` })).toBeVisible();
});

test("search by click finds a resource by its description and a post by its body; Escape gives focus back to the button; axe finds nothing on the open dialog", async ({
  page,
}) => {
  await page.goto("/");
  const trigger = page.getByRole("button", { name: "Search" });
  await trigger.click();
  await searchField(page).fill("brackets");
  const hit = results(page).filter({ hasText: "Resource" }).first().getByRole("link");
  await expect(hit.locator("mark")).toHaveText(/brackets/i);
  expect(new URL((await hit.getAttribute("href")) ?? "", "http://x").pathname).toBe("/downloads");
  await searchField(page).fill(bodyWord);
  await expect(results(page)).toHaveCount(1);
  await expect(results(page).first()).toContainText(`The runway talk ${runId}`);

  expect(await axeViolations(page, { include: ["dialog[data-search-dialog]"], impact: "any" })).toEqual([]);

  await page.keyboard.press("Escape");
  await expect(dialog(page)).toBeHidden();
  await expect(trigger).toBeFocused();
});

test("on a phone the search opens full width and stays on the screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/downloads");
  await page.getByRole("button", { name: "Search" }).click();
  await searchField(page).fill("runway");
  await expect(results(page).first()).toBeVisible();
  const box = await dialog(page).boundingBox();
  expect(box?.x).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the search button is a link to the blog list", async ({ page }) => {
    await page.goto("/");
    const link = page.getByRole("link", { name: "Search" });
    await expect(link).toHaveAttribute("href", "/blog");
  });
});
