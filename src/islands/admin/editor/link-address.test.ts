import { describe, expect, it } from "vitest";
import { linkAddress, linkSchemeMessage } from "./link-address.ts";

describe("the editor's link address", () => {
  it("adds the default protocol (http) to a bare domain", () => {
    expect(linkAddress("example.com/runway")).toEqual({ href: "http://example.com/runway" });
    expect(linkAddress("example.com:8080/x")).toEqual({ href: "http://example.com:8080/x" });
  });

  it("keeps SPEC §5's schemes and site paths as they are", () => {
    for (const href of [
      "https://a.example",
      "ftp://files.example/x",
      "mailto:me@example.com",
      "tel:+15551234",
      "xmpp:me@example.com",
      "/blog/1",
      "#about",
    ]) {
      expect(linkAddress(href)).toEqual({ href });
    }
  });

  it("refuses any other scheme, a protocol-relative address and an empty one", () => {
    for (const href of ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x", "vbscript:x", "//evil.example/x"]) {
      expect(linkAddress(href)).toEqual({ error: linkSchemeMessage });
    }
    expect(linkAddress("  ")).toEqual({ error: "Please enter a URL." });
  });
});
