import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { Post } from "../posts/post.schema.ts";
import { publishDuePosts } from "../posts/posts.service.ts";
import type { NewsletterSend } from "./newsletter.schema.ts";
import { nobodyWhenDueMessage, notLiveMessage, siteWaitWarningMs } from "./newsletter-start.ts";
import { sendAtPassedMessage, sendStatus, startSend } from "./newsletter-sends.ts";
import { sendTestEmail } from "./newsletter-test-send.ts";
import { runDueSends } from "./newsletter-watchdog.ts";

// Real databases and a real SMTP sink; the clock is a fake one and "is the post's page live?" is
// the test's own answer (`live`): the URLs in it answer 200, every other one 404.
const clock = createFakeClock(new Date("2026-03-02T06:00:00Z"));
const live = new Set<string>();
const checked: string[] = [];
const minute = 60_000;

describe.each(featureDatabaseTargets)("sends that wait for the site and for their time on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({
      db: testDb.db,
      clock,
      checkPage: (url) => {
        checked.push(url);
        return Promise.resolve(live.has(url) ? { live: true, answer: "200" } : { live: false, answer: "404" });
      },
    });
    admin = await app.adminHeaders();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  afterEach(async () => {
    live.clear();
    checked.length = 0;
    app.mail.clear();
    await testDb.db.exec("DELETE FROM newsletter_sends; DELETE FROM subscribers; DELETE FROM posts");
  });

  const addSubscribers = async (emails: string[]) => {
    await app.deps.db.query("INSERT INTO subscribers (email, status, source) SELECT unnest($1::text[]), 'active', 'form'", [emails]);
  };
  const savePost = async (method: "POST" | "PUT", path: string, fields: FormFields) => {
    const { body, contentType } = await multipartBody({ content: "<p>Count the months.</p>", ...fields });
    return app.call(path, { method, headers: { ...admin, "content-type": contentType }, body });
  };
  const createPost = async (fields: FormFields) => {
    const response = await savePost("POST", "/api/blog-posts", fields);
    expect(response.status).toBe(201);
    return (await response.json()) as Post;
  };
  const sendsOf = async (postId: number) => {
    const response = await app.call(`/api/newsletter/sends?postId=${String(postId)}`, { headers: admin });
    return (await response.json()) as NewsletterSend[];
  };
  const startLater = (postId: number, sendAt: string) =>
    app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ postId, sendAt }),
    });
  const pageOf = (post: Post) => `${testOrigin}${post.url}`;
  const addresses = () => app.mail.messages.flatMap((message) => message.to).sort();

  it("sends a post published now with “Email to subscribers when published” once its page is live, and once only", async () => {
    await addSubscribers(["ana@example.com", "ben@example.com"]);
    const post = await createPost({ title: "Runway math", published: "true", sendAsNewsletter: "true" });
    expect(post).toMatchObject({ published: true, sendAsNewsletter: true });

    // The rebuild has not finished: the send exists and waits, and nothing leaves.
    await runDueSends(app.deps);
    const [waiting] = await sendsOf(post.id);
    expect(waiting).toMatchObject({ status: "waiting", total: 0, statusReason: null, sendAt: null });
    expect(checked).toContain(pageOf(post));
    expect(app.mail.messages).toHaveLength(0);

    // The site serves the post: the next tick starts the send and the workers deliver it.
    clock.advance(5_000);
    live.add(pageOf(post));
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["ana@example.com", "ben@example.com"]);
    expect(app.mail.messages[0]?.subject).toBe("Runway math");
    const [sent] = await sendsOf(post.id);
    expect(sent).toMatchObject({ id: waiting?.id, status: "sent", total: 2, sent: 2 });

    // At most once: more ticks, an edit that keeps the box ticked, and a send by hand add nothing.
    expect((await savePost("PUT", `/api/blog-posts/${String(post.id)}`, { title: "Runway math, again", published: "true" })).status).toBe(200);
    await runDueSends(app.deps);
    await runDueSends(app.deps);
    await expect(startSend(app.deps, post.id)).rejects.toMatchObject({ status: 409 });
    expect(await sendsOf(post.id)).toHaveLength(1);
    expect(app.mail.messages).toHaveLength(2);
  });

  it("sends under the post's email subject when it has one (on publish, the preview, the test send), the title staying the heading", async () => {
    await addSubscribers(["cy@example.com"]);
    const subject = "How many months do you have left?";
    const post = await createPost({ title: "Runway math", emailSubject: subject, published: "true", sendAsNewsletter: "true" });
    expect(post.emailSubject).toBe(subject);
    live.add(pageOf(post));
    await runDueSends(app.deps);
    expect(app.mail.messages.map((message) => message.subject)).toEqual([subject]);
    expect(app.mail.messages[0]?.text).toMatch(/^RUNWAY MATH$/m);

    const preview = await app.call(`/api/newsletter/sends/preview?postId=${String(post.id)}`, { headers: admin });
    expect(((await preview.json()) as { subject: string }).subject).toBe(subject);
    await sendTestEmail(app.deps, { postId: post.id, email: "owner@example.com" });
    await app.deliverMail();
    expect(app.mail.to("owner@example.com").map((message) => message.subject)).toEqual([`[Test] ${subject}`]);
  });

  it("sends a scheduled post with the box ticked once it has gone live and its page answers, not before", async () => {
    await addSubscribers(["ana@example.com"]);
    const publishAt = new Date(clock.now().getTime() + 2 * minute).toISOString();
    const post = await createPost({ title: "Monday, 7 am", publishAt, sendAsNewsletter: "true" });
    expect(post).toMatchObject({ published: false, sendAsNewsletter: true });
    // A draft (scheduled) is not sent: no send is made before it goes live.
    await runDueSends(app.deps);
    expect(await sendsOf(post.id)).toEqual([]);

    clock.advance(2 * minute);
    expect(await publishDuePosts(app.deps)).toMatchObject([{ id: post.id, title: post.title, url: post.url }]);
    // Live in the database, not yet on the site (the build runs): the send waits.
    await runDueSends(app.deps);
    expect((await sendsOf(post.id))[0]).toMatchObject({ status: "waiting" });
    expect(app.mail.messages).toHaveLength(0);

    // The build is out: the first tick after it (every minute on Netlify, every second locally) sends it.
    clock.advance(40_000);
    live.add(pageOf(post));
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["ana@example.com"]);
    const [send] = await sendsOf(post.id);
    expect(send).toMatchObject({ status: "sent", sent: 1 });
    expect(new Date(send?.startedAt ?? 0).getTime() - clock.now().getTime()).toBe(0);
  });

  it("does not make a send for a post whose box is not ticked, and keeps the box as it is on an edit that leaves it out", async () => {
    await addSubscribers(["ana@example.com"]);
    const post = await createPost({ title: "Quiet one", published: "true" });
    expect(post.sendAsNewsletter).toBe(false);
    live.add(pageOf(post));
    await runDueSends(app.deps);
    expect(await sendsOf(post.id)).toEqual([]);

    const ticked = await savePost("PUT", `/api/blog-posts/${String(post.id)}`, { title: "Quiet one", sendAsNewsletter: "true" });
    expect(((await ticked.json()) as Post).sendAsNewsletter).toBe(true);
    const kept = await savePost("PUT", `/api/blog-posts/${String(post.id)}`, { title: "Quiet one" });
    expect(((await kept.json()) as Post).sendAsNewsletter).toBe(true);
    const refused = await savePost("PUT", `/api/blog-posts/${String(post.id)}`, { title: "Quiet one", sendAsNewsletter: "maybe" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "sendAsNewsletter must be true or false" });
  });

  it("holds a send by hand until the post's page answers 200, says why after 15 minutes, and sends to whoever is subscribed when it starts", async () => {
    await addSubscribers(["ana@example.com"]);
    const post = await createPost({ title: "Built slowly", published: "true" });
    const send = await startSend(app.deps, post.id);
    expect(send).toMatchObject({ status: "waiting", total: 0, pending: 0 });

    // Someone confirms while it waits: they are on the list when it starts.
    await addSubscribers(["cy@example.com"]);
    clock.advance(siteWaitWarningMs - 1000);
    await runDueSends(app.deps);
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "waiting", statusReason: null });
    clock.advance(1000);
    await runDueSends(app.deps);
    const stuck = await sendStatus(app.deps, send.id);
    expect(stuck).toMatchObject({ status: "waiting", statusReason: notLiveMessage(pageOf(post), "404") });
    expect(app.mail.messages).toHaveLength(0);

    live.add(pageOf(post));
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["ana@example.com", "cy@example.com"]);
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "sent", total: 2, statusReason: null });
  });

  it("starts a send by hand at once when the page is live already (as before)", async () => {
    await addSubscribers(["ana@example.com"]);
    const post = await createPost({ title: "Long live", published: "true" });
    live.add(pageOf(post));
    const response = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ postId: post.id }),
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ status: "queued", total: 1, pending: 1 });
  });

  it("sends later: scheduled until its time, with the recipients fixed then, and cancelled by the owner before it starts", async () => {
    await addSubscribers(["ana@example.com"]);
    const post = await createPost({ title: "For seven", published: "true" });
    live.add(pageOf(post));
    const at = new Date(clock.now().getTime() + 60 * minute);
    // The owner's time zone rides in the offset: 08:00 at +01:00 is 07:00Z.
    const local = `${at.toISOString().slice(0, 11)}${String(at.getUTCHours() + 1).padStart(2, "0")}:${at.toISOString().slice(14, 19)}+01:00`;
    const response = await startLater(post.id, local);
    expect(response.status).toBe(202);
    const scheduled = (await response.json()) as NewsletterSend;
    expect(scheduled).toMatchObject({ status: "scheduled", sendAt: at.toISOString(), total: 0 });

    // Before its time nothing leaves; someone who confirms in between gets it.
    clock.advance(59 * minute);
    await runDueSends(app.deps);
    expect(app.mail.messages).toHaveLength(0);
    await addSubscribers(["ben@example.com"]);
    clock.advance(minute);
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["ana@example.com", "ben@example.com"]);
    expect(await sendStatus(app.deps, scheduled.id)).toMatchObject({ status: "sent", total: 2 });

    // Another post, cancelled before its time: nothing goes out, then or later, and it stays used up.
    const other = await createPost({ title: "Changed my mind", published: "true" });
    live.add(pageOf(other));
    const later = (await (await startLater(other.id, new Date(clock.now().getTime() + 10 * minute).toISOString())).json()) as NewsletterSend;
    const cancel = await app.call(`/api/newsletter/sends/${String(later.id)}/cancel`, { method: "POST", headers: admin });
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toMatchObject({ status: "cancelled" });
    clock.advance(30 * minute);
    await runDueSends(app.deps);
    expect(app.mail.messages).toHaveLength(2);
    expect(await sendStatus(app.deps, later.id)).toMatchObject({ status: "cancelled", total: 0 });
    expect((await startLater(other.id, new Date(clock.now().getTime() + minute).toISOString())).status).toBe(409);
  });

  it("refuses a send-at time that has passed or is not a date, and a draft", async () => {
    await addSubscribers(["ana@example.com"]);
    const post = await createPost({ title: "Now or never", published: "true" });
    const passed = await startLater(post.id, new Date(clock.now().getTime() - 1000).toISOString());
    expect(passed.status).toBe(400);
    expect(await passed.json()).toEqual({ error: sendAtPassedMessage });
    const garbled = await startLater(post.id, "next monday");
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toEqual({ error: "Send at must be a date and time (ISO 8601)" });
    const draft = await createPost({ title: "Not yet" });
    expect((await startLater(draft.id, new Date(clock.now().getTime() + minute).toISOString())).status).toBe(400);
    expect(await sendsOf(post.id)).toEqual([]);
  });

  it("sends a send that fell due while the server was down once it is back, once, even with two timers at once", async () => {
    await addSubscribers(["ana@example.com", "ben@example.com"]);
    const post = await createPost({ title: "While you slept", published: "true" });
    live.add(pageOf(post));
    const send = await startSend(app.deps, post.id, { sendAt: new Date(clock.now().getTime() + 5 * minute) });
    // Down for three hours: no tick ran. Back up, the local ticker and the watchdog both run.
    clock.advance(3 * 60 * minute);
    await Promise.all([runDueSends(app.deps), runDueSends(app.deps)]);
    await runDueSends(app.deps);
    expect(addresses()).toEqual(["ana@example.com", "ben@example.com"]);
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "sent", total: 2, sent: 2 });
  });

  it("ends a send that falls due with nobody subscribed, and says so", async () => {
    const post = await createPost({ title: "To nobody", published: "true" });
    live.add(pageOf(post));
    const send = await startSend(app.deps, post.id, { sendAt: new Date(clock.now().getTime() + minute) });
    clock.advance(minute);
    await runDueSends(app.deps);
    expect(await sendStatus(app.deps, send.id)).toMatchObject({ status: "failed", total: 0, statusReason: nobodyWhenDueMessage });
  });
});
