import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { linkToken, recipientClickToken } from "./newsletter-clicks.ts";
import type { AudienceStats } from "./stats.schema.ts";

// Issue 42 point 7: subscribers, growth and clicks per topic and per subscriber tag (decision 0081).
const desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe.each(featureDatabaseTargets)("audience stats on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  const clock = createFakeClock(new Date("2026-03-10T09:00:00Z"));
  const id = new Map<string, number>();

  const insert = async (sql: string, params: unknown[]) => (await app.deps.db.query<{ id: number }>(`${sql} RETURNING id`, params)).rows[0]?.id ?? 0;

  /** A click on a link as a mail client makes it: the link's token, and the recipient's when `who` is named. */
  const click = async (link: string, who?: string) => {
    const linkId = id.get(link) ?? 0;
    const sendId = id.get(`send of ${link}`) ?? 0;
    const recipient = who ? recipientClickToken(app.deps.signer, sendId, id.get(who) ?? 0) : "";
    const url = `/api/newsletter/click?${new URLSearchParams({ l: linkToken(app.deps.signer, linkId), r: recipient }).toString()}`;
    const response = await app.handler(new Request(`${testOrigin}${url}`, { headers: { "user-agent": desktop } }), { ip: "198.51.100.9" });
    expect(response.status).toBe(302);
  };

  const audience = async (query: string) => app.call(`/api/stats/audience${query}`, { headers: await app.adminHeaders() });

  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
    for (const [slug, name, topic] of [
      ["funding", "Funding", true],
      ["mindset", "Mindset", true],
      ["hiring", "Hiring", false],
    ] as const) {
      id.set(slug, await insert("INSERT INTO tags (slug, name, topic) VALUES ($1, $2, $3)", [slug, name, topic]));
    }
    for (const slug of ["vip", "webinar", "nobody"]) id.set(slug, await insert("INSERT INTO subscriber_tags (slug) VALUES ($1)", [slug]));
    // [name, status, follows everything, confirmed, left]
    const people = [
      ["ann", "active", false, "2026-03-05T10:00:00Z", null],
      ["bob", "active", false, "2026-01-10T10:00:00Z", null],
      ["cat", "unsubscribed", false, "2026-01-10T10:00:00Z", "2026-03-08T10:00:00Z"],
      ["dan", "active", true, "2026-03-04T10:00:00Z", null],
      ["eve", "pending", false, null, null],
      ["old", "active", true, "2026-01-01T10:00:00Z", null],
      ["gone", "bounced", true, "2026-01-01T10:00:00Z", null],
    ] as const;
    for (const [name, status, everything, confirmed, left] of people) {
      id.set(
        name,
        await insert(
          `INSERT INTO subscribers (email, status, source, follows_everything, subscribed_at, confirmed_at, unsubscribed_at, suppressed_at)
           VALUES ($1, $2, 'newsletter', $3, coalesce($4::timestamptz, '2026-03-05T10:00:00Z'), $4, $5, $6)`,
          [`${name}@example.com`, status, everything, confirmed, left, status === "bounced" ? "2026-03-09T10:00:00Z" : null],
        ),
      );
    }
    const follow = (who: string, topic: string, at: string) =>
      app.deps.db.query("INSERT INTO subscriber_topics (subscriber_id, tag_id, created_at) VALUES ($1, $2, $3)", [id.get(who), id.get(topic), at]);
    await follow("ann", "funding", "2026-03-05T10:00:00Z");
    await follow("bob", "funding", "2026-02-01T10:00:00Z");
    await follow("bob", "mindset", "2026-03-06T10:00:00Z");
    await follow("cat", "funding", "2026-02-01T10:00:00Z");
    await follow("eve", "funding", "2026-03-05T10:00:00Z");
    const tag = (who: string, slug: string, at: string) =>
      app.deps.db.query(
        "INSERT INTO subscriber_tag_assignments (subscriber_id, subscriber_tag_id, source, created_at) VALUES ($1, $2, 'owner', $3)",
        [id.get(who), id.get(slug), at],
      );
    await tag("ann", "vip", "2026-03-05T10:00:00Z");
    await tag("bob", "vip", "2026-02-01T10:00:00Z");
    await tag("cat", "vip", "2026-02-01T10:00:00Z");
    await tag("dan", "webinar", "2026-03-04T10:00:00Z");
    await tag("eve", "webinar", "2026-03-05T10:00:00Z");

    // Three posts: two on Funding (one sent before the range), one on Mindset and Hiring.
    for (const [slug, tags, sentAt, sent] of [
      ["raise", ["funding"], "2026-03-07T10:00:00Z", 3],
      ["calm", ["mindset", "hiring"], "2026-03-08T10:00:00Z", 2],
      ["older", ["funding"], "2026-02-15T10:00:00Z", 4],
    ] as const) {
      const postId = await insert(
        "INSERT INTO posts (title, content, read_time, slug, published, published_at) VALUES ($1, '<p>x</p>', 1, $1, true, $2)",
        [slug, sentAt],
      );
      for (const topic of tags) await app.deps.db.query("INSERT INTO post_tags (post_id, tag_id) VALUES ($1, $2)", [postId, id.get(topic)]);
      const sendId = await insert(
        "INSERT INTO newsletter_sends (post_id, status, subject, html, text, created_at, count_sent) VALUES ($1, 'sent', $2, '', '', $3, $4)",
        [postId, slug, sentAt, sent],
      );
      id.set(`send ${slug}`, sendId);
    }
    const link = async (name: string, send: string, position: number) => {
      id.set(
        name,
        await insert("INSERT INTO newsletter_links (send_id, position, url) VALUES ($1, $2, 'https://example.org/')", [id.get(send), position]),
      );
      id.set(`send of ${name}`, id.get(send) ?? 0);
    };
    await link("raise 1", "send raise", 1);
    await link("raise 2", "send raise", 2);
    await link("calm 1", "send calm", 1);
    await link("older 1", "send older", 1);
    await click("raise 1", "ann");
    await click("raise 1", "ann");
    await click("raise 1", "bob");
    await click("raise 2", "bob");
    await click("raise 2");
    await click("calm 1", "dan");
    await click("older 1", "ann");
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  it("counts each topic's readers, growth and the clicks on its posts' newsletters, and each tag's people and their clicks", async () => {
    const response = await audience("?from=2026-03-01&to=2026-03-10");
    expect(response.status).toBe(200);
    const stats = (await response.json()) as AudienceStats;
    expect(stats).toEqual({
      from: "2026-03-01",
      to: "2026-03-10",
      // dan (confirmed in the range) and old; gone bounced in the range.
      everything: { subscribers: 2, gained: 1, left: 1 },
      topics: [
        // ann and bob follow it (eve is pending); ann started in the range, cat left in it. The
        // newsletter of "older" went out before the range: neither it nor its click counts.
        { slug: "funding", name: "Funding", subscribers: 2, gained: 1, left: 1, newsletters: 1, delivered: 3, clicks: 5, clickers: 2 },
        // dan follows everything: his click on a Mindset post counts for Mindset.
        { slug: "mindset", name: "Mindset", subscribers: 1, gained: 1, left: 0, newsletters: 1, delivered: 2, clicks: 1, clickers: 1 },
      ],
      tags: [
        // ann's two clicks and bob's two; the anonymous click has no person, ann's on "older" is out of range.
        { slug: "vip", subscribers: 2, gained: 1, left: 1, clicks: 4, clickers: 2 },
        { slug: "webinar", subscribers: 1, gained: 1, left: 0, clicks: 1, clickers: 1 },
      ],
    });
  });

  it("reads growth and clicks for the range asked, and the people as they are now", async () => {
    const stats = (await (await audience("?from=2026-02-01&to=2026-02-28")).json()) as AudienceStats;
    expect(stats.everything).toEqual({ subscribers: 2, gained: 0, left: 0 });
    expect(stats.topics[0]).toEqual({
      slug: "funding",
      name: "Funding",
      subscribers: 2,
      gained: 2,
      left: 0,
      newsletters: 1,
      delivered: 4,
      clicks: 1,
      clickers: 1,
    });
    expect(stats.tags.find((row) => row.slug === "vip")).toEqual({ slug: "vip", subscribers: 2, gained: 2, left: 0, clicks: 1, clickers: 1 });
  });

  it("answers 401 without a session and 400 for a range the Stats tab would refuse", async () => {
    expect((await app.call("/api/stats/audience")).status).toBe(401);
    const backwards = await audience("?from=2026-03-10&to=2026-03-01");
    expect(backwards.status).toBe(400);
    expect(await backwards.json()).toEqual({ error: expect.stringContaining("from must not be after to") as unknown });
    expect((await audience("?from=2024-01-01&to=2026-03-01")).status).toBe(400);
    expect((await audience("?from=March")).status).toBe(400);
  });
});
