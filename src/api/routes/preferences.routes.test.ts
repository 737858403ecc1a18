import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { signPreferencesToken, signUnsubscribeToken } from "../../core/mail/subscription-tokens.ts";
import { unknownTopicMessage } from "../../core/subscribers/reader-preferences.ts";

describe.each(featureDatabaseTargets)("reader preferences on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let clock: FakeClock;
  let ip = 0;

  beforeAll(async () => {
    clock = createFakeClock();
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, now: () => clock.now() });
    await app.deps.db.query(
      `INSERT INTO tags (slug, name, description, topic) VALUES
         ('funding', 'Funding', 'Rounds, term sheets and the money talk.', true),
         ('cash-flow', 'Cash Flow', NULL, true),
         ('hiring', 'Hiring', 'Not a topic: an ordinary tag.', false)`,
    );
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const call = (path: string, init?: RequestInit) => {
    ip += 1;
    return app.handler(new Request(new URL(path, testOrigin), init), { ip: `198.19.${String(ip >> 8)}.${String(ip & 255)}` });
  };
  const sameSite = { origin: testOrigin, "sec-fetch-site": "same-origin" };

  let people = 0;
  async function reader(): Promise<{ id: number; email: string; token: string }> {
    people += 1;
    const email = `reader${String(people)}@example.com`;
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO subscribers (email, status, source) VALUES ($1, 'active', 'newsletter') RETURNING id",
      [email],
    );
    const id = (rows[0] as { id: number }).id;
    return { id, email, token: signPreferencesToken(app.deps.signer, id) };
  }

  async function stored(id: number) {
    const { rows } = await app.deps.db.query<{
      follows_everything: boolean;
      frequency: string;
      preferences_updated_at: Date | null;
      topics: string[];
    }>(
      `SELECT s.follows_everything, s.frequency, s.preferences_updated_at,
              ARRAY(SELECT t.slug FROM subscriber_topics st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id ORDER BY t.slug) AS topics
         FROM subscribers s WHERE s.id = $1`,
      [id],
    );
    return rows[0];
  }

  const untouched = { follows_everything: true, frequency: "each", preferences_updated_at: null, topics: [] };
  const q = (token: string) => `?${new URLSearchParams({ token }).toString()}`;

  describe("GET /api/preferences and the page change nothing", () => {
    it("answers the masked address, frequency, everything and every topic; GET, HEAD and the page (with an unfollow) leave the row as it was", async () => {
      const person = await reader();
      const answer = await call(`/api/preferences${q(person.token)}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        email: "r***@example.com",
        frequency: "each",
        everything: true,
        topics: [
          { slug: "cash-flow", name: "Cash Flow", description: null, followed: false },
          { slug: "funding", name: "Funding", description: "Rounds, term sheets and the money talk.", followed: false },
        ],
      });
      expect((await call(`/api/preferences${q(person.token)}`, { method: "HEAD" })).status).toBe(200);
      for (const extra of ["", "&unfollow=funding", "&saved=1"]) {
        for (const method of ["GET", "HEAD"]) {
          expect((await call(`/api/newsletter/preferences${q(person.token)}${extra}`, { method })).status).toBe(200);
        }
      }
      expect(await stored(person.id)).toEqual(untouched);
    });

    it("the page is a form without JavaScript: topics with descriptions, Everything, the frequency, one Save posting to the API", async () => {
      const person = await reader();
      const page = await call(`/api/newsletter/preferences${q(person.token)}`);
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("x-robots-tag")).toBe("noindex");
      const html = await page.text();
      expect(html).toContain("Choose what you get");
      expect(html).toContain("For r***@example.com.");
      expect(html).not.toContain(person.email);
      expect(html).toContain(`<form method="post" action="/api/preferences${q(person.token).replace(/&/g, "&amp;")}" class="nf-prefs">`);
      expect(html).toContain('<input type="radio" name="everything" value="true" checked>');
      expect(html).toContain('<input type="checkbox" name="topics" value="funding">');
      expect(html).toContain("Rounds, term sheets and the money talk.");
      expect(html).not.toContain("Hiring");
      expect(html).toContain('<input type="radio" name="frequency" value="each" checked>');
      expect(html).toContain('<input type="radio" name="frequency" value="weekly">');
      expect(html.match(/<button/g)).toHaveLength(1);
      expect(html).not.toMatch(/<script(?![^>]*src=)/);
      // The way out of everything, with the person's own unsubscribe token.
      expect(html).toContain(`/api/newsletter/unsubscribe${q(signUnsubscribeToken(app.deps.signer, person.id))}`);
    });

    it('"Unsubscribe from Funding" opens the page with that change ready (everything: every other topic), saved only by the button', async () => {
      const person = await reader();
      const html = await (await call(`/api/newsletter/preferences${q(person.token)}&unfollow=funding`)).text();
      expect(html).toContain("Nothing has changed yet");
      expect(html).toContain('<input type="radio" name="everything" value="false" checked>');
      expect(html).toContain('<input type="checkbox" name="topics" value="cash-flow" checked>');
      expect(html).toContain('<input type="checkbox" name="topics" value="funding">');
      expect(await stored(person.id)).toEqual(untouched);
    });
  });

  describe("POST /api/preferences", () => {
    it("JSON: saves everything, topics and frequency with the time, and answers what the reader gets now", async () => {
      const person = await reader();
      const saved = await call(`/api/preferences${q(person.token)}`, {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/json" },
        body: JSON.stringify({ everything: false, topics: ["funding"], frequency: "weekly" }),
      });
      expect(saved.status).toBe(200);
      expect(await saved.json()).toMatchObject({
        everything: false,
        frequency: "weekly",
        topics: [
          { slug: "cash-flow", followed: false },
          { slug: "funding", followed: true },
        ],
      });
      expect(await stored(person.id)).toEqual({
        follows_everything: false,
        frequency: "weekly",
        preferences_updated_at: clock.now(),
        topics: ["funding"],
      });
      // Back to everything, each post: the topics given are kept.
      const again = await call(`/api/preferences${q(person.token)}`, {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/json" },
        body: JSON.stringify({ everything: true, topics: ["funding", "cash-flow"], frequency: "each" }),
      });
      expect(again.status).toBe(200);
      expect(await stored(person.id)).toMatchObject({ follows_everything: true, frequency: "each", topics: ["cash-flow", "funding"] });
    });

    it("the page's form (ticked boxes repeat `topics`): 303 back to the page, which says it is saved", async () => {
      const person = await reader();
      const answer = await call(`/api/preferences${q(person.token)}`, {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" },
        body: "everything=false&topics=funding&topics=cash-flow&frequency=weekly",
      });
      expect(answer.status).toBe(303);
      const location = answer.headers.get("location") as string;
      expect(location).toBe(`/api/newsletter/preferences${q(person.token)}&saved=1`);
      expect(await stored(person.id)).toMatchObject({ follows_everything: false, frequency: "weekly", topics: ["cash-flow", "funding"] });
      const page = await (await call(location)).text();
      expect(page).toContain("Saved. Your choice applies from the next email.");
      expect(page).toContain('<input type="radio" name="frequency" value="weekly" checked>');
      expect(page).toContain('<input type="checkbox" name="topics" value="funding" checked>');
    });

    it("refuses with clear errors and changes nothing: an unknown topic, a bad frequency, a bad or erased token, another site", async () => {
      const person = await reader();
      const post = (token: string, body: unknown, headers: Record<string, string> = sameSite) =>
        call(`/api/preferences${q(token)}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      const unknown = await post(person.token, { everything: false, topics: ["hiring"], frequency: "each" });
      expect(unknown.status).toBe(400);
      expect(await unknown.json()).toEqual({ error: unknownTopicMessage("hiring") });
      const frequency = await post(person.token, { everything: true, topics: [], frequency: "daily" });
      expect(frequency.status).toBe(400);
      expect(await frequency.json()).toEqual({ error: 'frequency must be "each" or "weekly"' });
      const slug = await post(person.token, { everything: true, topics: ["Not A Slug"], frequency: "each" });
      expect(slug.status).toBe(400);

      const forged = await post(`${person.token.slice(0, -2)}xx`, { everything: true, frequency: "each" });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { error: string }).error).toContain("This link isn't valid");
      const unsubscribeToken = await post(signUnsubscribeToken(app.deps.signer, person.id), { everything: true, frequency: "each" });
      expect(unsubscribeToken.status).toBe(403);
      expect((await call(`/api/preferences?token=nope`)).status).toBe(403);
      expect((await call(`/api/preferences`)).status).toBe(403);

      const crossSite = await post(person.token, { everything: false, topics: [], frequency: "weekly" }, { origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      const crossSiteForm = await call(`/api/preferences${q(person.token)}`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "everything=false&frequency=weekly",
      });
      expect(crossSiteForm.status).toBe(303);
      expect(crossSiteForm.headers.get("location")).toBe("/preferences-failed/");

      const formUnknown = await call(`/api/preferences${q(person.token)}`, {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" },
        body: "everything=false&topics=gone&frequency=weekly",
      });
      expect(formUnknown.status).toBe(303);
      expect(formUnknown.headers.get("location")).toBe(`/api/newsletter/preferences${q(person.token)}&error=1`);
      expect(await stored(person.id)).toEqual(untouched);

      const badPage = await call(`/api/newsletter/preferences?token=nope`);
      expect(badPage.status).toBe(403);
      expect(await badPage.text()).toContain("This link isn&#39;t valid");

      const erased = await reader();
      await app.deps.db.query("DELETE FROM subscribers WHERE id = $1", [erased.id]);
      expect((await call(`/api/preferences${q(erased.token)}`)).status).toBe(404);
      expect((await call(`/api/newsletter/preferences${q(erased.token)}`)).status).toBe(404);
      expect((await post(erased.token, { everything: true, frequency: "each" })).status).toBe(404);
    });
  });

  describe("the confirmation page offers the topic choice", () => {
    it("right after a confirmation: the preference form with the reader's own token, which saves their topics", async () => {
      const email = "confirming@example.com";
      const subscribed = await call("/api/newsletter/subscribe", {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      expect(subscribed.status).toBe(200);
      await app.deliverMail();
      const confirmation = app.mail.to(email)[0];
      const link = /\/api\/newsletter\/confirm\?token=[\w.-]+/.exec(confirmation?.html ?? "")?.[0] as string;
      // The page a scanner opens offers no topics (nothing is confirmed yet).
      expect(await (await call(link)).text()).not.toContain('name="topics"');
      const confirmed = await call(link, { method: "POST", headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" }, body: "" });
      expect(confirmed.status).toBe(200);
      const html = await confirmed.text();
      expect(html).toContain("You&#39;re subscribed!");
      const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email]);
      const token = signPreferencesToken(app.deps.signer, (rows[0] as { id: number }).id);
      expect(html).toContain(`<form method="post" action="/api/preferences${q(token)}" class="nf-prefs">`);
      expect(html).toContain('<input type="checkbox" name="topics" value="funding">');
      const saved = await call(`/api/preferences${q(token)}`, {
        method: "POST",
        headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" },
        body: "everything=false&topics=funding&frequency=each",
      });
      expect(saved.status).toBe(303);
      expect(await stored((rows[0] as { id: number }).id)).toMatchObject({ follows_everything: false, topics: ["funding"] });
    });
  });
});
