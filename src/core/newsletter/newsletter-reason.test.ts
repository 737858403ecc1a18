import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { newsletterReason } from "../mail/emails.ts";
import { recipientReasonPlaceholder } from "./newsletter-message.ts";
import { startSend } from "./newsletter-sends.ts";
import { runSendWorker } from "./newsletter-worker.ts";

// The send's email is rendered once; each recipient's footer says how they joined. Real database
// and SMTP sink: the footers are read back from what each address received.
const clock = createFakeClock();

describe.each(featureDatabaseTargets)("a newsletter's footer reason on $name", (target) => {
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

  it("matches how each person joined: the form, a download, or the owner's import", async () => {
    const sources = { "form@example.com": "newsletter", "download@example.com": "download", "import@example.com": "import" };
    for (const [email, source] of Object.entries(sources)) {
      await app.deps.db.query("INSERT INTO subscribers (email, status, source) VALUES ($1, 'active', $2)", [email, source]);
    }
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Runway & burn', '<p>Count the months.</p>', null, true, $1) RETURNING id",
      [clock.now()],
    );
    const send = await startSend(app.deps, (rows[0] as { id: number }).id);
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 3, failed: 0 });

    const site = { siteName: app.deps.site.name, siteUrl: app.deps.site.url };
    const reasons = Object.values(sources).map((source) => newsletterReason(source, site));
    expect(new Set(reasons).size).toBe(3);
    for (const [email, source] of Object.entries(sources)) {
      const [message] = app.mail.to(email) as [CaughtMail];
      const reason = newsletterReason(source, site);
      expect(message.text).toContain(reason);
      expect(message.html).toContain(reason);
      for (const other of reasons.filter((each) => each !== reason)) expect(message.text).not.toContain(other);
      expect(message.html).not.toContain(recipientReasonPlaceholder);
      expect(message.text).not.toContain(recipientReasonPlaceholder);
    }
    expect(app.mail.to("import@example.com")[0]?.text).not.toMatch(/You subscribed/);
  });
});
