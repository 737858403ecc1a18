import { expect, test } from "@playwright/test";

test("npm start shows a readable reference of the API, from the same OpenAPI document", async ({ page, request }) => {
  const document = (await (await request.get("/api/openapi.json")).json()) as { info: { title: string } };
  await page.goto("/.netlify/local/api-reference");
  await expect(page.getByRole("heading", { name: document.info.title }).first()).toBeVisible({ timeout: 20_000 });
  // Operations by their summaries, and every resource as a group of its own.
  await expect(page.getByRole("heading", { name: "Proves the API can reach its database" })).toBeVisible();
  for (const group of ["auth", "blogPosts", "downloads", "files", "siteSettings", "newsletter"]) {
    await expect(page.getByRole("heading", { name: new RegExp(`^${group}\\b`) })).toBeVisible();
  }
});

test("the API reference is not part of the built site", async ({ request }) => {
  const home = await (await request.get("/")).text();
  expect(home).not.toContain("api-reference");
  expect((await request.get("/.netlify/local/api-reference/missing")).status()).toBe(404);
});
