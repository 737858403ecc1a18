import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Post } from "../../core/posts/post.schema.ts";
import type { PreviewLink } from "../../core/posts/preview-link.schema.ts";
import { answerPreview } from "../preview-page.ts";

let app: TestApp;
let clock: FakeClock;
let admin: Record<string, string>;
const hour = 60 * 60 * 1000;

const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
  app.call(path, { method, headers: { ...headers, "content-type": "application/json" }, ...(body !== undefined && { body: JSON.stringify(body) }) });
const sendPost = async (method: string, path: string, form: FormFields) => {
  const { body, contentType } = await multipartBody(form);
  const response = await app.call(path, { method, headers: { ...admin, "content-type": contentType }, body });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
  return (await response.json()) as Post;
};
const createDraft = (fields: FormFields = {}) =>
  sendPost("POST", "/api/blog-posts", { title: "Runway math", content: "<p>Count the months.</p>", excerpt: "Months left.", ...fields });
const makeLink = async (postId: number, expiresInHours = 168) => {
  const response = await json("POST", `/api/blog-posts/${String(postId)}/preview-links`, { expiresInHours });
  expect(response.status).toBe(201);
  return (await response.json()) as PreviewLink;
};

/** The preview address opened as a visitor would, with the templates the build would have made. */
const templatesAsked: string[] = [];
const openLink = (url: string) =>
  answerPreview(app.deps, new Request(url), (path) => {
    templatesAsked.push(path);
    return Promise.resolve(`<html><h1>NfPreviewTitleToken</h1><p>NfPreviewExcerptToken</p><p>NfPreviewBodyToken</p></html>`);
  });

beforeAll(async () => {
  clock = createFakeClock(new Date("2026-11-24T12:00:00Z"));
  app = await createTestApp({ clock });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  templatesAsked.length = 0;
  await app.deps.db.query("DELETE FROM posts");
});

describe("preview links API", () => {
  it("makes a link of a draft (201, absolute on SITE_URL, 7 days from now), lists it, revokes it (204)", async () => {
    const post = await createDraft();
    const link = await makeLink(post.id);
    expect(link.url).toMatch(new RegExp(`^${testOrigin}/preview/${String(link.id)}/[0-9a-f]{32}\\.[A-Za-z0-9_-]{43}$`));
    expect(link).toMatchObject({ expiresAt: "2026-12-01T12:00:00.000Z", views: 0 });
    const listed = await json("GET", `/api/blog-posts/${String(post.id)}/preview-links`);
    expect(await listed.json()).toEqual([link]);
    expect((await json("DELETE", `/api/preview-links/${String(link.id)}`)).status).toBe(204);
    expect((await json("DELETE", `/api/preview-links/${String(link.id)}`)).status).toBe(404);
    expect(await (await json("GET", `/api/blog-posts/${String(post.id)}/preview-links`)).json()).toEqual([]);
  });

  it("refuses a lifetime outside 1–720 hours, a published post (409), an unknown post (404) and no session (401)", async () => {
    const post = await createDraft();
    for (const expiresInHours of [0, 721, 1.5, "24"]) {
      const response = await json("POST", `/api/blog-posts/${String(post.id)}/preview-links`, { expiresInHours });
      expect(response.status, String(expiresInHours)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/expiresInHours/);
    }
    const live = await createDraft({ title: "Live", published: "true" });
    expect((await json("POST", `/api/blog-posts/${String(live.id)}/preview-links`, { expiresInHours: 1 })).status).toBe(409);
    expect((await json("POST", "/api/blog-posts/999999/preview-links", { expiresInHours: 1 })).status).toBe(404);
    const anonymous = { origin: testOrigin };
    expect((await json("POST", `/api/blog-posts/${String(post.id)}/preview-links`, { expiresInHours: 1 }, anonymous)).status).toBe(401);
    expect((await json("GET", `/api/blog-posts/${String(post.id)}/preview-links`, undefined, anonymous)).status).toBe(401);
    expect((await json("DELETE", "/api/preview-links/1", undefined, anonymous)).status).toBe(401);
  });
});

describe("the preview page", () => {
  it("shows the draft as it is now, with noindex and no-store, and counts each view", async () => {
    const post = await createDraft({ category: "Cash Flow" });
    const link = await makeLink(post.id);
    const first = await openLink(link.url);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(await first.text()).toContain("<h1>Runway math</h1>");
    expect(templatesAsked).toEqual(["/preview-template-plain-excerpt-cash-flow/"]);

    // Editing the draft changes what the link shows.
    await sendPost("PUT", `/api/blog-posts/${String(post.id)}`, { title: "Runway math, <revised>", content: "<p>Count again.</p>", excerpt: "" });
    const second = await (await openLink(link.url)).text();
    expect(second).toContain("<h1>Runway math, &lt;revised&gt;</h1>");
    expect(second).toContain("<p>Count again.</p>");
    expect(templatesAsked.at(-1)).toBe("/preview-template-plain-bare-none/");
    // A HEAD request (a link checker, a chat app's unfurl check) is answered but not counted.
    expect((await answerPreview(app.deps, new Request(link.url, { method: "HEAD" }), () => Promise.resolve(""))).status).toBe(200);
    expect(await (await json("GET", `/api/blog-posts/${String(post.id)}/preview-links`)).json()).toEqual([{ ...link, views: 2 }]);
  });

  it("answers 410 once the link has expired (on the clock) or was revoked, and 404 for a forged one", async () => {
    const post = await createDraft();
    const shortLived = await makeLink(post.id, 1);
    const revoked = await makeLink(post.id, 24);
    expect((await openLink(shortLived.url)).status).toBe(200);
    clock.advance(hour);
    const expired = await openLink(shortLived.url);
    expect(expired.status).toBe(410);
    expect(expired.headers.get("x-robots-tag")).toBe("noindex");
    expect(templatesAsked.at(-1)).toBe("/preview-template-gone/");

    expect((await openLink(revoked.url)).status).toBe(200);
    await json("DELETE", `/api/preview-links/${String(revoked.id)}`);
    expect((await openLink(revoked.url)).status).toBe(410);

    const forged = revoked.url.replace(/\/[^/]+$/, "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expect((await openLink(forged)).status).toBe(404);
    expect((await openLink(`${testOrigin}/preview/abc/def`)).status).toBe(404);
  });

  it("never opens another draft under an old address when a restore brings other rows back under the same ids", async () => {
    const shared = await createDraft({ title: "Shared draft" });
    const link = await makeLink(shared.id);
    expect(await (await openLink(link.url)).text()).toContain("<h1>Shared draft</h1>");
    // What a restore of another site's archive writes: its own posts and links, under the ids this site used.
    await app.deps.db.query("DELETE FROM posts");
    await app.deps.db.query(
      "INSERT INTO posts (id, title, content, slug) OVERRIDING SYSTEM VALUE VALUES ($1, 'Secret draft', '<p>Not for them.</p>', 'secret-draft')",
      [shared.id],
    );
    await app.deps.db.query("INSERT INTO preview_links (id, post_id, expires_at, created_at) OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4)", [
      link.id,
      shared.id,
      new Date(clock.now().getTime() + 24 * hour),
      clock.now(),
    ]);
    const answer = await openLink(link.url);
    expect(answer.status).toBe(410);
    expect(await answer.text()).not.toContain("Secret draft");
  });

  it("redirects to the live post once the post is published, even after the link's expiry", async () => {
    const post = await createDraft();
    const link = await makeLink(post.id, 1);
    const published = await sendPost("PUT", `/api/blog-posts/${String(post.id)}`, {
      title: "Runway math",
      content: "<p>Count the months.</p>",
      published: "true",
    });
    clock.advance(2 * hour);
    const answer = await openLink(link.url);
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(published.url);
  });
});
