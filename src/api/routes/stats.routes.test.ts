import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Stats } from "../../core/stats/stats.schema.ts";
import { forgetLiveStats } from "../../core/stats/stats.service.ts";

const desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const phone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const tablet = "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const day = 24 * 60 * 60 * 1000;

let app: TestApp;
let clock: FakeClock;

beforeAll(async () => {
  clock = createFakeClock(new Date("2026-03-10T09:00:00Z"));
  app = await createTestApp({ clock });
  // Only pages of the site are counted: the posts these tests visit.
  const slugs = ["first", "a", "x", "story", ...Array.from({ length: 60 }, (_, n) => `page-${String(n)}`)];
  await app.deps.db.query(
    "INSERT INTO posts (title, content, read_time, slug, published, published_at) SELECT 'T ' || s, '<p>x</p>', 1, s, true, now() FROM unnest($1::text[]) AS s",
    [slugs],
  );
});
afterAll(async () => {
  await app.close();
});

interface View {
  path: string;
  referrer?: string;
  ip?: string;
  ua?: string;
  notFound?: boolean;
  country?: string;
  headers?: Record<string, string>;
}

/** A beacon as `navigator.sendBeacon` sends it: text/plain, same origin. */
function view({ path, referrer = "", ip = "198.51.100.1", ua = desktop, notFound, country, headers }: View): Promise<Response> {
  const body = JSON.stringify({ url: `${testOrigin}${path}`, referrer, ...(notFound && { notFound }) });
  const request = new Request(`${testOrigin}/api/events`, {
    method: "POST",
    body,
    headers: { "content-type": "text/plain;charset=UTF-8", origin: testOrigin, "user-agent": ua, ...headers },
  });
  return app.handler(request, { ip, ...(country && { country }) });
}

async function stats(from: string, to: string): Promise<Stats> {
  const response = await app.call(`/api/stats?from=${from}&to=${to}`, { headers: await app.adminHeaders() });
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

async function clearStats(): Promise<void> {
  forgetLiveStats(app.deps.db);
  await app.deps.db.exec(
    "DELETE FROM stats_events; DELETE FROM stats_daily; DELETE FROM stats_daily_dimensions; DELETE FROM stats_not_found; DELETE FROM stats_signups; DELETE FROM stats_downloads; DELETE FROM rate_limit_counters",
  );
}

describe("POST /api/events and GET /api/stats", () => {
  it("counts a visitor once a day, and again the next day under a new salt", async () => {
    await clearStats();
    expect((await view({ path: "/" })).status).toBe(202);
    expect((await view({ path: "/blog/first" })).status).toBe(202);
    expect((await view({ path: "/", ip: "198.51.100.2" })).status).toBe(202);
    const salt1 = await app.deps.db.query<{ day: string; salt: Uint8Array }>("SELECT day::text AS day, salt FROM stats_salts");
    clock.advance(day);
    await view({ path: "/" });
    const salt2 = await app.deps.db.query<{ day: string; salt: Uint8Array }>("SELECT day::text AS day, salt FROM stats_salts");
    // Yesterday's salt is gone: its hashes can never be made again.
    expect(salt1.rows.map((row) => row.day)).toEqual(["2026-03-10"]);
    expect(salt2.rows.map((row) => row.day)).toEqual(["2026-03-11"]);
    expect(Buffer.from(salt2.rows[0]?.salt ?? []).equals(Buffer.from(salt1.rows[0]?.salt ?? []))).toBe(false);

    const figures = await stats("2026-03-10", "2026-03-11");
    expect(figures.visitors).toBe(3);
    expect(figures.pageviews).toBe(4);
    expect(figures.series).toEqual([
      { date: "2026-03-10", visitors: 2, pageviews: 3 },
      { date: "2026-03-11", visitors: 1, pageviews: 1 },
    ]);
    expect(figures.pages).toEqual([
      { path: "/", visitors: 3, pageviews: 3 },
      { path: "/blog/first", visitors: 1, pageviews: 1 },
    ]);
    expect(figures.sources).toEqual([{ source: "direct", visitors: 3 }]);
  });

  it("rolls a day up once it is over, deletes its raw views, and reads the same figures from the rollup", async () => {
    await clearStats();
    await view({ path: "/", referrer: "https://www.google.com/search?q=x" });
    await view({ path: "/blog/a", referrer: `${testOrigin}/` });
    await view({ path: "/", ip: "198.51.100.9", ua: phone });
    const live = await stats("2026-03-01", "2026-03-31");
    clock.advance(day);
    const afterRollup = await stats("2026-03-01", "2026-03-31");
    expect(afterRollup).toEqual(live);
    const { rows } = await app.deps.db.query<{ raw: number; rolled: number }>(
      "SELECT (SELECT count(*) FROM stats_events)::int AS raw, (SELECT count(*) FROM stats_daily)::int AS rolled",
    );
    expect(rows[0]).toEqual({ raw: 0, rolled: 3 });
    expect(live.visitors).toBe(2);
    expect(live.sources).toEqual([
      { source: "direct", visitors: 1 },
      { source: "google.com", visitors: 1 },
    ]);
    expect(live.devices).toEqual([
      { device: "desktop", visitors: 1 },
      { device: "phone", visitors: 1 },
    ]);
  });

  it("keeps the rollups 25 months, then deletes them", async () => {
    await clearStats();
    await view({ path: "/downloads" });
    clock.advance(day);
    await view({ path: "/" });
    const rolledDay = (await app.deps.db.query<{ day: string }>("SELECT min(day)::text AS day FROM stats_daily")).rows[0]?.day;
    expect(rolledDay).toBeDefined();
    clock.advance(25 * 31 * day);
    await view({ path: "/" });
    const { rows } = await app.deps.db.query<{ day: string }>("SELECT day::text AS day FROM stats_daily WHERE day = $1::date", [rolledDay]);
    expect(rows).toEqual([]);
  });

  it("drops bots, the owner's own views and pages from other sites; counts 404s apart", async () => {
    await clearStats();
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    expect((await view({ path: "/", ua: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" })).status).toBe(202);
    expect((await view({ path: "/", ua: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0.0.0 Safari/537.36" })).status).toBe(
      202,
    );
    expect((await view({ path: "/", ua: "" })).status).toBe(202);
    const owner = await app.adminHeaders();
    expect((await view({ path: "/", headers: { cookie: owner.cookie ?? "" } })).status).toBe(202);
    const foreign = new Request(`${testOrigin}/api/events`, {
      method: "POST",
      body: JSON.stringify({ url: "https://elsewhere.example/page" }),
      headers: { origin: testOrigin, "user-agent": desktop },
    });
    expect((await app.handler(foreign, { ip: "198.51.100.1" })).status).toBe(202);
    expect((await view({ path: "/no-such-page", notFound: true })).status).toBe(202);
    expect((await view({ path: "/no-such-page", notFound: true, ip: "198.51.100.3" })).status).toBe(202);
    const figures = await stats(today, today);
    expect(figures.visitors).toBe(0);
    expect(figures.pageviews).toBe(0);
    expect(figures.notFound).toEqual([{ path: "/no-such-page", views: 2 }]);
  });

  it("takes the source from utm_source over the referrer, keeps medium and campaign, and the first outside source of the day", async () => {
    await clearStats();
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    await view({ path: "/blog/x?utm_source=Newsletter&utm_medium=email&utm_campaign=launch", referrer: "https://mail.example/" });
    await view({ path: "/downloads", referrer: `${testOrigin}/blog/x` });
    await view({ path: "/", ip: "198.51.100.20", referrer: "https://news.ycombinator.com/item?id=1" });
    await view({ path: "/", ip: "198.51.100.21", ua: tablet, country: "fr" });
    const figures = await stats(today, today);
    expect(figures.sources).toEqual([
      { source: "direct", visitors: 1 },
      { source: "news.ycombinator.com", visitors: 1 },
      { source: "newsletter", visitors: 1 },
    ]);
    expect(figures.countries).toEqual([
      { country: "unknown", visitors: 2 },
      { country: "FR", visitors: 1 },
    ]);
    expect(figures.devices).toEqual([
      { device: "desktop", visitors: 2 },
      { device: "tablet", visitors: 1 },
    ]);
    const kept = await app.deps.db.query<{ utm_medium: string; utm_campaign: string }>(
      "SELECT utm_medium, utm_campaign FROM stats_events WHERE source = 'newsletter'",
    );
    expect(kept.rows).toEqual([{ utm_medium: "email", utm_campaign: "launch" }]);
  });

  it("counts a post's old address as the post", async () => {
    await clearStats();
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, read_time, slug, published, published_at) VALUES ('T', '<p>x</p>', 1, 'new-name', true, now()) RETURNING id",
    );
    await app.deps.db.query("INSERT INTO post_slug_redirects (old_slug, post_id) VALUES ('old-name', $1)", [rows[0]?.id]);
    await view({ path: "/blog/old-name" });
    await view({ path: "/blog/new-name/", ip: "198.51.100.30" });
    expect((await stats(today, today)).pages).toEqual([{ path: "/blog/new-name", visitors: 2, pageviews: 2 }]);
  });

  it("keeps nothing personal: no address, user agent or referrer address in any column of any table", async () => {
    await clearStats();
    const ip = "192.0.2.123";
    const ua = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15 UniqueMarker/42";
    await view({ path: "/?utm_source=x", ip, ua, referrer: "https://search.example/?q=secret-words" });
    await view({ path: "/missing", ip, ua, notFound: true });
    const columns = await app.deps.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'bytea', 'jsonb', 'json', 'inet')`,
    );
    expect(columns.rows.length).toBeGreaterThan(20);
    for (const { table_name: table, column_name: column } of columns.rows) {
      const { rows } = await app.deps.db.query<{ hits: number }>(
        `SELECT count(*)::int AS hits FROM "${table}" WHERE encode(convert_to("${column}"::text, 'UTF8'), 'escape') ~ $1`,
        ["192\\.0\\.2\\.123|UniqueMarker|Macintosh|secret-words|search\\.example/"],
      );
      expect({ table, column, hits: rows[0]?.hits }).toEqual({ table, column, hits: 0 });
    }
  });

  it("takes JSON too, refuses a body over 2 KB, a cross-site beacon, and a client over its limit", async () => {
    await clearStats();
    const json = await app.handler(
      new Request(`${testOrigin}/api/events`, {
        method: "POST",
        body: JSON.stringify({ url: `${testOrigin}/` }),
        headers: { "content-type": "application/json", origin: testOrigin, "user-agent": desktop },
      }),
      { ip: "198.51.100.40" },
    );
    expect(json.status).toBe(202);
    const big = await view({ path: `/${"a".repeat(900)}`, referrer: `https://x.example/${"b".repeat(790)}` });
    expect(big.status).toBe(400);
    const huge = await app.handler(
      new Request(`${testOrigin}/api/events`, { method: "POST", body: "x".repeat(2049), headers: { origin: testOrigin, "user-agent": desktop } }),
      { ip: "198.51.100.40" },
    );
    expect(huge.status).toBe(413);
    expect((await view({ path: "/", headers: { origin: "https://evil.example" } })).status).toBe(403);
    for (let hit = 0; hit < 120; hit += 1) expect((await view({ path: "/", ip: "198.51.100.41" })).status).toBe(202);
    const refused = await view({ path: "/", ip: "198.51.100.41" });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Too many requests. Please try again later." });
  });

  it("counts a signup and a download under the form's page and the visit's source, and a confirmation once its consent is", async () => {
    await clearStats();
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const ip = "198.51.100.50";
    await view({ path: "/blog/story", ip, referrer: "https://news.ycombinator.com/" });
    const form = (path: string, body: unknown, referer: string, headers: Record<string, string> = {}) =>
      app.handler(
        new Request(`${testOrigin}${path}`, {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json", origin: testOrigin, "user-agent": desktop, referer, ...headers },
        }),
        { ip },
      );
    expect((await form("/api/newsletter/subscribe", { email: "reader@example.com" }, `${testOrigin}/blog/story`)).status).toBe(200);
    // The same pending address again is the same signup; another visitor's comes "direct".
    expect((await form("/api/newsletter/subscribe", { email: "reader@example.com" }, `${testOrigin}/blog/story`)).status).toBe(200);
    const other = await app.handler(
      new Request(`${testOrigin}/api/newsletter/subscribe`, {
        method: "POST",
        body: JSON.stringify({ email: "second@example.com" }),
        headers: { "content-type": "application/json", origin: testOrigin, "user-agent": phone, referer: `${testOrigin}/` },
      }),
      { ip: "198.51.100.51" },
    );
    expect(other.status).toBe(200);
    const owner = await app.adminHeaders();
    await form("/api/newsletter/subscribe", { email: "owner-test@example.com" }, `${testOrigin}/`, { cookie: owner.cookie ?? "" });
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO downloads (title, description, category, file_key, file_name, file_type, file_size) VALUES ('Deck', 'd', 'c', 'k', 'deck.pdf', 'application/pdf', 1) RETURNING id",
    );
    const id = rows[0]?.id ?? 0;
    expect((await form(`/api/downloads/${String(id)}/request`, { email: "reader@example.com" }, `${testOrigin}/downloads`)).status).toBe(200);
    await app.deps.db.query(
      "UPDATE subscriber_consents SET confirmed_at = now() WHERE subscriber_id = (SELECT id FROM subscribers WHERE email = 'reader@example.com') AND source = 'newsletter'",
    );
    const figures = await stats(today, today);
    expect(figures.signups).toEqual([
      { path: "/", source: "direct", signups: 1, confirmed: 0 },
      { path: "/blog/story", source: "news.ycombinator.com", signups: 1, confirmed: 1 },
    ]);
    expect(figures.downloads).toEqual([{ id, title: "Deck", downloads: 1 }]);
    expect(figures.downloadSources).toEqual([{ path: "/downloads", source: "news.ycombinator.com", downloads: 1 }]);
  });

  it("writes beacons that arrive together in shared INSERTs, every one of them", async () => {
    await clearStats();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, n) => view({ path: `/blog/page-${String(n)}`, ip: `198.51.100.${String(100 + n)}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array<number>(60).fill(202));
    const { rows } = await app.deps.db.query<{ views: number; paths: number }>(
      "SELECT count(*)::int AS views, count(DISTINCT path)::int AS paths FROM stats_events",
    );
    expect(rows[0]).toEqual({ views: 60, paths: 60 });
  });

  it("answers 401 without a session, and 400 for a range that runs backwards or is too long", async () => {
    expect((await app.call("/api/stats?from=2026-03-01&to=2026-03-02")).status).toBe(401);
    const headers = await app.adminHeaders();
    expect((await app.call("/api/stats?from=2026-03-02&to=2026-03-01", { headers })).status).toBe(400);
    expect((await app.call("/api/stats?from=2024-01-01&to=2026-03-01", { headers })).status).toBe(400);
    expect((await app.call("/api/stats?from=yesterday", { headers })).status).toBe(400);
  });
});

describe("numbers no one can fake cheaply", () => {
  const today = () => new Date(clock.now()).toISOString().slice(0, 10);
  const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64; rv:${String(100 + n)}.0) Gecko/20100101 Firefox/${String(100 + n)}.0`;

  it("lets one client address add at most 20 visitors a day, however its user agent rotates", async () => {
    await clearStats();
    const flood = "203.0.113.77";
    for (let n = 0; n < 100; n += 1) expect((await view({ path: "/", ip: flood, ua: browser(n) })).status).toBe(202);
    // Visitors already counted keep counting their views; other addresses are not held back.
    await view({ path: "/downloads", ip: flood, ua: browser(0) });
    await view({ path: "/", ip: "203.0.113.78", ua: browser(0) });
    let figures = await stats(today(), today());
    expect(figures.visitors).toBe(21);
    expect(figures.pageviews).toBe(22);
    // Beacons of the flood arriving together (one shared INSERT) are held to the cap too.
    await Promise.all(Array.from({ length: 50 }, (_, n) => view({ path: "/", ip: "2001:db8:1:2::5", ua: browser(200 + n) })));
    figures = await stats(today(), today());
    expect(figures.visitors).toBe(41);
    // The next day (a new salt), the address starts again from zero.
    clock.advance(day);
    for (let n = 0; n < 30; n += 1) await view({ path: "/", ip: flood, ua: browser(300 + n) });
    expect((await stats(today(), today())).visitors).toBe(20);
  });

  it("counts views only of pages that exist: no made-up post, API address, preview or list page past the last", async () => {
    await clearStats();
    for (const path of [
      "/blog/no-such-post",
      "/api/stats",
      "/api/newsletter/unsubscribe?token=u.1.x",
      "/preview/12/c2lnbmF0dXJl",
      "/preview-template-gone",
      "/blog/page/99",
      "/blog/category/not-a-category",
      "/wp-admin",
    ]) {
      expect((await view({ path })).status).toBe(202);
    }
    await view({ path: "/blog/first" });
    await view({ path: "/blog/category/funding" });
    await view({ path: "/blog/page/2" });
    // A tag's list exists while a published post carries the tag; the tag index always.
    await app.deps.db.query("INSERT INTO tags (slug, name) VALUES ('pitch-decks', 'Pitch decks'), ('nobody', 'Nobody')");
    await app.deps.db.query(
      "INSERT INTO post_tags (post_id, tag_id) SELECT p.id, t.id FROM posts p, tags t WHERE p.slug = 'first' AND t.slug = 'pitch-decks'",
    );
    for (const path of ["/blog/tag/nobody", "/blog/tag/pitch-decks/page/2", "/blog/tag/no-such-tag"]) await view({ path });
    await view({ path: "/blog/tag/pitch-decks" });
    await view({ path: "/blog/tags" });
    const figures = await stats(today(), today());
    expect(figures.pages.map((page) => page.path).sort()).toEqual([
      "/blog/category/funding",
      "/blog/first",
      "/blog/page/2",
      "/blog/tag/pitch-decks",
      "/blog/tags",
    ]);
    expect(figures.pageviews).toBe(5);
    // A post counts from the moment it is published.
    await app.deps.db.query(
      "INSERT INTO posts (title, content, read_time, slug, published, published_at) VALUES ('New', '<p>x</p>', 1, 'just-published', true, now())",
    );
    await view({ path: "/blog/just-published" });
    expect((await stats(today(), today())).pages.map((page) => page.path)).toContain("/blog/just-published");
  });

  it("normalises and caps sources, and never stores an address-like value", async () => {
    await clearStats();
    await view({
      path: `/?utm_source=${encodeURIComponent("jane.doe@example.com")}&utm_campaign=${encodeURIComponent("for jane@example.com")}`,
      ip: "198.51.100.60",
    });
    await view({ path: `/?utm_source=${encodeURIComponent("  Ｎｅｗｓ\u200bletter\n ")}`, ip: "198.51.100.61" });
    await view({ path: `/?utm_source=${"s".repeat(200)}`, ip: "198.51.100.62" });
    await view({ path: "/", ip: "198.51.100.63", referrer: `https://${"r".repeat(70)}.example/` });
    const figures = await stats(today(), today());
    expect(figures.sources.map((row) => row.source).sort()).toEqual(["direct", "newsletter", "r".repeat(60), "s".repeat(60)]);
    const { rows } = await app.deps.db.query<{ hits: number }>(
      "SELECT count(*)::int AS hits FROM stats_events WHERE source LIKE '%@%' OR utm_campaign LIKE '%@%' OR utm_medium LIKE '%@%'",
    );
    expect(rows[0]?.hits).toBe(0);
  });

  it("counts a signup and its visitor on the same basis: conversion is never above 100 %", async () => {
    await clearStats();
    const signup = (email: string, ip: string, ua: string, referer = `${testOrigin}/blog/story`) =>
      app.handler(
        new Request(`${testOrigin}/api/newsletter/subscribe`, {
          method: "POST",
          body: JSON.stringify({ email }),
          headers: { "content-type": "application/json", origin: testOrigin, "user-agent": ua, referer },
        }),
        { ip },
      );
    // No JavaScript (no beacon), and a crawler's user agent: each a signup and a visitor of the page.
    expect((await signup("nojs@example.com", "198.51.100.70", desktop)).status).toBe(200);
    expect(
      (await signup("bot@example.com", "198.51.100.71", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).status,
    ).toBe(200);
    // One visitor signing up five addresses is one signup of one visitor.
    await view({ path: "/blog/story", ip: "198.51.100.72", referrer: "https://news.ycombinator.com/" });
    for (let n = 0; n < 5; n += 1) await signup(`many-${String(n)}@example.com`, "198.51.100.72", desktop);
    // A form with no page of the site behind it counts as neither.
    await signup("nowhere@example.com", "198.51.100.73", desktop, `${testOrigin}/preview/3/abc`);
    const figures = await stats(today(), today());
    const story = figures.pages.find((page) => page.path === "/blog/story");
    const storySignups = figures.signups.filter((row) => row.path === "/blog/story").reduce((sum, row) => sum + row.signups, 0);
    expect(storySignups).toBe(3);
    expect(story?.visitors).toBe(3);
    for (const source of figures.sources) {
      const signups = figures.signups.filter((row) => row.source === source.source).reduce((sum, row) => sum + row.signups, 0);
      expect(signups).toBeLessThanOrEqual(source.visitors);
    }
    expect(figures.signups.map((row) => row.path)).toEqual(["/blog/story", "/blog/story"]);
    // The same after the day is rolled up, and the signups' visitor hashes are forgotten with it.
    clock.advance(day);
    const rolled = await stats(figures.from, figures.to);
    expect(rolled.signups).toEqual(figures.signups);
    expect(rolled.pages).toEqual(figures.pages);
    const { rows } = await app.deps.db.query<{ kept: number }>("SELECT count(visitor)::int AS kept FROM stats_signups");
    expect(rows[0]?.kept).toBe(0);
  });
});
