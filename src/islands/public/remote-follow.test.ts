import { describe, expect, it } from "vitest";
import { interactionUrl, serverFromInput } from "./remote-follow.ts";

describe("the follow box's own server", () => {
  it("takes the server from a domain, an address or a handle", () => {
    expect(serverFromInput("mastodon.social")).toBe("mastodon.social");
    expect(serverFromInput("  Mastodon.Social ")).toBe("mastodon.social");
    expect(serverFromInput("https://fosstodon.org/@someone")).toBe("fosstodon.org");
    expect(serverFromInput("@me@hachyderm.io")).toBe("hachyderm.io");
    expect(serverFromInput("me@social.example.co.uk")).toBe("social.example.co.uk");
    expect(serverFromInput("localhost:9121")).toBe("localhost:9121");
  });

  it("refuses what is not a server", () => {
    for (const input of ["", "   ", "mastodon", "not a server", "@me", "javascript:alert(1)", "ftp://x.example", "-bad-.example"]) {
      expect(serverFromInput(input), input).toBeNull();
    }
  });

  it("opens the handle on the reader's server, https but on this machine", () => {
    expect(interactionUrl("mastodon.social", "@nofilter@blog.example")).toBe(
      "https://mastodon.social/authorize_interaction?uri=nofilter%40blog.example",
    );
    expect(interactionUrl("localhost:9121", "@nofilter@localhost:9122")).toBe(
      "http://localhost:9121/authorize_interaction?uri=nofilter%40localhost%3A9122",
    );
  });
});
