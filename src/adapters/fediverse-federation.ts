import { createFederation, SendActivityError, type Context, type Federation } from "@fedify/fedify";
import {
  Accept,
  Announce,
  Article,
  Create,
  Delete,
  Endpoints,
  Follow,
  Hashtag,
  Image,
  Like,
  Note,
  PUBLIC_COLLECTION,
  Service,
  Tombstone,
  Undo,
  Update,
  type Actor,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { createRemoteComment, deleteRemoteComment, updateRemoteComment } from "../core/comments/comments.service.ts";
import type { SqlExecutor } from "../core/db/sql-executor.ts";
import { AppError, RateLimitedError } from "../core/errors.ts";
import { FediverseSendFailure, type SendFediverseActivity } from "../core/fediverse/fediverse-delivery.ts";
import { takeRateLimit, type RateLimit } from "../core/rate-limit.ts";
import { siteSettingValues } from "../core/settings/settings.service.ts";
import type { Clock } from "../core/shared/clock.ts";
import type { Site } from "../core/shared/site.ts";
import { dbKvStore } from "./fediverse-kv-store.ts";
import { fediversePaths } from "../core/fediverse/paths.ts";
import { siteKeyPairs } from "./fediverse-keys.ts";
import { readUpTo } from "../core/shared/read-up-to.ts";

/**
 * The site's ActivityPub side on Fedify (issue 45; docs/fediverse.md; decision 0087): WebFinger,
 * NodeInfo, the actor (a Service), each post as an Article, and the inbox's listeners. Fedify
 * verifies every inbox POST's signature (draft-cavage and RFC 9421) and Digest; it has no message
 * queue here: what the site sends goes through the delivery engine (fediverse-delivery.ts).
 */

/** What the federation needs. */
export interface FediverseDeps {
  db: SqlExecutor;
  now: Clock["now"];
  site: Site;
  /** Where a stored file is served (`/api/files/images/…`). */
  urls: { file: (key: string) => string };
  /** Remote fetches may reach loopback and private addresses: under `npm start` and tests only (the import's rule). */
  allowPrivateAddress: boolean;
}

/** The actor's identifier in Fedify's routes: its path is `/fediverse/actor`. */
export const actorIdentifier = "actor";

/** The header image: the site's default share image (public/og-default.png). */
const defaultShareImage = "/og-default.png";

/** A signed request may be this far from our clock (issue 45 point 4). */
export const signatureWindowMinutes = 5;

const federations = new WeakMap<FediverseDeps["db"], Federation<void>>();

interface PostRow {
  id: number;
  title: string;
  content: string;
  excerpt: string | null;
  slug: string;
  published: boolean;
  published_at: Date | null;
  updated_at: Date;
  featured_image_key: string | null;
  featured_image_alt: string | null;
}

/** A post's id in its object URL (`/fediverse/posts/{id}`): a row id, no leading zero. */
const postIdPattern = /^[1-9]\d{0,9}$/;

/** A post's page (`/blog/{slug}`), as src/core/posts/post-slug-rules.ts writes it. */
const pagePath = (slug: string) => `/blog/${slug}`;

/** Relative links and images of a post's HTML made absolute: a remote server shows it away from the site. */
const absoluteHtml = (html: string, site: Site) => html.replace(/(\s(?:src|href)=")\/(?!\/)/g, `$1${site.url}/`);

export async function publishedPost(db: SqlExecutor, id: number): Promise<(PostRow & { tags: string[] }) | undefined> {
  const { rows } = await db.query<PostRow & { tags: string[] | null }>(
    `SELECT p.id, p.title, p.content, p.excerpt, p.slug, p.published, p.published_at, p.updated_at, p.featured_image_key, p.featured_image_alt,
            (SELECT array_agg(t.slug ORDER BY pt.position) FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id) AS tags
       FROM posts p WHERE p.id = $1 AND p.published`,
    [id],
  );
  const row = rows[0];
  return row ? { ...row, tags: row.tags ?? [] } : undefined;
}

/** A post as an Article: the whole HTML (or its excerpt and a link: `fediverse_content`), its image with alt, tags as hashtags. */
export function postArticle(ctx: Context<void>, deps: FediverseDeps, post: PostRow & { tags: string[] }, content: "full" | "excerpt"): Article {
  const url = new URL(deps.site.absolute(pagePath(post.slug)));
  const html =
    content === "full"
      ? absoluteHtml(post.content, deps.site)
      : `<p>${escapeHtml(post.excerpt ?? post.title)}</p><p><a href="${url.href}">${escapeHtml(url.href)}</a></p>`;
  return new Article({
    id: ctx.getObjectUri(Article, { id: String(post.id) }),
    attribution: ctx.getActorUri(actorIdentifier),
    name: post.title,
    content: html,
    summary: post.excerpt,
    url,
    published: Temporal.Instant.from(new Date(post.published_at ?? post.updated_at).toISOString()),
    updated: Temporal.Instant.from(new Date(post.updated_at).toISOString()),
    to: PUBLIC_COLLECTION,
    cc: new URL(deps.site.absolute(fediversePaths.followers)),
    attachments: post.featured_image_key
      ? [new Image({ url: new URL(deps.site.absolute(deps.urls.file(post.featured_image_key))), name: post.featured_image_alt ?? "" })]
      : [],
    tags: post.tags.map((slug) => new Hashtag({ href: new URL(deps.site.absolute(`/blog/tag/${slug}/`)), name: `#${slug.replace(/-/g, "")}` })),
  });
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The text of a Note's HTML: tags dropped, breaks and paragraphs kept as new lines, entities read. */
export function noteText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>\s*<p[^>]*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .trim();
}

/** An actor's host (with its port when it has one): their server. */
export const serverOf = (id: URL | string) => new URL(id).host.toLowerCase();

/** What the site knows of a remote actor: for a follower row and a comment's author. */
export async function actorFacts(actor: Actor, ctx: Context<void>) {
  const id = actor.id as URL;
  const username = actor.preferredUsername?.toString() ?? id.pathname.split("/").pop() ?? "someone";
  const icon = await actor.getIcon(ctx).catch(() => null);
  const iconUrl = icon?.url instanceof URL ? icon.url.href : (icon?.url?.href?.href ?? null);
  const url = actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? id.href);
  return {
    actorId: id.href,
    handle: `${username}@${serverOf(id)}`,
    server: serverOf(id),
    name: actor.name?.toString() ?? username,
    url,
    avatar: iconUrl,
    inbox: actor.inboxId?.href ?? null,
    sharedInbox: actor.endpoints?.sharedInbox?.href ?? null,
  };
}

/** The post an object id names (`/fediverse/posts/{id}`, or the post's page), or undefined. */
async function postOf(ctx: Context<void>, deps: FediverseDeps, object: URL | null): Promise<number | undefined> {
  if (!object) return undefined;
  const parsed = ctx.parseUri(object);
  if (parsed?.type === "object" && parsed.class === Article) {
    const id = Number(parsed.values.id);
    return Number.isSafeInteger(id) ? id : undefined;
  }
  if (object.origin !== new URL(deps.site.url).origin) return undefined;
  const slug = /^\/blog\/([^/]+)\/?$/.exec(object.pathname)?.[1];
  if (!slug) return undefined;
  const { rows } = await deps.db.query<{ id: number }>("SELECT id FROM posts WHERE slug = $1 AND published", [decodeURIComponent(slug)]);
  return rows[0]?.id;
}

/** Queues the Accept of a follow: a delivery row, sent by the engine right after the answer (and by the watchdog within a minute). */
async function queueAccept(deps: FediverseDeps, follower: { actorId: string; inbox: string; server: string }, followId: string) {
  const now = deps.now();
  await deps.db.query(
    `INSERT INTO fediverse_deliveries (activity, post_id, payload, recipient_id, inbox, server, created_at, updated_at)
     VALUES ('Accept', NULL, $1::jsonb, $2, $3, $4, $5, $5)`,
    [JSON.stringify({ followId, actorId: follower.actorId }), follower.actorId, follower.inbox, follower.server, now],
  );
}

/** A server that acts again is no longer given up on (its deliveries go again). */
async function serverIsBack(deps: FediverseDeps, server: string) {
  await deps.db.query("UPDATE fediverse_servers SET given_up_at = NULL, failing_since = NULL WHERE server = $1 AND given_up_at IS NOT NULL", [
    server,
  ]);
}

/** The site's federation over `deps` (one per database, kept: its routes and listeners are set once). */
export function siteFederation(deps: FediverseDeps): Federation<void> {
  const known = federations.get(deps.db);
  if (known) return known;
  const federation = createFederation<void>({
    kv: dbKvStore(deps),
    origin: deps.site.url,
    allowPrivateAddress: deps.allowPrivateAddress,
    signatureTimeWindow: { minutes: signatureWindowMinutes },
    // Retries, backoff and giving up are the delivery engine's (fediverse-delivery.ts).
    circuitBreaker: false,
    userAgent: { software: "NoFilter/1" },
  });

  federation
    .setActorDispatcher("/fediverse/{identifier}", async (ctx, identifier) => {
      if (identifier !== actorIdentifier) return null;
      const settings = await siteSettingValues({ db: deps.db });
      const keys = await ctx.getActorKeyPairs(identifier);
      return new Service({
        id: ctx.getActorUri(identifier),
        preferredUsername: settings.fediverse_handle || "nofilter",
        name: deps.site.name,
        summary: settings.hero_description ? `<p>${escapeHtml(settings.hero_description)}</p>` : null,
        url: new URL(deps.site.url + "/"),
        inbox: ctx.getInboxUri(),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        outbox: new URL(deps.site.absolute(fediversePaths.outbox)),
        followers: new URL(deps.site.absolute(fediversePaths.followers)),
        icon: new Image({ url: new URL(deps.site.absolute("/favicon.svg")), mediaType: "image/svg+xml" }),
        image: new Image({ url: new URL(deps.site.absolute(defaultShareImage)), mediaType: "image/png" }),
        manuallyApprovesFollowers: false,
        discoverable: true,
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((key) => key.multikey),
      });
    })
    .mapHandle(async (_ctx, username) => {
      const settings = await siteSettingValues({ db: deps.db });
      return username.toLowerCase() === (settings.fediverse_handle || "nofilter") ? actorIdentifier : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => (identifier === actorIdentifier ? siteKeyPairs(deps) : []));

  federation.setObjectDispatcher(Article, "/fediverse/posts/{id}", async (ctx, values) => {
    const id = Number(values.id);
    if (!postIdPattern.test(values.id)) return null;
    const post = await publishedPost(deps.db, id);
    if (!post) return null;
    const settings = await siteSettingValues({ db: deps.db });
    return postArticle(ctx, deps, post, settings.fediverse_content === "excerpt" ? "excerpt" : "full");
  });

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => {
    const { rows } = await deps.db.query<{ posts: number }>("SELECT count(*)::int AS posts FROM posts WHERE published");
    return {
      software: { name: "nofilter", version: "1.0.0", homepage: new URL(deps.site.url + "/") },
      protocols: ["activitypub"],
      openRegistrations: false,
      usage: { users: { total: 1, activeMonth: 1, activeHalfyear: 1 }, localPosts: rows[0]?.posts ?? 0, localComments: 0 },
    };
  });

  federation
    .setInboxListeners("/fediverse/{identifier}/inbox", fediversePaths.inbox)
    .on(Follow, async (ctx, follow) => {
      if (!follow.id || !follow.actorId) return;
      const target = follow.objectId ? ctx.parseUri(follow.objectId) : null;
      if (target?.type !== "actor" || target.identifier !== actorIdentifier) return;
      const actor = await follow.getActor(ctx);
      if (!actor?.id) return;
      const facts = await actorFacts(actor, ctx);
      const inbox = facts.sharedInbox ?? facts.inbox;
      if (!inbox || facts.inbox === null) return;
      const now = deps.now();
      await deps.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ inserted: boolean }>(
          `INSERT INTO fediverse_followers (actor_id, actor_url, inbox, shared_inbox, handle, server, name, avatar, follow_id, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (actor_id) DO UPDATE SET actor_url = excluded.actor_url, inbox = excluded.inbox, shared_inbox = excluded.shared_inbox,
             handle = excluded.handle, name = excluded.name, avatar = excluded.avatar, follow_id = excluded.follow_id
           RETURNING (xmax = 0) AS inserted`,
          [facts.actorId, facts.url, facts.inbox, facts.sharedInbox, facts.handle, facts.server, facts.name, facts.avatar, follow.id?.href, now],
        );
        if (rows[0]?.inserted)
          await tx.query("INSERT INTO fediverse_follower_events (actor_id, change, at) VALUES ($1, 1, $2)", [facts.actorId, now]);
      });
      await serverIsBack(deps, facts.server);
      // The Accept goes to the follower's own inbox: it names their Follow.
      await queueAccept(deps, { actorId: facts.actorId, inbox: facts.inbox, server: facts.server }, follow.id.href);
    })
    .on(Undo, async (ctx, undo) => {
      const actorId = undo.actorId?.href;
      if (!actorId) return;
      const object = await undo.getObject({ ...ctx, suppressError: true }).catch(() => null);
      if (object instanceof Follow) {
        const { rows } = await deps.db.query<{ id: number }>("DELETE FROM fediverse_followers WHERE actor_id = $1 RETURNING id", [actorId]);
        if (rows.length > 0)
          await deps.db.query("INSERT INTO fediverse_follower_events (actor_id, change, at) VALUES ($1, -1, $2)", [actorId, deps.now()]);
        return;
      }
      if (object instanceof Like || object instanceof Announce) {
        const kind = object instanceof Like ? "like" : "boost";
        const postId = await postOf(ctx, deps, object.objectId);
        await deps.db.query("DELETE FROM fediverse_reactions WHERE actor_id = $1 AND kind = $2 AND (activity_id = $3 OR post_id = $4::int)", [
          actorId,
          kind,
          object.id?.href ?? null,
          postId ?? null,
        ]);
      }
    })
    .on(Create, async (ctx, create) => {
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !create.actorId) return;
      const postId = await postOf(ctx, deps, note.replyTargetId);
      if (postId === undefined) return;
      const actor = await create.getActor(ctx);
      if (!actor?.id || actor.id.href !== create.actorId.href) return;
      const facts = await actorFacts(actor, ctx);
      const original = note.url instanceof URL ? note.url.href : (note.url?.href?.href ?? note.id.href);
      await createRemoteComment(deps, {
        postId,
        objectId: note.id.href,
        actorId: facts.actorId,
        name: facts.name,
        handle: facts.handle,
        url: facts.url,
        avatar: facts.avatar,
        originalUrl: original,
        body: noteText(note.content?.toString() ?? ""),
      });
    })
    .on(Update, async (ctx, update) => {
      const note = await update.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !update.actorId) return;
      await updateRemoteComment(deps, note.id.href, update.actorId.href, noteText(note.content?.toString() ?? ""));
    })
    .on(Delete, async (_ctx, del) => {
      if (!del.objectId || !del.actorId) return;
      await deleteRemoteComment(deps.db, del.objectId.href, del.actorId.href);
    })
    .on(Like, async (ctx, like) => react(ctx, deps, "like", like.actorId, like.objectId, like.id))
    .on(Announce, async (ctx, announce) => react(ctx, deps, "boost", announce.actorId, announce.objectId, announce.id));

  federations.set(deps.db, federation);
  return federation;
}

async function react(ctx: Context<void>, deps: FediverseDeps, kind: "like" | "boost", actor: URL | null, object: URL | null, id: URL | null) {
  if (!actor) return;
  const postId = await postOf(ctx, deps, object);
  if (postId === undefined) return;
  await deps.db.query(
    `INSERT INTO fediverse_reactions (post_id, kind, actor_id, activity_id, created_at)
     SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM posts WHERE id = $1 AND published)
     ON CONFLICT (post_id, kind, actor_id) DO UPDATE SET activity_id = excluded.activity_id`,
    [postId, kind, actor.href, id?.href ?? null, deps.now()],
  );
}

/** The Accept of a follow, as the engine sends it. */
export function acceptActivity(ctx: Context<void>, followId: string, actorId: string): Accept {
  return new Accept({
    id: new URL(`${ctx.getActorUri(actorIdentifier).href}#accepts/${encodeURIComponent(followId)}`),
    actor: ctx.getActorUri(actorIdentifier),
    to: new URL(actorId),
    object: new Follow({ id: new URL(followId), actor: new URL(actorId), object: ctx.getActorUri(actorIdentifier) }),
  });
}

/** A post's Delete: a Tombstone where the Article was. */
export function deleteActivity(ctx: Context<void>, deps: FediverseDeps, postId: number, changeId: number): Delete {
  const object = ctx.getObjectUri(Article, { id: String(postId) });
  return new Delete({
    id: new URL(`${object.href}#delete-${String(changeId)}`),
    actor: ctx.getActorUri(actorIdentifier),
    to: PUBLIC_COLLECTION,
    cc: new URL(deps.site.absolute(fediversePaths.followers)),
    object: new Tombstone({ id: object }),
  });
}

/** A post's Create (its first delivery) or Update (after an edit). */
export function postActivity(ctx: Context<void>, deps: FediverseDeps, article: Article, kind: "Create" | "Update", changeId: number) {
  const values = {
    id: new URL(`${(article.id as URL).href}#${kind.toLowerCase()}-${String(changeId)}`),
    actor: ctx.getActorUri(actorIdentifier),
    to: PUBLIC_COLLECTION,
    cc: new URL(deps.site.absolute(fediversePaths.followers)),
    object: article,
    published: article.published as Temporal.Instant | null,
  };
  return kind === "Create" ? new Create(values) : new Update({ ...values, updated: article.updated as Temporal.Instant | null });
}

/** An inbox POST's body above this is refused before it is read further (413): Mastodon's own limit is far below. */
export const inboxMaxBytes = 256 * 1024;

/** Inbox POSTs one server may make (decision 0087): a busy Mastodon's burst after a post fits well under it. */
export const inboxServerLimit: RateLimit = { bucket: "fediverse-inbox", max: 300, windowMs: 5 * 60_000 };

const jsonError = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } });

/** The key's host a signed request names (draft-cavage `Signature: keyId="…"`, or RFC 9421 `Signature-Input: …;keyid="…"`). */
export function signerHost(request: Request): string | undefined {
  const header = request.headers.get("signature") ?? "";
  const keyId = /keyId="([^"]+)"/i.exec(header)?.[1] ?? /keyid="([^"]+)"/i.exec(request.headers.get("signature-input") ?? "")?.[1];
  if (!keyId) return undefined;
  try {
    return serverOf(keyId);
  } catch {
    return undefined;
  }
}

const activityJson = { "content-type": "application/activity+json", "cache-control": "public, max-age=60" };

/** The outbox and followers collections: counts and the latest posts, no follower listed (as Mastodon shows them to strangers). */
async function collection(deps: FediverseDeps, which: "outbox" | "followers"): Promise<Response> {
  const id = deps.site.absolute(which === "outbox" ? fediversePaths.outbox : fediversePaths.followers);
  const table = which === "outbox" ? "posts WHERE published" : "fediverse_followers";
  const { rows } = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table}`);
  const document = { "@context": "https://www.w3.org/ns/activitystreams", id, type: "OrderedCollection", totalItems: rows[0]?.total ?? 0 };
  return new Response(JSON.stringify(document), { headers: activityJson });
}

/**
 * One request to the site's ActivityPub side (`/.well-known/webfinger`, `/.well-known/nodeinfo`,
 * `/nodeinfo/2.1`, `/fediverse/*`). An inbox POST is refused before Fedify reads it when it is too
 * big (413), from a blocked server (403) or over its server's rate (429): nothing is stored for it.
 * Fedify then verifies its signature (401 for none or a bad one, 5 minutes of clock skew at most)
 * and its Digest (400).
 */
export async function answerFediverse(
  deps: FediverseDeps & { env?: { RATE_LIMIT_MULTIPLIER?: number | undefined } },
  request: Request,
): Promise<Response> {
  const url = new URL(request.url);
  if (request.method === "GET" && url.pathname === fediversePaths.outbox) return collection(deps, "outbox");
  if (request.method === "GET" && url.pathname === fediversePaths.followers) return collection(deps, "followers");
  let forward = request;
  if (request.method === "POST") {
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > inboxMaxBytes) return jsonError(413, `The body is over ${String(inboxMaxBytes)} bytes`);
    const host = signerHost(request);
    if (!host) return jsonError(401, "The request is not signed");
    const { rows } = await deps.db.query("SELECT 1 FROM fediverse_blocks WHERE domain = $1", [host]);
    if (rows.length > 0) return jsonError(403, "This server is blocked");
    try {
      await takeRateLimit(deps, inboxServerLimit, host);
    } catch (error) {
      if (error instanceof RateLimitedError)
        return new Response(JSON.stringify({ error: "Too many requests from this server" }), {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": String(error.retryAfterSeconds) },
        });
      throw error;
    }
    const body = await readUpTo(request.body, inboxMaxBytes);
    if (!body) return jsonError(413, `The body is over ${String(inboxMaxBytes)} bytes`);
    forward = new Request(request.url, { method: "POST", headers: request.headers, body });
  }
  const federation = siteFederation(deps);
  return federation.fetch(forward, {
    contextData: undefined,
    onNotFound: async (notFound) => (await goneArticle(deps, federation, notFound)) ?? jsonError(404, "Not found"),
    onNotAcceptable: () => jsonError(406, "Ask for application/activity+json"),
  });
}

/**
 * A post taken back from its followers (deleted or unpublished: its last change says `gone`)
 * answers 410 with a Tombstone where its Article was, as Fedify answers for a gone actor, so a
 * server that fetches it again learns it was deleted, not that it never existed. Fedify's object
 * dispatcher has no Tombstone answer (2.3), so its not-found answer is where this is decided.
 */
async function goneArticle(deps: FediverseDeps, federation: Federation<void>, request: Request): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const ctx = federation.createContext(new URL(deps.site.url), undefined);
  const parsed = ctx.parseUri(new URL(request.url));
  if (parsed?.type !== "object" || parsed.class !== Article || !postIdPattern.test(parsed.values.id ?? "")) return undefined;
  const { rows } = await deps.db.query<{ expect: string; created_at: Date }>(
    "SELECT expect, created_at FROM fediverse_changes WHERE post_id = $1 ORDER BY id DESC LIMIT 1",
    [Number(parsed.values.id)],
  );
  const last = rows[0];
  if (last?.expect !== "gone") return undefined;
  const tombstone = new Tombstone({
    id: ctx.getObjectUri(Article, { id: String(parsed.values.id) }),
    formerType: Article,
    deleted: Temporal.Instant.from(new Date(last.created_at).toISOString()),
  });
  return new Response(JSON.stringify(await tombstone.toJsonLd(ctx)), {
    status: 410,
    headers: { "content-type": "application/activity+json", vary: "Accept" },
  });
}

/** The engine's `send` port: rebuilds the row's activity and has Fedify sign (draft-cavage, and proofs) and POST it to the one inbox. */
export function fediverseSender(deps: FediverseDeps): SendFediverseActivity {
  return async (row) => {
    const federation = siteFederation(deps);
    const ctx = federation.createContext(new URL(deps.site.url), undefined);
    let activity: Accept | Create | Update | Delete;
    const changeId = Number(row.payload.changeId ?? row.id);
    if (row.activity === "Accept") {
      activity = acceptActivity(ctx, String(row.payload.followId), String(row.payload.actorId));
    } else if (row.activity === "Delete") {
      activity = deleteActivity(ctx, deps, row.postId ?? 0, changeId);
    } else {
      const post = row.postId === null ? undefined : await publishedPost(deps.db, row.postId);
      if (!post) throw new AppError("The post is no longer published", 410);
      const settings = await siteSettingValues({ db: deps.db });
      const article = postArticle(ctx, deps, post, settings.fediverse_content === "excerpt" ? "excerpt" : "full");
      activity = postActivity(ctx, deps, article, row.activity, changeId);
    }
    try {
      await ctx.sendActivity({ identifier: actorIdentifier }, { id: new URL(row.recipientId), inboxId: new URL(row.inbox) }, activity, {
        immediate: true,
        fanout: "skip",
      });
    } catch (error) {
      const status = error instanceof SendActivityError ? error.statusCode : null;
      throw new FediverseSendFailure(error instanceof Error ? error.message.slice(0, 300) : String(error), status, { cause: error });
    }
  };
}
