import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { backupTables } from "../../core/backups/backup-tables.ts";
import { signPollToken, signPreferencesToken } from "../../core/mail/subscription-tokens.ts";
import { startSend } from "../../core/newsletter/newsletter-sends.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";
import { pollBlockHtml } from "../../core/polls/poll-html.ts";

// Issue 42 point 6: polls in emails that scanners can't vote in; point 7: poll answers in a person's export and erase.
describe.each(featureDatabaseTargets)("polls on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let clock: FakeClock;
  let ip = 0;

  beforeAll(async () => {
    clock = createFakeClock();
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const call = (path: string, init?: RequestInit) => {
    ip += 1;
    return app.handler(new Request(new URL(path, testOrigin), init), { ip: `198.18.${String(ip >> 8)}.${String(ip & 255)}` });
  };
  const sameSite = { origin: testOrigin, "sec-fetch-site": "same-origin" };
  const admin = async (method: string, path: string, body?: unknown) =>
    call(path, {
      method,
      ...(body !== undefined && { body: JSON.stringify(body) }),
      headers: { ...(await app.adminHeaders()), "content-type": "application/json" },
    });
  const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

  let people = 0;
  async function reader(): Promise<{ id: number; email: string }> {
    people += 1;
    const email = `voter${String(people)}@example.com`;
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO subscribers (email, status, source) VALUES ($1, 'active', 'newsletter') RETURNING id",
      [email],
    );
    return { id: (rows[0] as { id: number }).id, email };
  }

  async function newPoll(
    answers = [{ text: "Seed" }, { text: "Series A", tag: "stage:series-a" }, { text: "Bootstrapped", tag: "stage:bootstrapped" }],
  ) {
    const made = await admin("POST", "/api/polls", { question: "How are you funded?", answers });
    expect(made.status).toBe(201);
    return ((await made.json()) as { id: number }).id;
  }

  const votes = async (pollId: number) =>
    (
      await app.deps.db.query<{ subscriber_id: number; answer_index: number }>(
        "SELECT subscriber_id, answer_index FROM poll_votes WHERE poll_id = $1 ORDER BY subscriber_id",
        [pollId],
      )
    ).rows.map((row) => ({ subscriber: row.subscriber_id, answer: Number(row.answer_index) }));
  const tagsOf = async (subscriberId: number) =>
    (
      await app.deps.db.query<{ slug: string; source: string }>(
        `SELECT t.slug, a.source FROM subscriber_tag_assignments a JOIN subscriber_tags t ON t.id = a.subscriber_tag_id WHERE a.subscriber_id = $1 ORDER BY t.slug`,
        [subscriberId],
      )
    ).rows;
  const answerPath = (pollId: number, token: string) => `/api/polls/${String(pollId)}/answer?${new URLSearchParams({ token }).toString()}`;
  const answerJson = (pollId: number, token: string, answer: unknown, headers: Record<string, string> = sameSite) =>
    call(answerPath(pollId, token), {
      method: "POST",
      body: JSON.stringify({ answer }),
      headers: { ...headers, "content-type": "application/json" },
    });

  describe("making a poll and its results (admin)", () => {
    it("makes a poll of 2 to 5 answers; the results count and share each answer; 401 without a session", async () => {
      expect((await call("/api/polls", { method: "POST", body: "{}", headers: { ...sameSite, "content-type": "application/json" } })).status).toBe(
        401,
      );
      const one = await admin("POST", "/api/polls", { question: "Yes?", answers: [{ text: "Yes" }] });
      expect(one.status).toBe(400);
      expect(await errorOf(one)).toContain("2 to 5 answers");
      const six = await admin("POST", "/api/polls", { question: "Pick", answers: ["a", "b", "c", "d", "e", "f"].map((text) => ({ text })) });
      expect(six.status).toBe(400);
      expect((await admin("POST", "/api/polls", { question: "Pick", answers: [{ text: "A" }, { text: "B", tag: "Not a tag!" }] })).status).toBe(400);

      const pollId = await newPoll();
      expect(await (await admin("GET", `/api/polls/${String(pollId)}`)).json()).toEqual({
        id: pollId,
        question: "How are you funded?",
        total: 0,
        answers: [
          { text: "Seed", count: 0, percent: 0 },
          { text: "Series A", count: 0, percent: 0 },
          { text: "Bootstrapped", count: 0, percent: 0 },
        ],
      });
      const [a, b, c] = [await reader(), await reader(), await reader()];
      await answerJson(pollId, signPollToken(app.deps.signer, a.id, pollId, 0), 0);
      await answerJson(pollId, signPollToken(app.deps.signer, b.id, pollId, 0), "series a");
      await answerJson(pollId, signPollToken(app.deps.signer, c.id, pollId, 0), 1);
      expect(await (await admin("GET", `/api/polls/${String(pollId)}`)).json()).toEqual({
        id: pollId,
        question: "How are you funded?",
        total: 3,
        answers: [
          { text: "Seed", count: 1, percent: 33.3 },
          { text: "Series A", count: 2, percent: 66.7 },
          { text: "Bootstrapped", count: 0, percent: 0 },
        ],
      });
      expect((await call(`/api/polls/${String(pollId)}`)).status).toBe(401);
      expect((await admin("GET", "/api/polls/99999")).status).toBe(404);
      const listed = (await (await admin("GET", "/api/polls")).json()) as { id: number; total: number }[];
      expect(listed.find((poll) => poll.id === pollId)).toMatchObject({ total: 3, posts: [] });
    });
  });

  describe("answering from the email's link", () => {
    it("scanner-style GET and HEAD on the link change nothing; the page selects the link's answer with one Confirm button", async () => {
      const pollId = await newPoll();
      const person = await reader();
      const token = signPollToken(app.deps.signer, person.id, pollId, 2);
      for (const method of ["GET", "HEAD"]) {
        for (const extra of ["", "&saved=1"]) expect((await call(`${answerPath(pollId, token)}${extra}`, { method })).status).toBe(200);
      }
      expect(await votes(pollId)).toEqual([]);
      expect(await tagsOf(person.id)).toEqual([]);
      const page = await call(answerPath(pollId, token));
      expect(page.headers.get("cache-control")).toBe("no-store");
      const html = await page.text();
      expect(html).toContain("How are you funded?");
      expect(html).toContain(`<form method="post" action="${answerPath(pollId, token)}" class="nf-poll">`);
      expect(html).toContain('<input type="radio" name="answer" value="Bootstrapped" checked required>');
      expect(html).toContain('<input type="radio" name="answer" value="Seed" required>');
      expect(html.match(/<button/g)).toHaveLength(1);
      expect(html).toContain(">Confirm</button>");
    });

    it("the page's form records the answer (303 back, 'Thanks, your answer is saved'); a cross-site post records nothing", async () => {
      const pollId = await newPoll();
      const person = await reader();
      const token = signPollToken(app.deps.signer, person.id, pollId, 1);
      const form = (headers: Record<string, string>) =>
        call(answerPath(pollId, token), {
          method: "POST",
          body: new URLSearchParams({ answer: "Series A" }).toString(),
          headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
          redirect: "manual",
        });
      const crossSite = await form({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      expect(crossSite.status).toBe(303);
      expect(await votes(pollId)).toEqual([]);
      const saved = await form(sameSite);
      expect(saved.status).toBe(303);
      expect(saved.headers.get("location")).toBe(`${answerPath(pollId, token)}&saved=1`);
      expect(await votes(pollId)).toEqual([{ subscriber: person.id, answer: 1 }]);
      const after = await (await call(saved.headers.get("location") as string)).text();
      expect(after).toContain("Thanks, your answer is saved");
      expect(after).toContain('value="Series A" checked');
    });

    it("one answer per person per poll, changeable; the answer's tag is set, and a changed answer takes it off", async () => {
      const pollId = await newPoll();
      const person = await reader();
      const token = signPollToken(app.deps.signer, person.id, pollId, 1);
      const first = await answerJson(pollId, token, 1);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ poll: pollId, question: "How are you funded?", answer: { index: 1, text: "Series A" }, changed: false });
      expect(await tagsOf(person.id)).toEqual([{ slug: "stage:series-a", source: "poll" }]);
      // Twice the same: still one vote.
      expect(await (await answerJson(pollId, token, "Series A")).json()).toMatchObject({ changed: false });
      expect(await votes(pollId)).toEqual([{ subscriber: person.id, answer: 1 }]);
      // Another link of the same email (another answer's token) changes the one answer.
      const changed = await answerJson(pollId, signPollToken(app.deps.signer, person.id, pollId, 2), "bootstrapped");
      expect(await changed.json()).toMatchObject({ answer: { index: 2, text: "Bootstrapped" }, changed: true });
      expect(await votes(pollId)).toEqual([{ subscriber: person.id, answer: 2 }]);
      expect(await tagsOf(person.id)).toEqual([{ slug: "stage:bootstrapped", source: "poll" }]);
      // The poll dialog's choice of tags lists the tags there are, with how many carry each.
      const tagList = (await (await admin("GET", "/api/newsletter/subscribers/tags")).json()) as { tag: string; people: number }[];
      expect(tagList).toEqual(expect.arrayContaining([{ tag: "stage:bootstrapped", people: 1 }]));
      expect((await call("/api/newsletter/subscribers/tags")).status).toBe(401);
      // An answer with no tag takes the poll's tag off; a tag the owner set stays.
      await app.deps.db.query(`INSERT INTO subscriber_tags (slug) VALUES ('stage:series-a') ON CONFLICT DO NOTHING;`);
      await app.deps.db.query(
        `INSERT INTO subscriber_tag_assignments (subscriber_id, subscriber_tag_id, source) SELECT $1, id, 'owner' FROM subscriber_tags WHERE slug = 'stage:series-a'`,
        [person.id],
      );
      await answerJson(pollId, token, 1);
      await answerJson(pollId, token, 0);
      expect(await votes(pollId)).toEqual([{ subscriber: person.id, answer: 0 }]);
      expect(await tagsOf(person.id)).toEqual([{ slug: "stage:series-a", source: "owner" }]);
      const { rows } = await app.deps.db.query<{ answered_at: Date; updated_at: Date }>(
        "SELECT answered_at, updated_at FROM poll_votes WHERE poll_id = $1",
        [pollId],
      );
      expect(rows).toHaveLength(1);
    });

    it("a bad token, another poll's token, another kind of token or an unknown answer → 4xx, nothing recorded", async () => {
      const pollId = await newPoll();
      const other = await newPoll();
      const person = await reader();
      const token = signPollToken(app.deps.signer, person.id, pollId, 0);
      const forged = `${token.slice(0, -2)}xx`;
      for (const bad of [forged, signPollToken(app.deps.signer, person.id, other, 0), signPreferencesToken(app.deps.signer, person.id), "v.1.2.3"]) {
        expect((await answerJson(pollId, bad, 0)).status).toBe(403);
        expect((await call(answerPath(pollId, bad))).status).toBe(403);
      }
      for (const answer of [3, 9, -1, "Angel", "", 1.5]) expect((await answerJson(pollId, token, answer)).status).toBe(400);
      expect(
        (await call(answerPath(pollId, token), { method: "POST", body: "{}", headers: { ...sameSite, "content-type": "application/json" } })).status,
      ).toBe(400);
      expect((await answerJson(99999, signPollToken(app.deps.signer, person.id, 99999, 0), 0)).status).toBe(404);
      expect((await answerJson(pollId, token, 0, { origin: "https://evil.example" })).status).toBe(403);
      expect(await votes(pollId)).toEqual([]);
      expect(await votes(other)).toEqual([]);
      // A form with an unknown answer lands on the page with its error notice.
      const form = await call(answerPath(pollId, token), {
        method: "POST",
        body: new URLSearchParams({ answer: "Angel" }).toString(),
        headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status).toBe(303);
      expect(form.headers.get("location")).toBe(`${answerPath(pollId, token)}&error=1`);
    });
  });

  describe("in the newsletter", () => {
    it("each answer is a link signed for the recipient; a scanner opening every link records nothing; the post's results in Stats", async () => {
      const pollId = await newPoll([{ text: "Yes" }, { text: "No" }]);
      const content = `<p>Before.</p>${pollBlockHtml({ id: pollId, question: "How are you funded?", answers: [{ text: "Yes" }, { text: "No" }] })}<p>After.</p>`;
      const { rows: post } = await app.deps.db.query<{ id: number }>(
        "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Poll post', $1, 'Poll', true, $2) RETURNING id",
        [content, clock.now()],
      );
      const postId = (post[0] as { id: number }).id;
      await app.deps.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE status = 'active'");
      const [ann, bob] = [await reader(), await reader()];
      const send = await startSend(app.deps, postId);
      expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 2, finished: true });

      const linksOf = (mail: CaughtMail) =>
        [...mail.html.matchAll(/href="([^"]*\/api\/polls\/[^"]*)"/g)].map((match) => (match[1] as string).replace(/&amp;/g, "&"));
      for (const person of [ann, bob]) {
        const mail = app.mail.to(person.email)[0] as CaughtMail;
        expect(mail.html).toContain("How are you funded?");
        expect(mail.html).not.toMatch(/__RECIPIENT_\w+__/);
        expect(linksOf(mail)).toEqual(
          [0, 1].map((index) => `${testOrigin}${answerPath(pollId, signPollToken(app.deps.signer, person.id, pollId, index))}`),
        );
        // A scanner fetches every link with GET and HEAD.
        for (const link of linksOf(mail)) for (const method of ["GET", "HEAD"]) expect((await call(link, { method })).status).toBe(200);
      }
      expect(await votes(pollId)).toEqual([]);
      // Bob clicks "No" and confirms.
      const bobsNo = linksOf(app.mail.to(bob.email)[0] as CaughtMail)[1] as string;
      expect(await (await call(bobsNo)).text()).toContain('value="No" checked');
      const confirmed = await call(bobsNo, {
        method: "POST",
        body: new URLSearchParams({ answer: "No" }).toString(),
        headers: { ...sameSite, "content-type": "application/x-www-form-urlencoded" },
      });
      expect(confirmed.status).toBe(303);
      expect(await votes(pollId)).toEqual([{ subscriber: bob.id, answer: 1 }]);
      // Stats per post: the post's polls with their results.
      expect(await (await admin("GET", `/api/polls?post=${String(postId)}`)).json()).toEqual([
        {
          id: pollId,
          question: "How are you funded?",
          total: 1,
          answers: [
            { text: "Yes", count: 0, percent: 0 },
            { text: "No", count: 1, percent: 100 },
          ],
          posts: [{ id: postId, title: "Poll post" }],
        },
      ]);
      // The post's own page keeps the question and answers as text, with the note.
      const { rows: stored } = await app.deps.db.query<{ content: string }>("SELECT content FROM posts WHERE id = $1", [postId]);
      expect(stored[0]?.content).toContain(`<div data-poll="${String(pollId)}">`);
    });
  });

  describe("the tables", () => {
    it("hold one vote per person per poll, only for an answer the poll has; a poll's answers are numbered 0 to 4", async () => {
      const pollId = await newPoll([{ text: "Yes" }, { text: "No" }]);
      const person = await reader();
      const vote = (answer: number) =>
        app.deps.db.query(
          "INSERT INTO poll_votes (poll_id, subscriber_id, answer_index, answered_at, updated_at) VALUES ($1, $2, $3, now(), now())",
          [pollId, person.id, answer],
        );
      await vote(0);
      await expect(vote(1)).rejects.toThrow(/duplicate key|poll_votes_pkey/);
      await app.deps.db.query("DELETE FROM poll_votes WHERE poll_id = $1", [pollId]);
      await expect(vote(2)).rejects.toThrow(/foreign key/);
      await expect(app.deps.db.query("INSERT INTO poll_answers (poll_id, answer_index, text) VALUES ($1, 5, 'Six')", [pollId])).rejects.toThrow(
        /check/,
      );
    });
  });

  describe("privacy", () => {
    it("a person's export lists their poll answers with timestamps; erase removes them; the backup holds the polls' tables", async () => {
      const pollId = await newPoll();
      const person = await reader();
      const token = signPollToken(app.deps.signer, person.id, pollId, 0);
      const answeredAt = clock.now().toISOString();
      await answerJson(pollId, token, 0);
      clock.advance(60_000);
      await answerJson(pollId, token, 2);
      const exported = (await (await admin("GET", `/api/newsletter/subscribers/${String(person.id)}/export`)).json()) as { pollAnswers: unknown };
      expect(exported.pollAnswers).toEqual([
        { poll: pollId, question: "How are you funded?", answer: "Bootstrapped", answeredAt, updatedAt: clock.now().toISOString() },
      ]);
      expect((await admin("DELETE", `/api/newsletter/subscribers/${String(person.id)}`)).status).toBe(204);
      expect(await votes(pollId)).toEqual([]);
      expect((await answerJson(pollId, token, 0)).status).toBe(404);
      expect((await call(answerPath(pollId, token))).status).toBe(404);
      expect(await backupTables(app.deps.db)).toEqual(expect.arrayContaining(["polls", "poll_answers", "poll_votes"]));
    });
  });
});
