import { expect, test } from "@playwright/test";

test("npm start shows a readable reference of the API, from the same OpenAPI document", async ({ page, request }) => {
  const document = (await (await request.get("/api/openapi.json")).json()) as { info: { title: string } };
  await page.goto("/.netlify/local/api-reference");
  await expect(page.getByRole("heading", { name: document.info.title }).first()).toBeVisible({ timeout: 20_000 });
  // Every resource is listed with its operations, e.g. the newsletter's signup.
  await expect(page.getByRole("listitem").filter({ hasText: "post /api/newsletter/subscribe" }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Proves the API can reach its database" })).toBeVisible();
});

test("the API reference is not part of the built site", async ({ request }) => {
  const home = await (await request.get("/")).text();
  expect(home).not.toContain("api-reference");
  expect((await request.get("/.netlify/local/api-reference/missing")).status()).toBe(404);
});
