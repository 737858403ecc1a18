import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createFederation, generateCryptoKeyPair, MemoryKvStore, type Federation } from "@fedify/fedify";
import { Accept, Create, Endpoints, Follow, Person, type Object as APObject } from "@fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWebResponse, toWebRequest } from "../../netlify/local/node-http.ts";
import { databaseTargets, type TestDatabase } from "../../tests/support/test-databases.ts";
import { deliverFediverse } from "../core/fediverse/fediverse-delivery.ts";
import { systemClock } from "../core/shared/clock.ts";
import { siteAt } from "../core/shared/site.ts";
import { answerFediverse, fediverseSender, type FediverseDeps } from "./fediverse-federation.ts";

/** Serves `answer` on a loopback port; answers its address. */
async function serve(answer: (request: Request) => Promise<Response>): Promise<{ server: Server; origin: string }> {
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}` };
}

/** A small Mastodon-like peer on Fedify: one Person, `alice`, whose inbox keeps what arrives. */
async function startPeer() {
  const received: APObject[] = [];
  const keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), await generateCryptoKeyPair("Ed25519")];
  const holder: { federation?: Federation<void> } = {};
  const { server, origin } = await serve((request) => (holder.federation as Federation<void>).fetch(request, { contextData: undefined }));
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
  return { server, origin, received, ctx, actor: ctx.getActorUri("alice") };
}

describe.each(databaseTargets)("the site's actor against a Fedify peer on $name", (target) => {
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
});
