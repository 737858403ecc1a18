import { afterEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { startSend } from "../newsletter/newsletter-sends.ts";
import { runSendWorker } from "../newsletter/newsletter-worker.ts";

// The headers every email carries besides its content, read back from a real SMTP server.
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function signUp(testApp: TestApp, email: string): Promise<CaughtMail> {
  const response = await testApp.call("/api/newsletter/subscribe", {
    method: "POST",
    headers: { origin: testOrigin, "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(200);
  const [mail] = testApp.mail.to(email);
  if (!mail) throw new Error(`no email reached ${email}`);
  return mail;
}

const setContactEmail = (testApp: TestApp, value: string) =>
  testApp.deps.db.query("INSERT INTO site_settings (key, value) VALUES ('contact_email', $1) ON CONFLICT (key) DO UPDATE SET value = $1", [value]);

describe("Reply-To and Auto-Submitted", () => {
  it("transactional mail is marked auto-generated, and replies go to the contact_email setting once it is set", async () => {
    const clock = createFakeClock();
    app = await createTestApp({ clock });
    // The seeded placeholder (hello@example.com) is nobody's inbox: no Reply-To rather than a stranger's.
    const before = await signUp(app, "first@example.com");
    expect(before.header("Auto-Submitted")).toBe("auto-generated");
    expect(before.header("Reply-To")).toBeUndefined();

    await setContactEmail(app, "owner@nofilter.test");
    // The setting is read at most once a minute (not once per message of a newsletter).
    clock.advance(61_000);
    const after = await signUp(app, "second@example.com");
    expect(after.header("Reply-To")).toBe("owner@nofilter.test");
    expect(after.header("Auto-Submitted")).toBe("auto-generated");

    // A value that is not one plain address (written to the table some other way) is never a header.
    await setContactEmail(app, "owner@nofilter.test\r\nBcc: someone@example.com");
    clock.advance(61_000);
    const injected = await signUp(app, "third@example.com");
    expect(injected.header("Reply-To")).toBeUndefined();
    expect(injected.header("Bcc")).toBeUndefined();
  });

  it("MAIL_REPLY_TO wins over the setting, on transactional mail and on the newsletter (which is not auto-generated)", async () => {
    app = await createTestApp({ env: { MAIL_REPLY_TO: "replies@nofilter.test" } });
    await setContactEmail(app, "owner@nofilter.test");
    expect((await signUp(app, "fourth@example.com")).header("Reply-To")).toBe("replies@nofilter.test");

    await app.deps.db.query("INSERT INTO subscribers (email, status, source) VALUES ('reader@example.com', 'active', 'import')");
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cash flow', '<p>Read it.</p>', 'Short', true, now()) RETURNING id",
    );
    const send = await startSend(app.deps, (rows[0] as { id: number }).id);
    expect(await runSendWorker(app.deps, send.id)).toMatchObject({ sent: 1 });
    const [newsletter] = app.mail.to("reader@example.com") as [CaughtMail];
    expect(newsletter.header("Reply-To")).toBe("replies@nofilter.test");
    expect(newsletter.header("Auto-Submitted")).toBeUndefined();
    expect(newsletter.header("List-Id")).toBe("No Filter <newsletter.localhost>");
  });
});
