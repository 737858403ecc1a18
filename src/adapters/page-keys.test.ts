import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changedPaths, deferredMarker, pageKey, readKeys, renderNow, writeKeys } from "./page-keys.ts";

const post = (id: number, title: string) => ({ id, slug: `post-${String(id)}`, title, content: `<p>${title}</p>` });

describe("page keys", () => {
  it("change with what a page shows, a post on it, or what every page shares", () => {
    const first = post(1, "One");
    const page = { number: 2, posts: [first, post(2, "Two")] };
    const key = pageKey("shared", page);
    expect(pageKey("shared", { number: 2, posts: [post(1, "One"), post(2, "Two")] })).toBe(key);
    expect(pageKey("shared", { number: 2, posts: [post(1, "One!"), post(2, "Two")] })).not.toBe(key);
    expect(pageKey("shared", { number: 3, posts: page.posts })).not.toBe(key);
    expect(pageKey("other", page)).not.toBe(key);
  });

  it("render the changed and new pages; a first pass only the first changed pages of each list", () => {
    const changed = changedPaths({ "/a": "1", "/b": "2", "/c": "3" }, { "/a": "1", "/b": "x" });
    expect([...changed]).toEqual(["/b", "/c"]);
    expect([...changedPaths({ "/a": "1" }, undefined)]).toEqual(["/a"]);
    const order = ["/blog/page/2", "/blog/page/3", "/blog/page/4", "/blog/tag/x/page/2", "/blog/tag/x/page/3"];
    expect([...renderNow(new Set(order), order, 2)]).toEqual(["/blog/page/2", "/blog/page/3", "/blog/tag/x/page/2", "/blog/tag/x/page/3"]);
    expect([...renderNow(new Set(order), order, undefined)]).toEqual(order);
  });
});

describe("page keys on disk", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "nf-page-keys-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keep a page left for the next pass at its old key, a new one pending, and count them", async () => {
    writeKeys(
      dir,
      "blog-page",
      { "/blog/page/2": "new2", "/blog/page/3": "new3", "/blog/page/4": "new4" },
      { "/blog/page/2": "old2", "/blog/page/3": "old3" },
      new Set(["/blog/page/2"]),
    );
    expect(readKeys(dir, "blog-page")).toEqual({ "/blog/page/2": "new2", "/blog/page/3": "old3", "/blog/page/4": "pending" });
    expect(await readFile(path.join(dir, deferredMarker), "utf8")).toBe("2\n");
    expect(readKeys(dir, "never-built")).toEqual({});
    expect(readKeys(undefined, "blog-page")).toBeUndefined();
  });
});
