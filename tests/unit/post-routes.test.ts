import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { reservedSlugs, slugSchema } from "../../src/core/posts/post-slug-rules.ts";

describe("pages beside /blog/{slug}", () => {
  it("have names no post slug can take, so every post gets its page", async () => {
    // A page at src/pages/blog/404.astro once took the route of post 404: Astro gives a static
    // page priority over a parameter, and the build skipped that post with only a warning.
    const pages = await readdir(new URL("../../src/pages/blog/", import.meta.url));
    const named = pages.filter((file) => file !== "[slug].astro" && file !== "index.astro").map((file) => file.replace(/\.\w+$/, ""));
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) {
      expect(reservedSlugs, name).toContain(name);
      expect(slugSchema.safeParse(name).success, name).toBe(false);
    }
  });
});
