import { describe, expect, it } from "vitest";
import { activityAlternatePath, siteHandle } from "./site-fediverse.ts";

describe("the site on the social web, as pages show it", () => {
  it("writes the handle at the site's host, the default handle when the setting is empty", () => {
    expect(siteHandle("founders", new URL("https://blog.example/"))).toBe("@founders@blog.example");
    expect(siteHandle("", new URL("http://localhost:9121"))).toBe("@nofilter@localhost:9121");
    expect(siteHandle(undefined, undefined)).toBe("@nofilter@localhost:8888");
  });

  it("names a post's Article on its page and the actor elsewhere", () => {
    expect(activityAlternatePath(42)).toBe("/fediverse/posts/42");
    expect(activityAlternatePath()).toBe("/fediverse/actor");
  });
});
