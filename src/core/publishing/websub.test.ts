import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pageCheck } from "../../adapters/page-check.ts";
import { backgroundJobs, runBackgroundJob } from "../../app/background-jobs.ts";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { feedFormats } from "../feeds/feeds.ts";
import type { PostForm } from "../posts/post.schema.ts";
import { createPost, deletePost, publishDuePosts, updatePost } from "../posts/posts.service.ts";
import { updateSiteSetting } from "../settings/settings.service.ts";
import { changeIsLive, feedFiles, localWebsubHubPath, pingBody, pingHubs } from "./websub.ts";

const minute = 60_000;

/**
 * One real HTTP server on 127.0.0.1 is the site and its hub: a post's page answers 404 until the
 * test "builds" it (with the modified time the build would write), and the hub at the local hub's
 * path records every ping — or is down (503, or the connection dropped) when told.
 */
interface SiteAndHub {
  origin: string;
  /** Page path → the `article:modified_time` it shows; absent: 404. */
  pages: Map<string, string>;
  pings: URLSearchParams[];
  hub: "up" | "503" | "drop";
  close(): Promise<void>;
}

async function startSiteAndHub(): Promise<SiteAndHub> {
  const state = { pages: new Map<string, string>(), pings: [] as URLSearchParams[], hub: "up" as SiteAndHub["hub"] };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path === localWebsubHubPath && request.method === "POST") {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (state.hub === "drop") return request.socket.destroy();
        if (state.hub === "503") return response.writeHead(503).end("down for maintenance");
        state.pings.push(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
        response.writeHead(204).end();
      });
      return;
    }
    const modified = state.pages.get(path);
    if (modified === undefined) return response.writeHead(404, { "content-type": "text/html" }).end("<h1>Post Not Found</h1>");
    response
      .writeHead(200, { "content-type": "text/html" })
      .end(`<!doctype html><html><head><meta property="article:modified_time" content="${modified}" /></head><body>post</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return Object.assign(state, {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const form = (overrides: Partial<PostForm> = {}): PostForm =>
  ({
    title: "Runway math",
    content: "<p>Eighteen months, then twelve.</p>",
    excerpt: null,
    category: "Funding",
    readTime: 4,
    published: true,
    ...overrides,
  }) as PostForm;

describe.each(featureDatabaseTargets)("WebSub pings on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let clock: FakeClock;
  let site: SiteAndHub;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    site = await startSiteAndHub();
    clock = createFakeClock(new Date("2026-11-27T09:00:00Z"));
    // SITE_URL is the loopback site: its default hub is the local hub under it, reached with the real poster and page check.
    app = await createTestApp({ db: testDb.db, clock, checkPage: pageCheck({ timeoutMs: 2000 }), env: { SITE_URL: site.origin } });
  });
  afterAll(async () => {
    await app.close();
    await site.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await app.deps.db.query("DELETE FROM websub_pings");
    await app.deps.db.query("DELETE FROM posts");
    site.pages.clear();
    site.pings.length = 0;
    site.hub = "up";
  });
  afterEach(() => {
    clock.advance(minute);
  });

  const rows = async () =>
    (
      await app.deps.db.query<{ status: string; attempts: number; last_error: string | null }>(
        "SELECT status, attempts, last_error FROM websub_pings ORDER BY id",
      )
    ).rows;
  const build = (post: { url: string; updatedAt: string }) => site.pages.set(post.url, post.updatedAt);

  it("pings the hub with every changed feed only once the published post's page is live", async () => {
    const post = await createPost(app.deps, form({ tags: ["pricing"] }));
    expect(app.deps.websubDefaultHub).toBe(`${site.origin}${localWebsubHubPath}`);

    // Saved, the site not rebuilt yet: the page answers 404, the hub hears nothing.
    expect(await pingHubs(app.deps)).toMatchObject({ live: 0, sent: 0 });
    expect(site.pings).toHaveLength(0);
    expect(await rows()).toEqual([expect.objectContaining({ status: "waiting", attempts: 0 })]);

    build(post);
    expect(await pingHubs(app.deps)).toMatchObject({ live: 1, sent: 1 });
    expect(site.pings).toHaveLength(1);
    const ping = site.pings[0] as URLSearchParams;
    expect(ping.get("hub.mode")).toBe("publish");
    expect(ping.getAll("hub.url").sort()).toEqual(
      ["/", "/blog/category/funding/", "/blog/tag/pricing/"].flatMap((folder) => feedFiles.map((file) => `${site.origin}${folder}${file}`)).sort(),
    );
    // Sent once: another run sends nothing.
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(1);
  });

  it("an update pings once its page shows the new version, an unpublish once the page is gone", async () => {
    const post = await createPost(app.deps, form());
    build(post);
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(1);

    clock.advance(minute);
    const updated = await updatePost(app.deps, post.id, form({ title: "Runway math, revised", category: "Mindset" }));
    // The live page still shows the version before: no ping.
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(1);
    build(updated);
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(2);
    // The category it left changed too.
    expect(site.pings[1]?.getAll("hub.url")).toEqual(
      expect.arrayContaining([
        `${site.origin}/blog/category/mindset/rss.xml`,
        `${site.origin}/blog/category/funding/atom.xml`,
        `${site.origin}/feed.json`,
      ]),
    );

    clock.advance(minute);
    await updatePost(app.deps, post.id, form({ title: "Runway math, revised", category: "Mindset", published: false }));
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(2);
    site.pages.clear();
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(3);
    expect(site.pings[2]?.getAll("hub.url")).toEqual(expect.arrayContaining([`${site.origin}/blog/category/mindset/feed.json`]));
  });

  it("a scheduled post going live, and a deleted post, ping once live; the watchdog job runs it", async () => {
    const scheduled = await createPost(app.deps, form({ published: false, publishAt: new Date(clock.now().getTime() + 10 * minute) }));
    expect(await rows()).toEqual([]);
    clock.advance(11 * minute);
    expect(await publishDuePosts(app.deps)).toHaveLength(1);
    const { rows: live } = await app.deps.db.query<{ updated_at: Date }>("SELECT updated_at FROM posts WHERE id = $1", [scheduled.id]);
    site.pages.set(scheduled.url, new Date(live[0]?.updated_at ?? 0).toISOString());

    const watchdog = backgroundJobs.find((job) => job.name === "newsletter-watchdog");
    if (!watchdog) throw new Error("no newsletter-watchdog job");
    const lines: string[] = [];
    await runBackgroundJob(app, watchdog, { log: (line) => lines.push(line) });
    expect(site.pings).toHaveLength(1);
    expect(lines.join("\n")).toContain("[websub] 1 hub pings sent");

    await deletePost(app.deps, scheduled.id);
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(1);
    site.pages.clear();
    await pingHubs(app.deps);
    expect(site.pings).toHaveLength(2);
  });

  it("a hub that is down is retried by the delivery engine and gets the ping once it is back", async () => {
    const post = await createPost(app.deps, form());
    build(post);
    site.hub = "503";
    expect(await pingHubs(app.deps)).toMatchObject({ live: 1, sent: 0, retried: 1 });
    expect(await rows()).toEqual([expect.objectContaining({ status: "pending", attempts: 1, last_error: "hub answered 503" })]);

    // The connection dropped: still down, retried after its wait (1, then 2 minutes: the engine's delays).
    site.hub = "drop";
    await pingHubs(app.deps);
    expect(await rows()).toEqual([expect.objectContaining({ attempts: 1 })]);
    clock.advance(minute);
    expect(await pingHubs(app.deps)).toMatchObject({ sent: 0, retried: 1 });
    expect(await rows()).toEqual([expect.objectContaining({ status: "pending", attempts: 2 })]);

    site.hub = "up";
    clock.advance(minute);
    expect(await pingHubs(app.deps)).toMatchObject({ sent: 0 });
    expect(site.pings).toHaveLength(0);
    clock.advance(minute);
    expect(await pingHubs(app.deps)).toMatchObject({ sent: 1 });
    expect(site.pings).toHaveLength(1);
    expect(await rows()).toEqual([expect.objectContaining({ status: "sent", attempts: 3, last_error: null })]);
  });

  it("a hub that refuses the ping (4xx) is not retried; the websub_hub setting names another hub", async () => {
    await updateSiteSetting(app.deps, "websub_hub", `${site.origin}/elsewhere`);
    try {
      const post = await createPost(app.deps, form());
      build(post);
      // The site answers 404 at /elsewhere for a POST: a final refusal.
      expect(await pingHubs(app.deps)).toMatchObject({ live: 1, failed: 1 });
      expect(await rows()).toEqual([expect.objectContaining({ status: "failed", last_error: "hub answered 404" })]);
    } finally {
      await updateSiteSetting(app.deps, "websub_hub", "");
    }
  });
});

describe("WebSub's rules", () => {
  it("the feed files it names are the feeds' own", () => {
    expect([...feedFiles]).toEqual(Object.values(feedFormats).map((format) => format.file));
  });

  it("a change is live when the page shows its modified time (or later); gone on a 4xx, not on no answer", () => {
    const at = new Date("2026-11-27T09:00:00.000Z");
    expect(changeIsLive({ live: true, answer: "200", modifiedTime: "2026-11-27T09:00:00.000Z" }, "live", at)).toBe(true);
    expect(changeIsLive({ live: true, answer: "200", modifiedTime: "2026-11-27T08:59:59.000Z" }, "live", at)).toBe(false);
    expect(changeIsLive({ live: true, answer: "200" }, "live", at)).toBe(false);
    expect(changeIsLive({ live: false, answer: "404" }, "live", at)).toBe(false);
    expect(changeIsLive({ live: false, answer: "404" }, "gone", null)).toBe(true);
    expect(changeIsLive({ live: false, answer: "no answer (connect ECONNREFUSED)" }, "gone", null)).toBe(false);
    expect(changeIsLive({ live: true, answer: "200" }, "gone", null)).toBe(false);
  });

  it("the ping is form-encoded: hub.mode=publish and one hub.url per feed", () => {
    expect(pingBody(["https://a.example/rss.xml", "https://a.example/feed.json?x=1"])).toBe(
      "hub.mode=publish&hub.url=https%3A%2F%2Fa.example%2Frss.xml&hub.url=https%3A%2F%2Fa.example%2Ffeed.json%3Fx%3D1",
    );
  });
});
