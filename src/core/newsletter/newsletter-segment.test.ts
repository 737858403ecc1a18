import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { Post } from "../posts/post.schema.ts";
import { countAudience, resolveAudience } from "../segments/segments.service.ts";
import type { NewsletterSend } from "./newsletter.schema.ts";
import { nobodyInSegmentMessage, startSend } from "./newsletter-sends.ts";
import { runDueSends } from "./newsletter-watchdog.ts";

// Sends to a segment (issue 42 point 5) on real databases and a real SMTP sink: the count the
// owner sees is the recipients the send fixes, and a post sent on publish reaches its topics' readers.
const clock = createFakeClock(new Date("2026-03-02T06:00:00Z"));
const live = new Set<string>();

describe.each(featureDatabaseTargets)("sends to a segment on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({
      db: testDb.db,
      clock,
      checkPage: (url) => Promise.resolve(live.has(url) ? { live: true, answer: "200" } : { live: false, answer: "404" }),
    });
    admin = await app.adminHeaders();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  afterEach(async () => {
    live.clear();
    app.mail.clear();
    await testDb.db.exec(
      "DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts; DELETE FROM tags; DELETE FROM subscriber_tags; DELETE FROM segments",
    );
  });

  const db = () => app.deps.db;
  const topic = async (slug: string) => {
    const { rows } = await db().query<{ id: number }>("INSERT INTO tags (slug, name, topic) VALUES ($1, $1, true) RETURNING id", [slug]);
    return (rows[0] as { id: number }).id;
  };
  const subscriberTag = async (slug: string) => {
    const { rows } = await db().query<{ id: number }>("INSERT INTO subscriber_tags (slug) VALUES ($1) RETURNING id", [slug]);
    return (rows[0] as { id: number }).id;
  };
  /** A person: status, everything or the topic ids they follow, frequency, subscriber tag ids. */
  const person = async (
    email: string,
    options: { status?: string; follows?: number[] | "everything"; frequency?: "each" | "weekly"; tags?: number[] } = {},
  ) => {
    const follows = options.follows ?? "everything";
    const { rows } = await db().query<{ id: number }>(
      "INSERT INTO subscribers (email, status, source, follows_everything, frequency) VALUES ($1, $2, 'form', $3, $4) RETURNING id",
      [email, options.status ?? "active", follows === "everything", options.frequency ?? "each"],
    );
    const id = (rows[0] as { id: number }).id;
    if (follows !== "everything")
      for (const tagId of follows) await db().query("INSERT INTO subscriber_topics (subscriber_id, tag_id) VALUES ($1, $2)", [id, tagId]);
    for (const tagId of options.tags ?? [])
      await db().query("INSERT INTO subscriber_tag_assignments (subscriber_id, subscriber_tag_id, source) VALUES ($1, $2, 'owner')", [id, tagId]);
    return id;
  };
  const createPost = async (fields: FormFields) => {
    const { body, contentType } = await multipartBody({ content: "<p>Count the months.</p>", ...fields });
    const response = await app.call("/api/blog-posts", { method: "POST", headers: { ...admin, "content-type": contentType }, body });
    expect(response.status).toBe(201);
    const post = (await response.json()) as Post;
    return post;
  };
  const fixedRecipients = async (sendId: number) => {
    const { rows } = await db().query<{ email: string }>(
      "SELECT s.email FROM newsletter_recipients r JOIN subscribers s ON s.id = r.subscriber_id WHERE r.send_id = $1 ORDER BY s.email",
      [sendId],
    );
    return rows.map((row) => row.email);
  };
  const addresses = () => app.mail.messages.flatMap((message) => message.to).sort();

  /** Funding and Hiring as topics, `vip` and `downloaded:pitch-deck` as tags, and seven people across them. */
  const cast = async () => {
    const funding = await topic("funding");
    const hiring = await topic("hiring");
    const vip = await subscriberTag("vip");
    const deck = await subscriberTag("downloaded:pitch-deck");
    await person("all@example.com");
    await person("funding@example.com", { follows: [funding] });
    await person("hiring@example.com", { follows: [hiring], tags: [deck] });
    await person("funding-vip@example.com", { follows: [funding], tags: [vip] });
    await person("none@example.com", { follows: [], tags: [deck] });
    // Never in a post's email: weekly readers (the digest brings it), unconfirmed, suppressed.
    await person("weekly@example.com", { frequency: "weekly" });
    await person("pending@example.com", { status: "pending" });
    await person("bounced@example.com", { status: "bounced", tags: [vip, deck] });
  };

  it("counts exactly the recipients a send to that segment fixes, through batches", async () => {
    await cast();
    const expression = "follows funding OR tag downloaded:pitch-deck, NOT tag vip";
    const count = await countAudience(db(), await resolveAudience(db(), expression));
    expect(count).toBe(4);
    const post = await createPost({ title: "Runway math", published: "true" });
    live.add(`${testOrigin}${post.url}`);
    // Batches of 2 over eight ids: the segment holds in every batch.
    const send = await startSend(app.deps, post.id, { segment: expression, prepare: { batchSize: 2 } });
    expect(send).toMatchObject({ status: "queued", total: count, segment: expression });
    expect(await fixedRecipients(send.id)).toEqual(["all@example.com", "funding@example.com", "hiring@example.com", "none@example.com"]);
  });

  it("counts the same through the API, takes a saved segment's id, and answers 400 naming a mistake or an unknown slug", async () => {
    await cast();
    const audience = (body: unknown) =>
      app.call("/api/newsletter/audience", { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(await (await audience({})).json()).toEqual({ count: 5 });
    expect(await (await audience({ segment: "follows hiring" })).json()).toEqual({ count: 2 });
    expect(await (await audience({ segment: "everything AND NOT tag vip" })).json()).toEqual({ count: 1 });
    const bad = await audience({ segment: "follows " });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Expected a topic slug after 'follows' at position 9" });
    expect(await (await audience({ segment: "  " })).json()).toEqual({
      error: "The segment is empty: expected 'everything', 'follows <topic>' or 'tag <tag>' at position 1",
    });
    const noSlug = await audience({ segment: "tag vip AND follows" });
    expect(await noSlug.json()).toEqual({ error: "Expected a topic slug after 'follows' at position 20" });
    expect(await (await audience({ segment: "follows pricing" })).json()).toEqual({ error: "Unknown topic 'pricing': no topic has this slug" });
    expect(await (await audience({ segment: "tag gold" })).json()).toEqual({ error: "Unknown subscriber tag 'gold': no subscriber has this tag" });
    expect((await audience({ segment: 99 })).status).toBe(400);
    expect(
      (
        await app.call("/api/newsletter/audience", {
          method: "POST",
          headers: { origin: testOrigin, "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(401);

    const saved = await app.call("/api/segments", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ name: "Hiring readers", segment: "follows hiring" }),
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: number };
    expect(await (await audience({ segment: id })).json()).toEqual({ count: 2 });
    const post = await createPost({ title: "Hiring your first engineer", published: "true" });
    live.add(`${testOrigin}${post.url}`);
    const send = await startSend(app.deps, post.id, { segment: id });
    // The send keeps the expression as it was: a later edit of the saved segment does not move it.
    expect(send).toMatchObject({ status: "queued", total: 2, segment: "follows hiring" });
  });

  it("refuses to send now to a segment nobody is in, and leaves the post unsent", async () => {
    await cast();
    const post = await createPost({ title: "Runway math", published: "true" });
    live.add(`${testOrigin}${post.url}`);
    await expect(startSend(app.deps, post.id, { segment: "tag vip AND NOT tag vip" })).rejects.toMatchObject({
      status: 400,
      message: nobodyInSegmentMessage,
    });
    await expect(startSend(app.deps, post.id, { segment: "tag vip OR follows funding" })).resolves.toMatchObject({ total: 3 });
  });

  it("sends a post on publish to the readers of its topics, and one in no topic to those who follow everything", async () => {
    await cast();
    const inFunding = await createPost({ title: "Seed terms", published: "true", sendAsNewsletter: "true", tags: "funding, Cap tables" });
    live.add(`${testOrigin}${inFunding.url}`);
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["all@example.com", "funding-vip@example.com", "funding@example.com"]);
    const [send] = (await (await app.call(`/api/newsletter/sends?postId=${String(inFunding.id)}`, { headers: admin })).json()) as NewsletterSend[];
    expect(send).toMatchObject({ segment: "follows funding", total: 3 });

    app.mail.clear();
    const inNone = await createPost({ title: "A note", published: "true", sendAsNewsletter: "true", tags: "Cap tables" });
    live.add(`${testOrigin}${inNone.url}`);
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["all@example.com"]);
  });
});
