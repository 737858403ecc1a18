import { describe, expect, it } from "vitest";
import type { Post } from "../core/posts/post.schema.ts";
import type { Tag } from "../core/posts/tag.schema.ts";
import { blogListPages, categoryPath, listPagePath, postTagLinks, postsByCategory, postsByTag, postsPerPage, tagPath } from "./blog-pages.ts";

const posts = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: index + 1, category: index % 2 === 0 ? "Cash Flow" : null }) as unknown as Post);
const ids = (list: Post[]) => list.map((post) => post.id);

describe("blogListPages", () => {
  it("gives an empty list one page, with no Previous or Next", () => {
    expect(blogListPages([], "/blog")).toEqual([{ posts: [], number: 1, count: 1, path: "/blog", previous: undefined, next: undefined }]);
  });

  it("puts one post on one page", () => {
    const [only, ...rest] = blogListPages(posts(1), "/blog");
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ number: 1, count: 1, next: undefined });
    expect(ids(only?.posts ?? [])).toEqual([1]);
  });

  it("keeps exactly a page's worth on one page, and the next post starts page 2", () => {
    expect(blogListPages(posts(postsPerPage), "/blog")).toHaveLength(1);
    const [first, second] = blogListPages(posts(postsPerPage + 1), "/blog");
    expect(first).toMatchObject({ path: "/blog", previous: undefined, next: "/blog/page/2", count: 2 });
    expect(second).toMatchObject({ path: "/blog/page/2", previous: "/blog", next: undefined });
    expect(ids(second?.posts ?? [])).toEqual([postsPerPage + 1]);
  });

  it("links each middle page both ways, in order, with no post twice", () => {
    const pages = blogListPages(posts(1000), "/blog/category/cash-flow");
    expect(pages).toHaveLength(Math.ceil(1000 / postsPerPage));
    expect(pages[4]).toMatchObject({
      number: 5,
      path: "/blog/category/cash-flow/page/5",
      previous: "/blog/category/cash-flow/page/4",
      next: "/blog/category/cash-flow/page/6",
    });
    expect(pages.flatMap((page) => ids(page.posts))).toEqual(ids(posts(1000)));
    expect(Math.max(...pages.map((page) => page.posts.length))).toBe(postsPerPage);
  });
});

describe("paths", () => {
  it("put page 1 at the list itself and the rest under /page/N", () => {
    expect(listPagePath("/blog", 1)).toBe("/blog");
    expect(listPagePath("/blog", 2)).toBe("/blog/page/2");
  });

  it("name a category by its slug", () => {
    expect(categoryPath("Cash Flow")).toBe("/blog/category/cash-flow");
  });
});

it("lists every category, with its own posts only", () => {
  const grouped = postsByCategory(posts(5));
  expect(grouped.map((group) => group.category)).toEqual(["Entrepreneurship", "Cash Flow", "Networking", "Mindset", "Funding"]);
  expect(ids(grouped.find((group) => group.category === "Cash Flow")?.posts ?? [])).toEqual([1, 3, 5]);
});

describe("tags' lists", () => {
  const tag = (slug: string, name: string): Tag => ({ slug, name, description: null, topic: false, postCount: 0 });
  const tags = [tag("hiring", "Hiring"), tag("pricing", "Pricing"), tag("unused", "Unused")];
  const tagged = [
    { id: 1, tags: ["pricing", "hiring"] },
    { id: 2, tags: [] },
    { id: 3, tags: ["pricing"] },
  ] as unknown as Post[];

  it("gives each tag a published post carries its list, in list order; a tag without one has none", () => {
    expect(postsByTag(tagged, tags).map(({ tag: { slug }, posts: list }) => [slug, ids(list)])).toEqual([
      ["hiring", [1]],
      ["pricing", [1, 3]],
    ]);
    expect(tagPath("pricing")).toBe("/blog/tag/pricing");
    expect(blogListPages(posts(postsPerPage + 1), tagPath("pricing"))[1]?.path).toBe("/blog/tag/pricing/page/2");
  });

  it("names a post's tags in its order, each linking to its list", () => {
    expect(postTagLinks({ tags: ["pricing", "hiring", "gone"] }, tags)).toEqual([
      { name: "Pricing", path: "/blog/tag/pricing" },
      { name: "Hiring", path: "/blog/tag/hiring" },
    ]);
  });
});
