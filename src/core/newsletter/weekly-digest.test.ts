import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { signPreferencesToken } from "../mail/subscription-tokens.ts";
import { savePreferences } from "../subscribers/reader-preferences.ts";
import { digestSchedule, lastDigestMoment, queueWeeklyDigests } from "./weekly-digest.ts";

describe("the digest's moment", () => {
  it("is the latest owner's day and hour at or before now, in UTC; a value that does not parse falls back to Monday 9:00", () => {
    const thursday18 = { day: 4, hour: 18 };
    expect(lastDigestMoment(new Date("2026-01-08T18:00:00Z"), thursday18)).toEqual(new Date("2026-01-08T18:00:00Z"));
    expect(lastDigestMoment(new Date("2026-01-08T17:59:59Z"), thursday18)).toEqual(new Date("2026-01-01T18:00:00Z"));
    expect(lastDigestMoment(new Date("2026-01-13T02:00:00Z"), thursday18)).toEqual(new Date("2026-01-08T18:00:00Z"));
    expect(lastDigestMoment(new Date("2026-03-01T00:30:00Z"), { day: 0, hour: 0 })).toEqual(new Date("2026-03-01T00:00:00Z"));
    expect(digestSchedule({ digest_day: "Thursday", digest_hour: "18" })).toEqual(thursday18);
    expect(digestSchedule({ digest_day: "someday", digest_hour: "25" })).toEqual({ day: 1, hour: 9 });
  });
});

describe.each(featureDatabaseTargets)("the weekly digest on $name", (target) => {
  let testDb: TestDatabase;
  // 2026-01-05 is a Monday; the default digest goes out on Mondays at 9:00 UTC.
  const clock = createFakeClock(new Date("2026-01-06T10:00:00Z"));
  const at = (iso: string) => clock.advance(new Date(iso).getTime() - clock.now().getTime());
  let app: TestApp;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  async function addReader(email: string, frequency: "each" | "weekly", everything: boolean, topics: string[] = []): Promise<number> {
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO subscribers (email, status, source, frequency, follows_everything) VALUES ($1, 'active', 'newsletter', $2, $3) RETURNING id",
      [email, frequency, everything],
    );
    const id = (rows[0] as { id: number }).id;
    await app.deps.db.query("INSERT INTO subscriber_topics (subscriber_id, tag_id) SELECT $1::integer, id FROM tags WHERE slug = ANY($2::text[])", [
      id,
      topics,
    ]);
    return id;
  }

  async function addPost(title: string, publishedAt: string, tags: string[]): Promise<void> {
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ($1, '<p>Body</p>', $2, true, $3) RETURNING id",
      [title, `About ${title}`, new Date(publishedAt)],
    );
    await app.deps.db.query("INSERT INTO post_tags (post_id, tag_id) SELECT $1::integer, id FROM tags WHERE slug = ANY($2::text[])", [
      (rows[0] as { id: number }).id,
      tags,
    ]);
  }

  const digestsTo = (email: string) => app.mail.to(email).filter((mail) => mail.subject.startsWith("This week at No Filter"));

  describe("the weekly digest", () => {
    it("one email a week per weekly reader with the week's posts in their topics, once; a topic unfollowed mid-week leaves it; none in an empty week", async () => {
      await app.deps.db.query(
        "INSERT INTO tags (slug, name, topic) VALUES ('funding', 'Funding', true), ('cash-flow', 'Cash Flow', true), ('mindset', 'Mindset', true)",
      );
      const changer = await addReader("changer@example.com", "weekly", false, ["funding", "cash-flow"]);
      await addReader("everything@example.com", "weekly", true);
      await addReader("each@example.com", "each", true);
      await addReader("mindset@example.com", "weekly", false, ["mindset"]);
      await app.deps.db.query(
        "INSERT INTO subscribers (email, status, source, frequency) VALUES ('left@example.com', 'unsubscribed', 'newsletter', 'weekly')",
      );
      // A post of the week before: not in this week's digest.
      await addPost("Last week", "2026-01-04T12:00:00Z", ["funding"]);
      await addPost("Term sheets", "2026-01-06T12:00:00Z", ["funding"]);
      await addPost("Runway", "2026-01-07T12:00:00Z", ["cash-flow"]);
      await addPost("Untagged", "2026-01-08T12:00:00Z", []);

      // Thursday: the reader unfollows Funding from the preference page.
      at("2026-01-08T13:00:00Z");
      await savePreferences(app.deps, signPreferencesToken(app.deps.signer, changer), {
        everything: false,
        topics: ["cash-flow"],
        frequency: "weekly",
      });

      // Monday 8:59: not yet (the last moment, a week ago, is past sending).
      at("2026-01-12T08:59:00Z");
      expect(await queueWeeklyDigests(app.deps)).toEqual({ weekEnds: null, queued: 0 });

      at("2026-01-12T09:00:00Z");
      expect(await queueWeeklyDigests(app.deps)).toEqual({ weekEnds: new Date("2026-01-12T09:00:00Z"), queued: 2 });
      // A replayed or overlapping run queues nothing twice.
      expect(await queueWeeklyDigests(app.deps)).toMatchObject({ queued: 0 });
      await app.deliverMail();

      const [changerDigest] = digestsTo("changer@example.com") as [CaughtMail];
      expect(digestsTo("changer@example.com")).toHaveLength(1);
      expect(changerDigest.subject).toBe("This week at No Filter: Runway");
      expect(changerDigest.html).toContain("Runway");
      expect(changerDigest.html).not.toContain("Term sheets");
      expect(changerDigest.html).not.toContain("Untagged");
      expect(changerDigest.html).toContain(`${testOrigin}/api/newsletter/preferences?token=${signPreferencesToken(app.deps.signer, changer)}`);
      expect(changerDigest.html).toContain("Choose what you get");
      expect(changerDigest.header("List-Unsubscribe")).toMatch(
        new RegExp(`^<${testOrigin}/api/newsletter/unsubscribe\\?token=u\\.${String(changer)}\\.`),
      );
      expect(changerDigest.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

      const [everything] = digestsTo("everything@example.com") as [CaughtMail];
      expect(everything.subject).toBe("This week at No Filter: Untagged and 2 more");
      for (const title of ["Untagged", "Runway", "Term sheets"]) expect(everything.html).toContain(title);
      expect(everything.html).not.toContain("Last week");
      expect(everything.html.indexOf("Untagged")).toBeLessThan(everything.html.indexOf("Term sheets"));

      expect(digestsTo("each@example.com")).toEqual([]);
      expect(digestsTo("mindset@example.com")).toEqual([]);
      expect(digestsTo("left@example.com")).toEqual([]);
      const { rows: records } = await app.deps.db.query("SELECT 1 FROM subscriber_emails WHERE kind = 'digest' AND subscriber_id = $1", [changer]);
      expect(records).toHaveLength(1);

      // The next week has no post: nothing is sent to anyone.
      at("2026-01-19T09:05:00Z");
      expect(await queueWeeklyDigests(app.deps)).toEqual({ weekEnds: new Date("2026-01-19T09:00:00Z"), queued: 0 });

      // A post in the week after, and the job down for more than a day past the moment: that week is skipped, not sent late.
      await addPost("Late", "2026-01-20T12:00:00Z", ["cash-flow"]);
      at("2026-01-27T09:00:00Z");
      expect(await queueWeeklyDigests(app.deps)).toEqual({ weekEnds: null, queued: 0 });
      await app.deliverMail();
      expect(digestsTo("changer@example.com")).toHaveLength(1);
    });

    it("a digest queued, then its reader's last topic of the week unfollowed before delivery: not sent", async () => {
      const reader = await addReader("quick@example.com", "weekly", false, ["mindset"]);
      await addPost("Mind games", "2026-01-30T12:00:00Z", ["mindset"]);
      at("2026-02-02T09:00:00Z");
      // Hers, and the two of the first test's readers who get Mindset (by topic, by everything).
      expect(await queueWeeklyDigests(app.deps)).toMatchObject({ queued: 3 });
      await savePreferences(app.deps, signPreferencesToken(app.deps.signer, reader), { everything: false, topics: [], frequency: "weekly" });
      await app.deliverMail();
      expect(digestsTo("quick@example.com")).toEqual([]);
      const { rows } = await app.deps.db.query<{ status: string; last_error: string }>(
        "SELECT status, last_error FROM outbox WHERE kind = 'digest' AND subscriber_id = $1",
        [reader],
      );
      expect(rows).toEqual([{ status: "failed", last_error: "Not sent: no post of that week is in this reader's topics any more" }]);
    });
    it("two runs at once (a replayed or overlapping tick) queue each reader's digest once", async () => {
      await addPost("Parallel", "2026-02-05T12:00:00Z", ["mindset"]);
      at("2026-02-09T09:00:00Z");
      const runs = await Promise.all([queueWeeklyDigests(app.deps, { batchSize: 1 }), queueWeeklyDigests(app.deps, { batchSize: 1 })]);
      // The first test's everything reader and Mindset follower; the third reader follows nothing now.
      expect(runs[0].queued + runs[1].queued).toBe(2);
      const { rows } = await app.deps.db.query<{ subscriber_id: number; n: number }>(
        `SELECT o.subscriber_id, count(*)::int AS n FROM outbox o JOIN weekly_digests d ON d.message_id = o.message_id
          WHERE d.week_ends = '2026-02-09T09:00:00Z' GROUP BY o.subscriber_id`,
      );
      expect(rows.map((row) => row.n)).toEqual([1, 1]);
    });
  });
});
