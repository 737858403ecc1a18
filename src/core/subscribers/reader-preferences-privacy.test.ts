import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { signPreferencesToken } from "../mail/subscription-tokens.ts";
import { readPreferences, savePreferences } from "./reader-preferences.ts";
import { eraseSubscriber, exportSubscriberData } from "./subscriber-privacy.ts";

// Issue 42 point 7: a person's export lists their topics and frequency with when they were set;
// erasing them removes these too.
const clock = createFakeClock(new Date("2026-03-02T10:00:00Z"));
describe.each(featureDatabaseTargets)("preferences privacy on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
    await app.deps.db.query("INSERT INTO tags (slug, name, topic) VALUES ('funding', 'Funding', true), ('mindset', 'Mindset', true)");
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  describe("a reader's topics and frequency in their export and erase", () => {
    it("the export lists them with their times; the erase leaves none of them (the topics themselves stay)", async () => {
      const { rows } = await app.deps.db.query<{ id: number }>(
        "INSERT INTO subscribers (email, status, source) VALUES ('private@example.com', 'active', 'newsletter') RETURNING id",
      );
      const id = (rows[0] as { id: number }).id;
      const token = signPreferencesToken(app.deps.signer, id);
      const t0 = clock.now();
      const later = new Date(t0.getTime() + 60_000).toISOString();
      const before = await exportSubscriberData(app.deps, id);
      expect(before.preferences).toEqual({ everything: true, frequency: "each", updatedAt: null, topics: [], digests: [] });

      await savePreferences(app.deps, token, { everything: false, topics: ["mindset"], frequency: "each" });
      clock.advance(60_000);
      await savePreferences(app.deps, token, { everything: false, topics: ["mindset", "funding"], frequency: "weekly" });
      await app.deps.db.query("INSERT INTO weekly_digests (subscriber_id, week_ends, created_at) VALUES ($1, '2026-03-02T09:00:00Z', $2)", [
        id,
        clock.now(),
      ]);

      const data = await exportSubscriberData(app.deps, id);
      expect(data.preferences).toEqual({
        everything: false,
        frequency: "weekly",
        updatedAt: later,
        // A topic kept keeps when it was first followed.
        topics: [
          { slug: "mindset", name: "Mindset", followedAt: t0.toISOString() },
          { slug: "funding", name: "Funding", followedAt: later },
        ],
        digests: [{ weekEnds: "2026-03-02T09:00:00.000Z", queuedAt: later }],
      });

      await eraseSubscriber(app.deps, id);
      const { rows: left } = await app.deps.db.query<{ left: number }>(
        "SELECT (SELECT count(*) FROM subscriber_topics WHERE subscriber_id = $1) + (SELECT count(*) FROM weekly_digests WHERE subscriber_id = $1) AS left",
        [id],
      );
      expect(Number(left[0]?.left)).toBe(0);
      expect((await app.deps.db.query("SELECT 1 FROM tags WHERE topic")).rows).toHaveLength(2);
      await expect(readPreferences(app.deps, token)).rejects.toThrow("Nothing is held for this address any more");
    });
  });
});
