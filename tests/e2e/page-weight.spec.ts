import { expect, test } from "@playwright/test";
import { measurePage } from "../bench/page-weight.ts";

// Byte budgets are deterministic, so they are asserted here (speed budgets belong in a benchmark).
const kb = 1024;

test("public pages stay inside their JavaScript budgets, and the admin bundle never loads there", async ({ request }) => {
  const fetchText = async (path: string) => {
    const response = await request.get(path);
    expect(response.ok(), path).toBe(true);
    return response.text();
  };
  for (const path of ["/", "/blog", "/blog/1", "/downloads"]) {
    const weight = await measurePage(fetchText, path);
    // Before interaction only the island loader runs: React arrives with the first island.
    expect(weight.jsBeforeInteraction, `${path}: ${weight.eagerScripts.join(", ")}`).toBeLessThanOrEqual(2 * kb);
    // An upper bound: it counts every island chunk the loader could fetch, not only this page's.
    // (Issue 6 tightens this to 80 KB per page and 60 KB for a post.)
    expect(weight.jsTotal, `${path}: JS in total`).toBeLessThanOrEqual(90 * kb);
    if (path === "/blog") expect(weight.jsTotal, "the blog list ships no JavaScript").toBe(0);
    const html = await fetchText(path);
    expect(html, path).not.toMatch(/islands\/admin|AdminApp/);
  }
});
