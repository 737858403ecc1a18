import { describe, expect, it } from "vitest";
import { wpautop } from "./wpautop.ts";

describe("wpautop (paragraphs as WordPress makes them)", () => {
  it("makes a paragraph of each block of text and a <br /> of a single line break", () => {
    expect(wpautop("One\ntwo\n\nThree")).toBe("<p>One<br />\ntwo</p>\n<p>Three</p>");
  });

  it("leaves block elements unwrapped and keeps <pre> as it is", () => {
    expect(wpautop("Intro\n<ul>\n<li>A</li>\n</ul>\n<pre>a\n\nb</pre>")).toBe("<p>Intro</p>\n<ul>\n<li>A</li>\n</ul>\n<pre>a\n\nb</pre>");
  });

  it("gives nothing for blank text", () => {
    expect(wpautop(" \n\n ")).toBe("");
  });
});
