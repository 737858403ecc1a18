import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, signRequest, type Federation } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import {
  Accept,
  Announce,
  Article,
  Create,
  Endpoints,
  Follow,
  Hashtag,
  Image,
  Like,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Tombstone,
  Undo,
  type Object as APObject,
} from "@fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebResponse, toWebRequest } from "../../netlify/local/node-http.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../tests/support/test-databases.ts";
import { listPostComments, moderateComments } from "../core/comments/comments.service.ts";
import { promoteFediverseChanges } from "../core/fediverse/fediverse-changes.ts";
import { deliverFediverse, fediverseRetryDelayMs } from "../core/fediverse/fediverse-delivery.ts";
import { queuePostHubPing } from "../core/posts/post-hub-ping.ts";
import { getPost } from "../core/posts/posts.service.ts";
import { createFakeClock } from "../../tests/support/fake-clock.ts";
import { systemClock } from "../core/shared/clock.ts";
import { siteAt } from "../core/shared/site.ts";
import { answerFediverse, fediverseSender, type FediverseDeps } from "./fediverse-federation.ts";

/** Serves `answer` on a loopback port; answers its address. */
async function serve(answer: (request: Request) => Promise<Response>, port = 0): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    // A body refused unread (413, 403) is drained, so the client reads the answer rather than a reset.
    res.on("finish", () => req.resume());
    answer(toWebRequest(req))
      .then((response) => sendWebResponse(res, response, req.method))
      .catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}` };
}

/** A small Mastodon-like peer on Fedify: one Person, `alice`, whose inbox keeps what arrives. */
async function startPeer(port = 0) {
  const received: APObject[] = [];
  const keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), await generateCryptoKeyPair("Ed25519")];
  const holder: { federation?: Federation<void> } = {};
  const { server, origin } = await serve((request) => (holder.federation as Federation<void>).fetch(request, { contextData: undefined }), port);
  const federation = (holder.federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true, origin }));
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier !== "alice") return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: "Alice Peer",
        url: new URL(`${origin}/@alice`),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher(() => keys);
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Accept, (_ctx, activity) => {
      received.push(activity);
    })
    .on(Create, (_ctx, activity) => {
      received.push(activity);
    });
  const ctx = federation.createContext(new URL(origin), undefined);
  return { server, origin, received, ctx, keys, actor: ctx.getActorUri("alice") };
}

describe.each(featureDatabaseTargets)("the site's actor against a Fedify peer on $name", (target) => {
  let testDb: TestDatabase;
  let blog: { server: Server; origin: string };
  let deps: FediverseDeps;
  let peer: Awaited<ReturnType<typeof startPeer>>;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    let ready: FediverseDeps | undefined;
    blog = await serve((request) => answerFediverse(ready as FediverseDeps, request));
    deps = ready = {
      db: testDb.db,
      now: systemClock.now,
      site: siteAt(blog.origin),
      urls: { file: (key) => `/api/files/${key}` },
      allowPrivateAddress: true,
    };
    peer = await startPeer();
  }, 60_000);
  // Fedify's WebFinger client asks https://{host} for an acct: handle (RFC 7033), and the loopback
  // servers speak plain http: the peer's https calls to this machine go to http, as a TLS proxy would.
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    globalThis.fetch = (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.protocol === "https:" && url.hostname === "127.0.0.1") {
        url.protocol = "http:";
        return realFetch(new Request(url, request));
      }
      return realFetch(request);
    };
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    blog.server.close();
    peer.server.close();
    await testDb.drop();
  });

  const host = () => new URL(blog.origin).host;

  it("is found by WebFinger, is followed, and its Accept reaches the follower through the delivery engine", async () => {
    const site = await peer.ctx.lookupObject(`acct:nofilter@${host()}`);
    expect(site?.id?.href).toBe(`${blog.origin}/fediverse/actor`);
    const nodeinfo = await fetch(`${blog.origin}/.well-known/nodeinfo`);
    expect(nodeinfo.status).toBe(200);

    await peer.ctx.sendActivity(
      { identifier: "alice" },
      { id: site?.id ?? null, inboxId: new URL(`${blog.origin}/fediverse/inbox`) },
      new Follow({ id: new URL(`${peer.origin}/follows/1`), actor: peer.actor, object: site?.id ?? null }),
      { immediate: true },
    );
    const { rows } = await deps.db.query<{ handle: string; server: string; name: string }>("SELECT handle, server, name FROM fediverse_followers");
    expect(rows).toEqual([{ handle: `alice@${new URL(peer.origin).host}`, server: new URL(peer.origin).host, name: "Alice Peer" }]);

    const run = await deliverFediverse({ db: deps.db, now: deps.now, sendFediverseActivity: fediverseSender(deps) });
    expect(run.sent).toBe(1);
    expect(peer.received.map((activity) => activity.constructor.name)).toEqual(["Accept"]);
  }, 60_000);

  it("refuses an unsigned POST and a forged signature, and stores nothing for them", async () => {
    const note = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${peer.origin}/creates/forged`,
      type: "Follow",
      actor: `${peer.origin}/users/alice`,
      object: `${blog.origin}/fediverse/actor`,
    };
    const unsigned = await fetch(`${blog.origin}/fediverse/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify(note),
    });
    expect(unsigned.status).toBe(401);
    const forged = await fetch(`${blog.origin}/fediverse/inbox`, {
      method: "POST",
      headers: {
        "content-type": "application/activity+json",
        date: new Date().toUTCString(),
        signature: `keyId="${peer.origin}/users/alice#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="Zm9yZ2Vk"`,
      },
      body: JSON.stringify({ ...note, id: `${peer.origin}/follows/forged` }),
    });
    expect(forged.status).toBe(401);
    const { rows } = await deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fediverse_followers WHERE follow_id LIKE '%forged'");
    expect(rows[0]?.n).toBe(0);
  }, 60_000);

  it("refuses a replayed request: a genuine signature made 10 minutes ago (over the 5-minute window)", async () => {
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${peer.origin}/follows/stale`,
      type: "Follow",
      actor: peer.actor.href,
      object: `${blog.origin}/fediverse/actor`,
    });
    const stale = await signRequest(
      new Request(`${blog.origin}/fediverse/inbox`, { method: "POST", headers: { "content-type": "application/activity+json" }, body }),
      (peer.keys[0] as CryptoKeyPair).privateKey,
      new URL(`${peer.actor.href}#main-key`),
      { currentTime: Temporal.Now.instant().subtract({ minutes: 10 }) },
    );
    const answer = await fetch(stale);
    expect(answer.status).toBe(401);
    const { rows } = await deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fediverse_followers WHERE follow_id LIKE '%stale'");
    expect(rows[0]?.n).toBe(0);
  }, 60_000);

  it("refuses an oversized body (413) and a blocked server (403) before reading it", async () => {
    // Handed to the handler itself: over a socket, a client still writing the refused body may read a reset instead of the answer.
    const big = await answerFediverse(
      deps,
      new Request(`${blog.origin}/fediverse/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json", signature: `keyId="${peer.origin}/users/alice#main-key"` },
        body: "x".repeat(300 * 1024),
      }),
    );
    expect(big.status).toBe(413);
    await deps.db.query("INSERT INTO fediverse_blocks (domain, created_at) VALUES ($1, now())", [new URL(peer.origin).host]);
    const blocked = await answerFediverse(
      deps,
      new Request(`${blog.origin}/fediverse/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json", signature: `keyId="${peer.origin}/users/alice#main-key"` },
        body: "{}",
      }),
    );
    expect(blocked.status).toBe(403);
    await deps.db.query("DELETE FROM fediverse_blocks");
  }, 60_000);

  /** A post published now, with a tag and a featured image, queued for the followers as the posts service queues it. */
  async function publishPost(title: string) {
    const { rows } = await deps.db.query<{ id: number; slug: string; updated_at: Date }>(
      `INSERT INTO posts (title, content, read_time, published, published_at, slug, featured_image_key, featured_image_alt, updated_at)
       VALUES ($1, '<p>The <strong>whole</strong> story.</p><p><img src="/api/files/images/inline.png" alt="inline"></p>', 1, true, now(), $2, 'images/cover.png', 'A cover', now())
       RETURNING id, slug, updated_at`,
      [title, title.toLowerCase().replace(/[^a-z0-9]+/g, "-")],
    );
    const post = rows[0] as { id: number; slug: string; updated_at: Date };
    await deps.db.query("INSERT INTO tags (slug, name) VALUES ('fundraising', 'Fundraising') ON CONFLICT DO NOTHING");
    await deps.db.query("INSERT INTO post_tags (post_id, tag_id) SELECT $1, id FROM tags WHERE slug = 'fundraising'", [post.id]);
    await queuePostHubPing(deps.db, deps, { ...post, published: true, category: null });
    return post;
  }
  // The post's page answers 200 and says it changed now (what a built page's modified time says).
  const live = { checkPage: () => Promise.resolve({ live: true, answer: "200", modifiedTime: new Date(Date.now() + 60_000).toISOString() }) };
  const sender = () => ({ db: deps.db, now: deps.now, sendFediverseActivity: fediverseSender(deps) });

  it("delivers a published post whole to the follower: HTML, hashtags, image with its alt", async () => {
    const post = await publishPost("Our seed round");
    expect(await promoteFediverseChanges({ ...deps, checkPage: live.checkPage })).toBe(1);
    const run = await deliverFediverse(sender());
    expect(run.sent).toBe(1);
    const create = peer.received.find((activity) => activity instanceof Create) as Create;
    const article = (await create.getObject()) as Article;
    expect(article).toBeInstanceOf(Article);
    expect(article.id?.href).toBe(`${blog.origin}/fediverse/posts/${String(post.id)}`);
    expect(article.content?.toString()).toContain("<strong>whole</strong>");
    expect(article.content?.toString()).toContain(`src="${blog.origin}/api/files/images/inline.png"`);
    expect(article.url instanceof URL ? article.url.href : "").toBe(`${blog.origin}/blog/${post.slug}`);
    const tags = [];
    for await (const tag of article.getTags()) tags.push(tag);
    expect(tags.map((tag) => (tag as Hashtag).name?.toString())).toEqual(["#fundraising"]);
    const images = [];
    for await (const attachment of article.getAttachments()) images.push(attachment);
    expect((images[0] as Image).name?.toString()).toBe("A cover");
    expect(article.published).not.toBeNull();
  }, 60_000);

  it("answers a post taken back with 410 and a Tombstone where its Article was; an id never used stays 404", async () => {
    const post = await publishPost("Shared, then taken back");
    const object = `${blog.origin}/fediverse/posts/${String(post.id)}`;
    const fetchObject = () => fetch(object, { headers: { accept: "application/activity+json" } });
    expect((await fetchObject()).status).toBe(200);
    await deps.db.query("UPDATE posts SET published = false, published_at = NULL, updated_at = now() WHERE id = $1", [post.id]);
    await queuePostHubPing(deps.db, deps, { ...post, published: false, category: null });

    const gone = await fetchObject();
    expect(gone.status).toBe(410);
    expect(gone.headers.get("content-type")).toBe("application/activity+json");
    // Read by Fedify's own vocabulary, as a peer reads it.
    const tombstone = await Tombstone.fromJsonLd(await gone.json(), {
      contextLoader: peer.ctx.contextLoader,
      documentLoader: peer.ctx.documentLoader,
    });
    expect(tombstone.id?.href).toBe(object);
    expect(tombstone.deleted).not.toBeNull();
    expect((await fetch(`${blog.origin}/fediverse/posts/2147483000`, { headers: { accept: "application/activity+json" } })).status).toBe(404);
    // Its changes never went out: the tests after this one deliver their own posts only.
    await deps.db.query("UPDATE fediverse_changes SET status = 'skipped' WHERE post_id = $1", [post.id]);
  }, 60_000);

  it("takes a reply as a held comment, shown with the author's handle after approval; counts likes and boosts", async () => {
    const { rows } = await deps.db.query<{ id: number }>("SELECT id FROM posts WHERE published ORDER BY id DESC LIMIT 1");
    const postId = (rows[0] as { id: number }).id;
    const object = new URL(`${blog.origin}/fediverse/posts/${String(postId)}`);
    const inbox = { id: new URL(`${blog.origin}/fediverse/actor`), inboxId: new URL(`${blog.origin}/fediverse/inbox`) };
    const note = new Note({
      id: new URL(`${peer.origin}/notes/1`),
      attribution: peer.actor,
      url: new URL(`${peer.origin}/@alice/1`),
      content: "<p>Great read, <b>thanks</b>!</p>",
      replyTarget: object,
      to: PUBLIC_COLLECTION,
    });
    await peer.ctx.sendActivity(
      { identifier: "alice" },
      inbox,
      new Create({ id: new URL(`${peer.origin}/creates/1`), actor: peer.actor, object: note }),
      {
        immediate: true,
      },
    );
    const held = await deps.db.query<{ id: number; status: string }>("SELECT id, status FROM comments WHERE fediverse_object_id = $1", [
      note.id?.href,
    ]);
    expect(held.rows.map((row) => row.status)).toEqual(["held"]);
    await moderateComments(deps, { ids: [(held.rows[0] as { id: number }).id], action: "approve" });
    const thread = await listPostComments({ ...deps }, postId, { kind: "visitor" });
    expect(thread.comments[0]).toMatchObject({
      author: { name: "Alice Peer", handle: `alice@${new URL(peer.origin).host}`, url: `${peer.origin}/@alice`, avatar: null },
      originalUrl: `${peer.origin}/@alice/1`,
    });
    expect(thread.comments[0]?.html).toContain("Great read, thanks!");

    await peer.ctx.sendActivity({ identifier: "alice" }, inbox, new Like({ id: new URL(`${peer.origin}/likes/1`), actor: peer.actor, object }), {
      immediate: true,
    });
    await peer.ctx.sendActivity(
      { identifier: "alice" },
      inbox,
      new Announce({ id: new URL(`${peer.origin}/boosts/1`), actor: peer.actor, object, to: PUBLIC_COLLECTION }),
      { immediate: true },
    );
    const counts = await deps.db.query<{ kind: string }>("SELECT kind FROM fediverse_reactions WHERE post_id = $1 ORDER BY kind", [postId]);
    expect(counts.rows.map((row) => row.kind)).toEqual(["boost", "like"]);
    // What GET /api/blog-posts/{id} answers.
    const answer = await getPost({ db: deps.db, urls: { file: deps.urls.file, isFile: () => false } }, postId, { includeDrafts: true });
    expect(answer.fediverse).toEqual({ likes: 1, boosts: 1, replies: 1 });
    // An Undo of the like takes it back.
    await peer.ctx.sendActivity(
      { identifier: "alice" },
      inbox,
      new Undo({
        id: new URL(`${peer.origin}/undos/1`),
        actor: peer.actor,
        object: new Like({ id: new URL(`${peer.origin}/likes/1`), actor: peer.actor, object }),
      }),
      { immediate: true },
    );
    const after = await getPost({ db: deps.db, urls: { file: deps.urls.file, isFile: () => false } }, postId, { includeDrafts: true });
    expect(after.fediverse).toEqual({ likes: 0, boosts: 1, replies: 1 });
  }, 60_000);

  it("gets a post to a peer that was down once it is back, exactly once (fake clock for the retry)", async () => {
    const clock = createFakeClock(new Date());
    const down = { ...sender(), now: clock.now };
    await publishPost("While you were away");
    await promoteFediverseChanges({ ...deps, checkPage: live.checkPage });
    await new Promise<void>((resolve) => {
      peer.server.close(() => resolve());
      peer.server.closeAllConnections();
    });
    const first = await deliverFediverse(down);
    expect(first.retried).toBe(1);
    // Not due yet: nothing is tried.
    expect((await deliverFediverse(down)).retried + (await deliverFediverse(down)).sent).toBe(0);
    peer = await startPeer(Number(new URL(peer.origin).port));
    clock.advance(fediverseRetryDelayMs(1));
    const second = await deliverFediverse(down);
    expect(second.sent).toBe(1);
    expect(peer.received.length).toBe(1);
    expect((await deliverFediverse(down)).sent).toBe(0);
  }, 60_000);
});
