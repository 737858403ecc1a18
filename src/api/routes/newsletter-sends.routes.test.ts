import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";

// The admin API over the send queue (the queue itself: src/core/newsletter/newsletter-send.test.ts).
const clock = createFakeClock();
/** The sink refuses these for good (550), until a test lets them through. */
const refused = new Set(["bounce@example.com"]);
let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ now: () => clock.now(), smtp: { reject: (address) => (refused.has(address) ? 550 : undefined) } });
  admin = await app.adminHeaders();
  await app.deps.db.query("INSERT INTO subscribers (email, status, source) SELECT unnest($1::text[]), 'active', 'import'", [
    ["one@example.com", "two@example.com", "bounce@example.com"],
  ]);
});
afterAll(async () => {
  await app.close();
});

async function addPost(published: boolean): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Runway math', '<p>Count the months.</p>', 'Count them', $1, $2) RETURNING id",
    [published, published ? clock.now() : null],
  );
  return (rows[0] as { id: number }).id;
}

async function pageOf(postId: number): Promise<string> {
  const { rows } = await app.deps.db.query<{ slug: string }>("SELECT slug FROM posts WHERE id = $1", [postId]);
  return `${testOrigin}/blog/${(rows[0] as { slug: string }).slug}`;
}

const post = (path: string, body?: unknown, headers = admin) =>
  app.call(path, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe("the newsletter send API", () => {
  it("answers 401 without a session", async () => {
    expect((await post("/api/newsletter/sends", { postId: 1 }, { origin: testOrigin })).status).toBe(401);
    expect((await app.call("/api/newsletter/sends")).status).toBe(401);
  });

  it("starts a send (202), shows its progress, lists its failures, retries only those, and refuses a second send (409)", async () => {
    const postId = await addPost(true);
    const started = await post("/api/newsletter/sends", { postId });
    expect(started.status).toBe(202);
    const send = (await started.json()) as { id: number; total: number; status: string };
    expect(send).toMatchObject({ total: 3, status: "queued" });
    // In production this starts the Background Function at once (the test app counts the kicks).
    expect(app.kicks.count).toBe(1);
    expect((await post("/api/newsletter/sends", { postId })).status).toBe(409);
    expect(app.kicks.count).toBe(1);

    await runSendWorker(app.deps, send.id);
    const status = (await (await app.call(`/api/newsletter/sends/${String(send.id)}`, { headers: admin })).json()) as unknown;
    expect(status).toMatchObject({ id: send.id, postId, status: "sent", total: 3, sent: 2, failed: 1, skipped: 0, pending: 0 });
    const failed = (await (await app.call(`/api/newsletter/sends/${String(send.id)}/failed`, { headers: admin })).json()) as { email: string }[];
    expect(failed).toEqual([{ email: "bounce@example.com", error: expect.stringContaining("550") as string, attempts: 1 }]);
    const history = (await (await app.call(`/api/newsletter/sends?postId=${String(postId)}`, { headers: admin })).json()) as { id: number }[];
    expect(history.map((entry) => entry.id)).toEqual([send.id]);

    // The mailbox exists again: "Retry failed" sends to it, and to nobody who already has the email.
    refused.clear();
    app.mail.clear();
    const retried = await post(`/api/newsletter/sends/${String(send.id)}/retry`);
    expect(retried.status).toBe(202);
    expect(await retried.json()).toMatchObject({ status: "sending", pending: 1, sent: 2 });
    expect(app.kicks.count).toBe(2);
    await runSendWorker(app.deps, send.id);
    expect(app.mail.messages.flatMap((message) => message.to)).toEqual(["bounce@example.com"]);
    expect(await (await app.call(`/api/newsletter/sends/${String(send.id)}`, { headers: admin })).json()).toMatchObject({
      status: "sent",
      sent: 3,
      failed: 0,
    });
  });

  it("answers 400 for a draft and 404 for a missing post or send", async () => {
    expect((await post("/api/newsletter/sends", { postId: await addPost(false) })).status).toBe(400);
    expect((await post("/api/newsletter/sends", { postId: 987_654 })).status).toBe(404);
    expect((await post("/api/newsletter/sends", { postId: "x" })).status).toBe(400);
    const kicks = app.kicks.count;
    expect((await post("/api/newsletter/sends/987654/retry")).status).toBe(404);
    expect(app.kicks.count).toBe(kicks);
    expect((await app.call("/api/newsletter/sends/987654", { headers: admin })).status).toBe(404);
  });

  it("sends one test email to the address given, and to no subscriber", async () => {
    app.mail.clear();
    const postId = await addPost(true);
    const answer = await post("/api/newsletter/sends/test", { postId, email: "Owner@Example.com" });
    expect(answer.status).toBe(200);
    const [preview] = await app.mail.waitFor(1);
    expect(preview?.to).toEqual(["owner@example.com"]);
    expect(preview?.subject).toBe("[Test] Runway math");
    expect(preview?.html).toContain(await pageOf(postId));
    expect(app.mail.messages).toHaveLength(1);
    const { rows } = await app.deps.db.query("SELECT 1 FROM newsletter_sends WHERE post_id = $1", [postId]);
    expect(rows).toHaveLength(0);
  });

  it("puts the post's cover at the top of its email, with its alt text, as the CDN's copy at the email's width", async () => {
    const postId = await addPost(true);
    await app.deps.db.query(
      "UPDATE posts SET featured_image_key = 'images/cover_2560x1440.jpg', featured_image_alt = 'A runway chart' WHERE id = $1",
      [postId],
    );
    const answer = await app.call(`/api/newsletter/sends/preview?postId=${String(postId)}`, { headers: admin });
    const { html } = (await answer.json()) as { html: string };
    const cover = /<img[^>]*alt="A runway chart"[^>]*>/.exec(html)?.[0] ?? "";
    expect(cover).toContain(`src="${testOrigin}/.netlify/images?url=%2Fapi%2Ffiles%2Fimages%2Fcover_2560x1440.jpg&amp;w=1076&amp;fm=jpg"`);
    // Above the body: the first image, before the post's first words.
    expect(html.indexOf(cover)).toBeLessThan(html.indexOf("Count the months."));
    // A post without a cover gets no image.
    const plain = (await (await app.call(`/api/newsletter/sends/preview?postId=${String(await addPost(true))}`, { headers: admin })).json()) as {
      html: string;
    };
    expect(plain.html).not.toContain("/api/files/images/");
  });

  it("previews a published post's email without sending it (400 for a draft, 401 without a session)", async () => {
    app.mail.clear();
    const postId = await addPost(true);
    const answer = await app.call(`/api/newsletter/sends/preview?postId=${String(postId)}`, { headers: admin });
    expect(answer.status).toBe(200);
    const preview = (await answer.json()) as { subject: string; html: string; text: string; htmlBytes: number; clipWarning: string | null };
    expect(preview.subject).toBe("Runway math");
    expect(preview.htmlBytes).toBe(new TextEncoder().encode(preview.html).byteLength);
    expect(preview.clipWarning).toBeNull();
    expect(preview.html).toContain("Count the months.");
    expect(preview.html).not.toContain("__RECIPIENT_TOKEN__");
    expect(preview.text).toContain(await pageOf(postId));
    expect(app.mail.messages).toHaveLength(0);
    expect((await app.call(`/api/newsletter/sends/preview?postId=${String(await addPost(false))}`, { headers: admin })).status).toBe(400);
    expect((await app.call(`/api/newsletter/sends/preview?postId=${String(postId)}`)).status).toBe(401);
  });

  it("warns in the preview when the email's HTML is over Gmail's 102 KB clip", async () => {
    // ~1,200 styled paragraphs: well over 102 KB once every paragraph carries its inline style.
    const long = Array.from({ length: 1200 }, (_, i) => `<p>Month ${String(i)}: count it.</p>`).join("");
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, published, published_at) VALUES ('The long runway', $1, true, $2) RETURNING id",
      [long, clock.now()],
    );
    const answer = await app.call(`/api/newsletter/sends/preview?postId=${String((rows[0] as { id: number }).id)}`, { headers: admin });
    const preview = (await answer.json()) as { htmlBytes: number; clipWarning: string | null };
    expect(preview.htmlBytes).toBeGreaterThan(102 * 1024);
    expect(preview.clipWarning).toMatch(/^Gmail clips messages over 102 KB, and this email is \d+ KB/);
  });
});
