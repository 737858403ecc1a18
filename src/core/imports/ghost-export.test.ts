import { describe, expect, it } from "vitest";
import { readGhostExport } from "./ghost-export.ts";

const exportOf = (data: unknown) => new TextEncoder().encode(JSON.stringify({ db: [{ meta: {}, data }] }));

describe("readGhostExport: the feature image's alt text", () => {
  it("carries Ghost's posts_meta alt, or the post's own, and leaves none as not described (null)", () => {
    const { items } = readGhostExport(
      exportOf({
        posts: [
          { id: "1", title: "Described", html: "<p>a</p>", status: "published", feature_image: "https://old.example/a.png" },
          {
            id: "2",
            title: "Older Ghost",
            html: "<p>b</p>",
            status: "draft",
            feature_image: "https://old.example/b.png",
            feature_image_alt: " A chart ",
          },
          { id: "3", title: "Undescribed", html: "<p>c</p>", status: "draft", feature_image: "https://old.example/c.png" },
        ],
        posts_meta: [
          { post_id: "1", feature_image_alt: "The first ten customers, on a whiteboard" },
          { post_id: "3", feature_image_alt: "" },
        ],
      }),
    );
    expect(items.map((post) => ("featureImageAlt" in post ? post.featureImageAlt : undefined))).toEqual([
      "The first ten customers, on a whiteboard",
      "A chart",
      null,
    ]);
  });
});

describe("readGhostExport: the email subject", () => {
  it("carries the newsletter subject Ghost keeps in posts_meta, on one line; none is the title's (null)", () => {
    const { items } = readGhostExport(
      exportOf({
        posts: [
          { id: "1", title: "Runway", html: "<p>a</p>", status: "published" },
          { id: "2", title: "Hiring", html: "<p>b</p>", status: "published" },
          { id: "3", title: "Pricing", html: "<p>c</p>", status: "draft" },
        ],
        posts_meta: [
          { post_id: "1", email_subject: " How many months\nare left? " },
          { post_id: "2", email_subject: null },
        ],
      }),
    );
    expect(items.map((post) => ("emailSubject" in post ? post.emailSubject : undefined))).toEqual(["How many months are left?", null, null]);
  });
});

describe("readGhostExport: tags", () => {
  it("brings each post's tags in Ghost's order, leaving out Ghost's internal #tags", () => {
    const { items } = readGhostExport(
      exportOf({
        posts: [{ id: "1", title: "Runway", html: "<p>a</p>", status: "published" }],
        tags: [
          { id: "t1", name: "Funding" },
          { id: "t2", name: "#hidden" },
          { id: "t3", name: "Seed rounds" },
        ],
        posts_tags: [
          { post_id: "1", tag_id: "t3", sort_order: 1 },
          { post_id: "1", tag_id: "t2", sort_order: 2 },
          { post_id: "1", tag_id: "t1", sort_order: 0 },
        ],
      }),
    );
    expect(items.map((post) => ("postTags" in post ? post.postTags : undefined))).toEqual([["Funding", "Seed rounds"]]);
  });
});
