import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { apiReferencePath } from "../../netlify/local/api-reference.ts";
import { e2eStateDir } from "./local-server.ts";

test("npm start shows a readable reference of the API, from the same OpenAPI document", async ({ page, request }) => {
  const document = (await (await request.get("/api/openapi.json")).json()) as { info: { title: string } };
  await page.goto(apiReferencePath);
  await expect(page.getByRole("heading", { name: document.info.title }).first()).toBeVisible({ timeout: 20_000 });
  // Operations by their summaries, and every resource as a group of its own.
  await expect(page.getByRole("heading", { name: "Proves the API can reach its database" })).toBeVisible();
  for (const group of ["auth", "blogPosts", "downloads", "files", "siteSettings", "newsletter"]) {
    await expect(page.getByRole("heading", { name: new RegExp(`^${group}\\b`) })).toBeVisible();
  }
  // An API key is what the reference tries calls with (its bearer scheme is the one chosen).
  await expect(page.getByText("An API key made in the dashboard (Integrations)").first()).toBeVisible();
});

test("the API reference is not part of the built site: no built file is it, holds it or links to it", async ({ request }) => {
  // What builds the reference page, seen in the page npm start serves.
  const builder = "Scalar.createApiReference";
  expect(await (await request.get(apiReferencePath)).text()).toContain(builder);

  // The site `npm start` serves, as built for Netlify (netlify/local/start.ts: <LOCAL_STATE_DIR>/dist).
  const builtSite = path.join(e2eStateDir(), "dist");
  const files = (await readdir(builtSite, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(["index.html", "404.html", "sitemap-0.xml"]));
  const holding: string[] = [];
  for (const file of files) {
    const where = path.relative(builtSite, path.join(file.parentPath, file.name));
    const content = await readFile(path.join(file.parentPath, file.name), "latin1");
    if (where.includes("api-reference") || content.includes(apiReferencePath) || content.includes(builder)) holding.push(where);
  }
  expect(holding).toEqual([]);
  expect((await request.get(`${apiReferencePath}/missing`)).status()).toBe(404);
});
