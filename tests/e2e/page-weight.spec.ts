import { expect, test } from "@playwright/test";
import { measurePage } from "../bench/page-weight.ts";

// Byte budgets are deterministic, so they are asserted here (speed budgets belong in a benchmark).
// Budgets: a post at most 60 KB gzip in all, no page over 80 KB of JS (why, and why here:
// docs/decisions/0004-performance-targets-and-benchmark.md); the README's Performance
// section has the figures behind each budget.
const kb = 1024;

test("public pages stay inside their byte budgets, and the admin bundle never loads there", async ({ request }) => {
  const fetchText = async (path: string) => {
    const response = await request.get(path);
    expect(response.ok(), path).toBe(true);
    return response.text();
  };
  for (const path of ["/", "/blog", "/blog/1", "/downloads"]) {
    const weight = await measurePage(fetchText, path);
    const scripts = weight.allScripts.join(", ");
    // Before interaction only the island loader runs (with Vite's preload helper; an external
    // script, as the CSP refuses inline ones); every island waits until visible or idle.
    expect(weight.jsBeforeInteraction, `${path}: ${weight.eagerScripts.join(", ")}`).toBeLessThanOrEqual(2.5 * kb);
    expect(weight.jsTotal, `${path}: JS in total (${scripts})`).toBeLessThanOrEqual(80 * kb);
    expect(weight.allScripts.join(" "), `${path} loads the admin bundle`).not.toMatch(/AdminApp|AdminLayout|islands\/admin|_astro\/admin\//);
    const html = await fetchText(path);
    expect(html, path).not.toMatch(/islands\/admin|AdminApp|_astro\/admin\//);
  }

  const blog = await measurePage(fetchText, "/blog");
  expect(blog.jsTotal, "the blog list ships no JavaScript").toBe(0);

  // A post's islands (Share, the newsletter form, the toasts) are plain DOM code: no React.
  const post = await measurePage(fetchText, "/blog/1");
  expect(post.allScripts.join(" "), "a post loads no React").not.toMatch(/\/(react|react-dom|client|jsx-runtime)\.[\w-]+\.js/);
  expect(post.jsTotal, `a post's JS in total (${post.allScripts.join(", ")})`).toBeLessThanOrEqual(8 * kb);
  expect(post.html + post.css + post.jsTotal, "a post in total (HTML, CSS, JS)").toBeLessThanOrEqual(60 * kb);
});
