import { describe, expect, it } from "vitest";
import { createLocalHub, websubHubJsonPath, websubHubPath } from "./websub-hub.ts";

const ping =
  (body: string, type = "application/x-www-form-urlencoded") =>
  () =>
    new Request(`http://localhost${websubHubPath}`, { method: "POST", headers: { "content-type": type, "user-agent": "NoFilter-WebSub/1" }, body });

describe("the local WebSub hub", () => {
  it("records a publisher ping (204) and lists it on its page and as JSON, newest first", async () => {
    const hub = createLocalHub({ now: () => new Date("2026-11-27T09:00:00Z") });
    const empty = await hub.answer(websubHubPath, "GET", ping(""));
    expect(await empty?.text()).toContain("No ping yet");

    const body = "hub.mode=publish&hub.url=http%3A%2F%2Flocalhost%3A8888%2Frss.xml&hub.url=http%3A%2F%2Flocalhost%3A8888%2Ffeed.json";
    expect((await hub.answer(websubHubPath, "POST", ping(body)))?.status).toBe(204);
    const second = "hub.mode=publish&hub.url=http%3A%2F%2Flocalhost%3A8888%2Fatom.xml";
    expect((await hub.answer(websubHubPath, "POST", ping(second)))?.status).toBe(204);

    const page = await hub.answer(websubHubPath, "GET", ping(""));
    expect(page?.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = (await page?.text()) ?? "";
    expect(html).toContain("2 pings, newest first");
    expect(html.indexOf("atom.xml")).toBeLessThan(html.indexOf("rss.xml"));
    expect(html).toContain('<a href="http://localhost:8888/feed.json">');

    const json = (await (await hub.answer(websubHubJsonPath, "GET", ping("")))?.json()) as { urls: string[]; userAgent: string }[];
    expect(json.map((entry) => entry.urls)).toEqual([
      ["http://localhost:8888/atom.xml"],
      ["http://localhost:8888/rss.xml", "http://localhost:8888/feed.json"],
    ]);
    expect(json[0]?.userAgent).toBe("NoFilter-WebSub/1");
  });

  it("refuses what is not a publisher ping, and answers nothing for other paths", async () => {
    const hub = createLocalHub();
    expect((await hub.answer(websubHubPath, "POST", ping("hub.mode=subscribe&hub.topic=x")))?.status).toBe(400);
    expect((await hub.answer(websubHubPath, "POST", ping("hub.mode=publish")))?.status).toBe(400);
    expect((await hub.answer(websubHubPath, "POST", ping('{"hub.mode":"publish"}', "application/json")))?.status).toBe(400);
    expect((await hub.answer(websubHubJsonPath, "POST", ping("")))?.status).toBe(405);
    expect(await hub.answer("/rss.xml", "GET", ping(""))).toBeUndefined();
    expect(hub.pings()).toEqual([]);
  });
});
