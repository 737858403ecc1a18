import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";

describe("pages beside /blog/{id}", () => {
  it("have names no post id can take, so every post gets its page", async () => {
    // A page at src/pages/blog/404.astro once took the route of post 404: Astro gives a static
    // page priority over `[id]`, and the build skipped that post with only a warning.
    const pages = await readdir(new URL("../../src/pages/blog/", import.meta.url));
    const named = pages.filter((file) => file !== "[id].astro").map((file) => file.replace(/\.\w+$/, ""));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => /^\d+$/.test(name))).toEqual([]);
  });
});
