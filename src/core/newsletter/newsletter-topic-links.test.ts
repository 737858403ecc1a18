import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { signPreferencesToken, signUnsubscribeToken } from "../mail/subscription-tokens.ts";
import { startSend } from "./newsletter-sends.ts";
import { runSendWorker } from "./newsletter-worker.ts";

// Issue 42 point 3: every newsletter carries "Choose what you get" and, for the topic that put the
// post in the reader's inbox, "Unsubscribe from <topic>"; the one-click header stays "everything".
const clock = createFakeClock();
describe.each(featureDatabaseTargets)("topic links on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`.replace(/&/g, "&amp;");

  describe("the links a newsletter carries per reader", () => {
    it("everything: the post's first topic; a topic follower: their topic of the post; neither: no topic line; all: Choose what you get", async () => {
      const db = app.deps.db;
      await db.query(
        `INSERT INTO tags (slug, name, topic) VALUES ('funding', 'Funding & Money', true), ('cash-flow', 'Cash Flow', true), ('mindset', 'Mindset', true), ('misc', 'Misc', false)`,
      );
      const { rows: post } = await db.query<{ id: number }>(
        "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Runway math', '<p>Count it.</p>', 'Count', true, $1) RETURNING id",
        [clock.now()],
      );
      const postId = (post[0] as { id: number }).id;
      await db.query(
        `INSERT INTO post_tags (post_id, tag_id, position) SELECT $1, id, CASE slug WHEN 'misc' THEN 0 WHEN 'funding' THEN 1 ELSE 2 END
           FROM tags WHERE slug IN ('misc', 'funding', 'cash-flow')`,
        [postId],
      );
      const { rows: people } = await db.query<{ id: number; email: string }>(
        `INSERT INTO subscribers (email, status, source, follows_everything) VALUES
           ('all@example.com', 'active', 'newsletter', true), ('cash@example.com', 'active', 'newsletter', false), ('mind@example.com', 'active', 'newsletter', false)
         RETURNING id, email`,
      );
      const id = (email: string) => (people.find((person) => person.email === email) as { id: number }).id;
      await db.query(
        `INSERT INTO subscriber_topics (subscriber_id, tag_id) SELECT $1::integer, id FROM tags WHERE slug = 'cash-flow'
         UNION ALL SELECT $2::integer, id FROM tags WHERE slug = 'mindset'`,
        [id("cash@example.com"), id("mind@example.com")],
      );

      const send = await startSend(app.deps, postId);
      expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 3, finished: true });

      const mailTo = (email: string) => app.mail.to(email)[0] as CaughtMail;
      for (const email of ["all@example.com", "cash@example.com", "mind@example.com"]) {
        const mail = mailTo(email);
        const preferences = `${testOrigin}/api/newsletter/preferences${q({ token: signPreferencesToken(app.deps.signer, id(email)) })}`;
        expect(mail.html).toContain(`href="${preferences}"`);
        expect(mail.html).toContain("Choose what you get");
        expect(mail.text).toContain(preferences.replace(/&amp;/g, "&"));
        // RFC 8058's one click still means the whole newsletter.
        expect(mail.header("List-Unsubscribe")).toBe(
          `<${testOrigin}/api/newsletter/unsubscribe?token=${signUnsubscribeToken(app.deps.signer, id(email))}>`,
        );
        expect(mail.html).not.toMatch(/__RECIPIENT_\w+__/);
        expect(mail.text).not.toMatch(/__RECIPIENT_\w+__/);
      }
      const unfollow = (email: string, slug: string) =>
        `${testOrigin}/api/newsletter/preferences${q({ token: signPreferencesToken(app.deps.signer, id(email)), unfollow: slug })}`;
      expect(mailTo("all@example.com").html).toContain(`href="${unfollow("all@example.com", "funding")}"`);
      expect(mailTo("all@example.com").html).toContain("Unsubscribe from Funding &amp; Money");
      expect(mailTo("all@example.com").text).toContain("Unsubscribe from Funding & Money");
      expect(mailTo("cash@example.com").html).toContain(`href="${unfollow("cash@example.com", "cash-flow")}"`);
      expect(mailTo("cash@example.com").html).toContain("Unsubscribe from Cash Flow");
      expect(mailTo("cash@example.com").html).not.toContain("Unsubscribe from Funding");
      // Sent by the owner to everyone: no topic of the post is theirs, so no topic line at all.
      expect(mailTo("mind@example.com").html).not.toContain("Unsubscribe from");
      expect(mailTo("mind@example.com").text).not.toContain("Unsubscribe from");
      expect(mailTo("mind@example.com").html).toContain(">Unsubscribe</a>");
    });
  });
});
