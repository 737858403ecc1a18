import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickLinks, desktopAgent as desktop, followClick as follow } from "../../../tests/support/click-links.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";

const content = '<p>Read <a href="https://example.com/guide?a=1&amp;b=2">the guide</a> and <a href="https://example.org/">this</a>.</p>';

async function sendPost(app: TestApp, emails: string[]): Promise<number> {
  await app.deps.db.query("DELETE FROM subscribers");
  for (const email of emails) {
    await app.deps.db.query("INSERT INTO subscribers (email, status, confirmed_at) VALUES ($1, 'active', now())", [email]);
  }
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, read_time, published, published_at) VALUES ('Links', $1, 1, true, now()) RETURNING id",
    [content],
  );
  const started = await app.call("/api/newsletter/sends", {
    method: "POST",
    headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
    body: JSON.stringify({ postId: rows[0]?.id }),
  });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: number };
  await runSendWorker(app.deps, id);
  return id;
}

describe("newsletter click tracking", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("sends each link through a signed redirect, counts clicks per link and once per recipient, and the send shows them", async () => {
    app.mail.clear();
    const sendId = await sendPost(app, ["ann@example.com", "bob@example.com"]);
    const ann = clickLinks(app.mail.to("ann@example.com")[0]?.html ?? "");
    const bob = clickLinks(app.mail.to("bob@example.com")[0]?.html ?? "");
    expect(ann.length).toBeGreaterThanOrEqual(2);
    expect(ann[0]).not.toBe(bob[0]);
    expect(app.mail.to("ann@example.com")[0]?.html).not.toContain('href="https://example.com/guide');

    const first = await follow(app, ann[0] ?? "");
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("https://example.com/guide?a=1&b=2");
    await follow(app, ann[0] ?? "");
    await follow(app, bob[0] ?? "");
    expect((await follow(app, ann[1] ?? "")).headers.get("location")).toBe("https://example.org/");
    // A crawler fetching the link (a mail scanner) is sent on but not counted.
    await follow(app, bob[1] ?? "", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)");

    const send = (await (await app.call(`/api/newsletter/sends/${String(sendId)}`, { headers: await app.adminHeaders() })).json()) as {
      clicks: number;
      uniqueClicks: number;
      links: { url: string; clicks: number; uniqueClicks: number }[];
    };
    expect(send.clicks).toBe(4);
    expect(send.uniqueClicks).toBe(2);
    await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = now() WHERE email = 'bob@example.com'");
    const today = new Date().toISOString().slice(0, 10);
    const stats = (await (await app.call(`/api/stats?from=${today}&to=${today}`, { headers: await app.adminHeaders() })).json()) as {
      newsletters: { id: number; delivered: number; clicks: number; uniqueClicks: number; unsubscribes: number }[];
    };
    expect(stats.newsletters[0]).toMatchObject({ id: sendId, delivered: 2, clicks: 4, uniqueClicks: 2, unsubscribes: 1 });
    expect(send.links.slice(0, 2)).toEqual([
      { url: "https://example.com/guide?a=1&b=2", clicks: 3, uniqueClicks: 2 },
      { url: "https://example.org/", clicks: 1, uniqueClicks: 1 },
    ]);
  });

  it("never redirects off the site for a tampered or unknown link, and counts no one for a tampered recipient", async () => {
    app.mail.clear();
    const sendId = await sendPost(app, ["cat@example.com"]);
    const [link = ""] = clickLinks(app.mail.to("cat@example.com")[0]?.html ?? "");
    const url = new URL(link);
    const l = url.searchParams.get("l") ?? "";
    const r = url.searchParams.get("r") ?? "";
    const [linkId = "", linkSig = ""] = l.split(".");
    const tampered = [
      `?l=${String(Number(linkId) + 1)}.${linkSig}&r=${r}`,
      `?l=${linkId}.${linkSig.slice(0, -2)}xx&r=${r}`,
      `?l=999999.abc&r=${r}`,
      "?l=&r=",
      "",
      "?l=https://evil.example/&r=x",
    ];
    for (const query of tampered) {
      const answer = await app.call(`/api/newsletter/click${query}`, { headers: { "user-agent": desktop }, redirect: "manual" });
      expect(answer.status, query).toBe(302);
      expect(answer.headers.get("location"), query).toBe("/");
    }
    const [subscriber = "", recipientSig = ""] = r.split(".");
    const otherRecipient = await app.call(`/api/newsletter/click?l=${l}&r=${String(Number(subscriber) + 1)}.${recipientSig}`, {
      headers: { "user-agent": desktop },
      redirect: "manual",
    });
    expect(otherRecipient.headers.get("location")).toBe("https://example.com/guide?a=1&b=2");
    const send = (await (await app.call(`/api/newsletter/sends/${String(sendId)}`, { headers: await app.adminHeaders() })).json()) as {
      clicks: number;
      uniqueClicks: number;
    };
    expect(send).toMatchObject({ clicks: 1, uniqueClicks: 0 });
  });

  it("counts at most 3 clicks a link per client address an hour (unique clicks as ever), and still sends every click on", async () => {
    app.mail.clear();
    const sendId = await sendPost(app, ["eve@example.com"]);
    const [link = ""] = clickLinks(app.mail.to("eve@example.com")[0]?.html ?? "");
    const click = async (ip: string) => {
      const url = new URL(link);
      const answer = await app.handler(new Request(url, { headers: { "user-agent": desktop }, redirect: "manual" }), { ip });
      expect(answer.headers.get("location")).toBe("https://example.com/guide?a=1&b=2");
    };
    for (let n = 0; n < 25; n += 1) await click("203.0.113.9");
    // Another address (an IPv6 /64 is one client) counts on its own.
    for (let n = 0; n < 5; n += 1) await click(`2001:db8:7:7::${String(n + 1)}`);
    const send = (await (await app.call(`/api/newsletter/sends/${String(sendId)}`, { headers: await app.adminHeaders() })).json()) as {
      clicks: number;
      uniqueClicks: number;
      links: { clicks: number; uniqueClicks: number }[];
    };
    expect(send).toMatchObject({ clicks: 6, uniqueClicks: 1 });
    expect(send.links[0]).toMatchObject({ clicks: 6, uniqueClicks: 1 });
  });
});

describe("CLICK_TRACKING=off", () => {
  it("keeps the original links", async () => {
    const app = await createTestApp({ env: { CLICK_TRACKING: "off" } });
    try {
      await sendPost(app, ["dee@example.com"]);
      const html = app.mail.to("dee@example.com")[0]?.html ?? "";
      expect(clickLinks(html)).toEqual([]);
      expect(html).toContain('href="https://example.com/guide?a=1&amp;b=2"');
    } finally {
      await app.close();
    }
  });
});
