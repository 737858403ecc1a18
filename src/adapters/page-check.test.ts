import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modifiedTimeIn, pageCheck } from "./page-check.ts";

// A real HTTP server on loopback stands in for the site: a page is missing until it is "built".
describe("is the post's page live? (a real GET)", () => {
  let server: Server;
  let origin: string;
  const built = new Set<string>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === "/blog/old-slug") {
        response.writeHead(301, { location: "/blog/runway-math" }).end();
        return;
      }
      const found = built.has(request.url ?? "");
      response.writeHead(found ? 200 : 404, { "content-type": "text/html" }).end(found ? "<h1>Runway math</h1>" : "<h1>Post Not Found</h1>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is not live while the page answers 404, and live once it answers 200 (after a redirect too)", async () => {
    const check = pageCheck();
    expect(await check(`${origin}/blog/runway-math`)).toEqual({ live: false, answer: "404" });
    built.add("/blog/runway-math");
    expect(await check(`${origin}/blog/runway-math`)).toEqual({ live: true, answer: "200" });
    expect(await check(`${origin}/blog/old-slug`)).toEqual({ live: true, answer: "200" });
  });

  it("is not live, and says why, when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await pageCheck({ timeoutMs: 2000 })(`http://127.0.0.1:${String(port)}/blog/runway-math`);
    expect(answer.live).toBe(false);
    expect(answer.answer).toMatch(/^no answer \(.+\)$/);
  });
});

describe("a page's modified time (what WebSub waits for)", () => {
  it("reads article:modified_time from the head, whatever the attribute order and quotes", () => {
    expect(modifiedTimeIn('<meta property="article:modified_time" content="2026-11-27T09:00:00.000Z" />')).toBe("2026-11-27T09:00:00.000Z");
    expect(modifiedTimeIn("<meta content='2026-11-27T09:00:00.000Z' property='article:modified_time'>")).toBe("2026-11-27T09:00:00.000Z");
    expect(modifiedTimeIn('<meta property="article:published_time" content="2026-11-27T09:00:00.000Z" />')).toBeUndefined();
  });
});
