import { describe, expect, it } from "vitest";
import { deviceOf, isBotAgent, normalLabel, normalPath, pageViewDimensions } from "./page-view.ts";
import { addDays, dayIn } from "./stats-days.ts";

const site = ["nofilter.example"];

describe("page view dimensions", () => {
  it("takes utm_source over the referrer, keeps medium and campaign, lower-cased", () => {
    const url = new URL("https://nofilter.example/blog/x/?utm_source=LinkedIn&utm_medium=Social&utm_campaign=Spring%20Launch&id=7");
    expect(pageViewDimensions(url, "https://www.google.com/", site)).toEqual({
      path: "/blog/x",
      source: "linkedin",
      utmMedium: "social",
      utmCampaign: "spring launch",
    });
  });

  it("names a referrer by its site without www., and none for the site itself or a non-web referrer", () => {
    const url = new URL("https://nofilter.example/");
    expect(pageViewDimensions(url, "https://www.Reddit.com/r/startups/comments/1", site).source).toBe("reddit.com");
    expect(pageViewDimensions(url, "https://www.nofilter.example/blog", site).source).toBe("");
    expect(pageViewDimensions(url, "android-app://com.slack/", site).source).toBe("");
    expect(pageViewDimensions(url, "not a url", site).source).toBe("");
  });

  it("keeps a decoded path without query or trailing slash", () => {
    expect(normalPath("/blog/caf%C3%A9/")).toBe("/blog/café");
    expect(normalPath("/")).toBe("/");
    expect(normalPath("/%E0%A4%A")).toBe("/%E0%A4%A");
  });

  it("sorts user agents into phone, tablet and desktop, and knows bots", () => {
    expect(deviceOf("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36")).toBe(
      "phone",
    );
    expect(
      deviceOf("Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"),
    ).toBe("tablet");
    expect(deviceOf("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe("desktop");
    expect(isBotAgent("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")).toBe(true);
    expect(isBotAgent("curl/8.5.0")).toBe(true);
    expect(isBotAgent("")).toBe(true);
    expect(isBotAgent("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(false);
  });

  it("counts days in the site's time zone", () => {
    const at = new Date("2026-03-10T23:30:00Z");
    expect(dayIn("UTC", at)).toBe("2026-03-10");
    expect(dayIn("Europe/Paris", at)).toBe("2026-03-11");
    expect(dayIn("America/Los_Angeles", new Date("2026-03-11T06:00:00Z"))).toBe("2026-03-10");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
  });
});

describe("source labels", () => {
  it("are normalised (NFKC, lower case, no invisible characters, one space), capped at 60, and never an email address", () => {
    const source = (value: string) =>
      pageViewDimensions(new URL(`https://nofilter.example/?utm_source=${encodeURIComponent(value)}`), "", site).source;
    expect(source("  Ｌｉｎｋｅｄ\u200bIn\t\n ")).toBe("linkedin");
    expect(source("Product   Hunt")).toBe("product hunt");
    expect(source("www.Reddit.com")).toBe("reddit.com");
    expect(source("x".repeat(500))).toBe("x".repeat(60));
    expect(source("jane.doe@example.com")).toBe("");
    expect(source("mailto:jane%40example.com")).toBe("");
    expect(pageViewDimensions(new URL("https://nofilter.example/?utm_source=jane@example.com"), "https://news.example/", site).source).toBe(
      "news.example",
    );
    expect(normalLabel("Spring\u0000 Launch")).toBe("spring launch");
  });
});
