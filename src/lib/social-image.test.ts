import { describe, expect, it } from "vitest";
import type { Post } from "../core/posts/post.schema.ts";
import { shareImageKey } from "../core/share-images/share-image.ts";
import { postShareImage, shareImageInput, shareImagePath, socialImage, twitterHandle } from "./social-image.ts";

const absolute = (path: string) => new URL(path, "https://nofilter.example").href;

describe("share image", () => {
  it("sends a stored cover as its 1200×630 JPEG card, with its stored alt text", () => {
    expect(socialImage("/api/files/images/abc_1600x900.png", "A founder at a whiteboard", "Title", absolute)).toEqual({
      url: "https://nofilter.example/.netlify/images?url=%2Fapi%2Ffiles%2Fimages%2Fabc_1600x900.png&w=1200&h=630&fit=cover&fm=jpg",
      width: 1200,
      height: 630,
      type: "image/jpeg",
      alt: "A founder at a whiteboard",
    });
  });

  it("names a decorative or undescribed cover by the page's title, and falls back to the brand's PNG card", () => {
    expect(socialImage("/api/files/images/abc_1600x900.png", "", "Post — No Filter", absolute).alt).toBe("Post — No Filter");
    expect(socialImage("/api/files/images/abc_1600x900.png", null, "Post — No Filter", absolute).alt).toBe("Post — No Filter");
    expect(socialImage(null, null, "Blog — No Filter", absolute)).toEqual({
      url: "https://nofilter.example/og-default.png",
      width: 1200,
      height: 630,
      type: "image/png",
      alt: "No Filter: Wins. Fails. Funding.",
    });
  });

  it("shares a post's generated image when it has no cover, or always by the share_image setting, as a 1200×630 PNG", () => {
    const post = {
      slug: "cash-is-a-habit",
      title: "Cash is a habit",
      category: "Cash Flow",
      featuredImage: null,
      featuredImageAlt: null,
      featuredImageFocus: null,
    } as Post;
    const path = `/share/cash-is-a-habit-${shareImageKey(shareImageInput(post)).slice(0, 16)}.png`;
    expect(shareImagePath(post)).toBe(path);
    expect(postShareImage(post, { share_image: "cover" })).toEqual({ image: path, alt: "Cash is a habit (Cash Flow): No Filter" });
    expect(socialImage(path, "Cash is a habit (Cash Flow): No Filter", "Cash is a habit — No Filter", absolute)).toEqual({
      url: `https://nofilter.example${path}`,
      width: 1200,
      height: 630,
      type: "image/png",
      alt: "Cash is a habit (Cash Flow): No Filter",
    });
    const covered = { ...post, featuredImage: "/api/files/images/abc_1600x900.png", featuredImageAlt: "A ledger" } as Post;
    expect(postShareImage(covered, { share_image: "cover" })).toEqual({ image: "/api/files/images/abc_1600x900.png", alt: "A ledger" });
    expect(postShareImage(covered, { share_image: "generated" }).image).toBe(shareImagePath(covered));
    // A changed title is a new address: no scraper keeps the old picture under it.
    expect(shareImagePath({ ...post, title: "Cash is a discipline" })).not.toBe(path);
  });

  it("reads the X handle for twitter:site from the profile link, and none from anything else", () => {
    expect(twitterHandle("https://x.com/nofilter")).toBe("@nofilter");
    expect(twitterHandle("https://twitter.com/@No_Filter/")).toBe("@No_Filter");
    expect(twitterHandle("https://www.x.com/nofilter")).toBe("@nofilter");
    expect(twitterHandle("https://x.com/nofilter/status/1")).toBeUndefined();
    expect(twitterHandle("https://example.com/nofilter")).toBeUndefined();
    expect(twitterHandle("")).toBeUndefined();
  });
});
