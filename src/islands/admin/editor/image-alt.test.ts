import { describe, expect, it } from "vitest";
import { undescribedImages } from "./image-alt.ts";

describe("undescribedImages", () => {
  it("counts the images with no alt attribute; words and the decorative empty alt both count as described", () => {
    const html = [
      `<p>Text</p>`,
      `<img src="/api/files/images/a.png">`,
      `<img src="/api/files/images/b.png" alt="A chart of runway">`,
      `<img src="/api/files/images/c.png" alt="">`,
      `<img alt='' src="/api/files/images/d.png">`,
      `<IMG SRC="/api/files/images/e.png" />`,
    ].join("");
    expect(undescribedImages(html)).toBe(2);
  });

  it("finds none in a post without images, or where a word merely contains alt", () => {
    expect(undescribedImages("<p>alt= is not an image</p>")).toBe(0);
    expect(undescribedImages(`<img src="/x.png" data-salt="1">`)).toBe(1);
  });
});
