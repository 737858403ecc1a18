import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { startSend } from "../../core/newsletter/newsletter-sends.ts";
import { runSendWorker } from "../../core/newsletter/newsletter-worker.ts";
import { importConsentMissingMessage, importConsentWording } from "../../core/subscribers/subscriber-import.schema.ts";
import { missingEmailColumnMessage } from "../../core/subscribers/subscriber-import.ts";
import { subscriberDataSchema, subscriberGoneMessage } from "../../core/subscribers/subscriber-privacy.schema.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const csvFile = (text: string) => new File([text], "subscribers.csv", { type: "text/csv" });

async function importForm(fields: FormFields, headers?: Record<string, string>): Promise<Response> {
  const { body, contentType } = await multipartBody(fields);
  return app.call("/api/newsletter/subscribers/import", {
    method: "POST",
    body,
    headers: { ...(headers ?? (await app.adminHeaders())), "content-type": contentType },
  });
}

const idOf = async (email: string) =>
  (await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email])).rows[0]?.id ?? 0;

describe("POST /api/newsletter/subscribers/import", () => {
  it("imports a CSV confirmed by the owner and answers the counts and the refused lines", async () => {
    await app.deps.db.query("INSERT INTO subscribers (email, source, status) VALUES ('left@example.com', 'newsletter', 'unsubscribed')");
    const response = await importForm({
      file: csvFile('\uFEFFEmail,source\r\n"first@example.com","a, b"\r\nleft@example.com,x\r\nbroken,\r\nfirst@example.com,\r\n'),
      consent: "true",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      imported: 1,
      skipped: 2,
      invalid: [{ line: 4, reason: 'Invalid email address: "broken"' }],
      invalidCount: 1,
    });
    const { rows } = await app.deps.db.query(
      "SELECT status, source FROM subscribers WHERE email IN ('first@example.com', 'left@example.com') ORDER BY email",
    );
    expect(rows).toEqual([
      { status: "active", source: "import" },
      { status: "unsubscribed", source: "newsletter" },
    ]);
  });

  it("refuses without the owner's confirmation, without a file or without an email column (400), and without a session (401)", async () => {
    const refused = await importForm({ file: csvFile("email\nno-consent@example.com\n") });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: importConsentMissingMessage });
    expect((await importForm({ consent: "true" })).status).toBe(400);
    const noColumn = await importForm({ file: csvFile("address\nx@example.com\n"), consent: "true" });
    expect(noColumn.status).toBe(400);
    expect(await noColumn.json()).toEqual({ error: missingEmailColumnMessage });
    const anonymous = await importForm({ file: csvFile("email\nanon@example.com\n"), consent: "true" }, { origin: testOrigin });
    expect(anonymous.status).toBe(401);
    expect(await idOf("no-consent@example.com")).toBe(0);
    expect(await idOf("anon@example.com")).toBe(0);
  });

  it("imports 10,000 rows through the API (multipart, CSV, batched inserts)", async () => {
    const lines = ["email,subscribed_at", ...Array.from({ length: 10_000 }, (_, i) => `api-bulk${String(i)}@example.com,2025-06-01`)];
    const started = performance.now();
    const response = await importForm({ file: csvFile(lines.join("\r\n")), consent: "true" });
    const result = (await response.json()) as { imported: number; skipped: number };
    console.info(`[import] 10,000 rows through POST /api/newsletter/subscribers/import: ${(performance.now() - started).toFixed(0)} ms`);
    expect(result).toEqual({ imported: 10_000, skipped: 0, invalid: [], invalidCount: 0 });
  });

  it("refuses a file over 4 MB with 413", async () => {
    const response = await importForm({ file: csvFile(`email\n${"x".repeat(4 * 1024 * 1024)}\n`), consent: "true" });
    expect(response.status).toBe(413);
  });
});

describe("GET /api/newsletter/subscribers/{id}/export", () => {
  it("downloads everything held about one person: the row, the consent records and the emails sent", async () => {
    await importForm({ file: csvFile("email,subscribed_at\nheld@example.com,2024-02-03T04:05:06Z\n"), consent: "true" });
    const id = await idOf("held@example.com");
    await app.deps.db.query(
      "INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at) VALUES ($1, 'welcome', 'Welcome to No Filter', '<m1@nofilter.test>', '2024-02-04T00:00:00Z')",
      [id],
    );
    expect((await app.call(`/api/newsletter/subscribers/${String(id)}/export`)).status).toBe(401);
    const response = await app.call(`/api/newsletter/subscribers/${String(id)}/export`, { headers: await app.adminHeaders() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="subscriber-${String(id)}.json"`);
    const data = subscriberDataSchema.parse(await response.json());
    expect(data.subscriber).toMatchObject({
      id,
      email: "held@example.com",
      status: "active",
      source: "import",
      subscribedAt: "2024-02-03T04:05:06.000Z",
    });
    expect(data.subscriber.confirmedAt).not.toBeNull();
    expect(data.consents).toEqual([
      expect.objectContaining({ source: "import", wording: importConsentWording, askedAt: "2024-02-03T04:05:06.000Z" }),
    ]);
    expect(data.emails).toEqual([
      { kind: "welcome", subject: "Welcome to No Filter", messageId: "<m1@nofilter.test>", sentAt: "2024-02-04T00:00:00.000Z", resourceId: null },
    ]);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    const headers = await app.adminHeaders();
    const unknown = await app.call("/api/newsletter/subscribers/999999/export", { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: subscriberGoneMessage });
    expect((await app.call("/api/newsletter/subscribers/abc/export", { headers })).status).toBe(404);
  });
});

describe("DELETE /api/newsletter/subscribers/{id}", () => {
  const erase = async (id: number | string, headers?: Record<string, string>) =>
    app.call(`/api/newsletter/subscribers/${String(id)}`, { method: "DELETE", headers: headers ?? (await app.adminHeaders()) });

  it("erases the row, its consent records and every send record: the address is left nowhere", async () => {
    await importForm({ file: csvFile("email\nforget-me@example.com\n"), consent: "true" });
    const id = await idOf("forget-me@example.com");
    await app.deps.db.query(
      "INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at) VALUES ($1, 'welcome', 'Welcome', '<m2@nofilter.test>', now())",
      [id],
    );
    expect((await erase(id, { origin: testOrigin })).status).toBe(401);
    const response = await erase(id);
    expect(response.status).toBe(204);
    const headers = await app.adminHeaders();
    expect(await (await app.call("/api/newsletter/subscribers", { headers })).text()).not.toContain("forget-me@example.com");
    expect(await (await app.call("/api/newsletter/subscribers/export", { headers })).text()).not.toContain("forget-me@example.com");
    const { rows } = await app.deps.db.query<{ left: number }>(
      `SELECT (SELECT count(*) FROM subscribers WHERE email = 'forget-me@example.com')
            + (SELECT count(*) FROM subscriber_consents WHERE subscriber_id = $1)
            + (SELECT count(*) FROM subscriber_emails WHERE subscriber_id = $1) AS left`,
      [id],
    );
    expect(Number(rows[0]?.left)).toBe(0);
    expect((await erase(id)).status).toBe(404);
  });

  it("answers 404 for an unknown id", async () => {
    const response = await erase(999999);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: subscriberGoneMessage });
  });
});

describe("a person's mail, exported and erased", () => {
  let mailApp: TestApp;
  beforeAll(async () => {
    // The sink refuses one address with a reply that names it, as real servers do.
    mailApp = await createTestApp({ smtp: { reject: (address) => (address === "erase-me@example.com" ? 550 : undefined) } });
  });
  afterAll(async () => {
    await mailApp.close();
  });

  const subscriberId = async (email: string) => {
    const { rows } = await mailApp.deps.db.query<{ id: number }>(
      "INSERT INTO subscribers (email, status, source) VALUES ($1, 'active', 'import') RETURNING id",
      [email],
    );
    return (rows[0] as { id: number }).id;
  };
  let postNumber = 0;
  const sendNewsletter = async () => {
    const { rows } = await mailApp.deps.db.query<{ id: number }>(
      "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ($1, '<p>Read it.</p>', 'Short', true, now()) RETURNING id",
      [`Issue ${String(++postNumber)}`],
    );
    const postId = (rows[0] as { id: number }).id;
    const send = await startSend(mailApp.deps, postId);
    await runSendWorker(mailApp.deps, send.id);
    return { postId, subject: `Issue ${String(postNumber)}` };
  };
  const queueWelcome = (id: number, email: string, messageId: string) =>
    mailApp.deps.db.query(
      "INSERT INTO outbox (kind, subscriber_id, to_address, message_id, created_at, status, attempts, last_error) VALUES ('welcome', $1, $2, $3, now(), 'pending', 1, '451 try later')",
      [id, email, messageId],
    );

  it("the export lists every message sent or attempted: the newsletter, and what waits in the outbox", async () => {
    const id = await subscriberId("exported@example.com");
    const { subject } = await sendNewsletter();
    await queueWelcome(id, "exported@example.com", "<queued-welcome@nofilter.test>");
    const response = await mailApp.call(`/api/newsletter/subscribers/${String(id)}/export`, { headers: await mailApp.adminHeaders() });
    const data = subscriberDataSchema.parse(await response.json());
    const [received] = mailApp.mail.to("exported@example.com") as [CaughtMail];
    expect(data.emails).toEqual([expect.objectContaining({ kind: "newsletter", subject, messageId: received.messageId })]);
    expect(data.newsletters).toEqual([
      { subject, status: "sent", messageId: received.messageId, sentAt: expect.any(String) as string, attempts: 1, lastError: null },
    ]);
    expect(data.unsentEmails).toEqual([
      {
        kind: "welcome",
        status: "pending",
        messageId: "<queued-welcome@nofilter.test>",
        queuedAt: expect.any(String) as string,
        attempts: 1,
        lastError: "451 try later",
      },
    ]);
  });

  /** Every text column of every table that holds `needle`, as `table.column`. */
  async function whereFound(needle: string): Promise<string[]> {
    const { rows: columns } = await mailApp.deps.db.query<{ table_name: string; column_name: string }>(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
        ORDER BY 1, 2`,
    );
    expect(columns.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const { rows } = await mailApp.deps.db.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM "${table}" WHERE lower("${column}"::text) LIKE '%' || $1 || '%'`,
        [needle.toLowerCase()],
      );
      if (Number(rows[0]?.n) > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  it("erasing leaves the address in no column of any table: the SMTP replies that named it go too", async () => {
    const email = "erase-me@example.com";
    const id = await subscriberId(email);
    const { postId } = await sendNewsletter();
    // A test send to the address (nobody's row in the outbox), refused with a reply naming it.
    const test = await mailApp.call("/api/newsletter/sends/test", {
      method: "POST",
      headers: { ...(await mailApp.adminHeaders()), "content-type": "application/json" },
      body: JSON.stringify({ postId, email }),
    });
    expect(test.status).toBeLessThan(300);
    await queueWelcome(id, email, "<erase-me-welcome@nofilter.test>");
    await mailApp.deps.db.query(
      "INSERT INTO subscriber_emails (subscriber_id, kind, subject, message_id, sent_at) VALUES ($1, 'welcome', 'Welcome', '<m3@nofilter.test>', now())",
      [id],
    );
    // Before: the address is in the row, the newsletter's refusal and the outbox (the test's teeth).
    expect(await whereFound(email)).toEqual(
      expect.arrayContaining(["newsletter_recipients.last_error", "outbox.last_error", "outbox.to_address", "subscribers.email"]),
    );

    const response = await mailApp.call(`/api/newsletter/subscribers/${String(id)}`, { method: "DELETE", headers: await mailApp.adminHeaders() });
    expect(response.status).toBe(204);
    expect(await whereFound(email)).toEqual([]);
    expect(await whereFound("erase-me")).toEqual([]);
    // The send's counts still add up: the row stays, nameless and without the reply.
    const { rows } = await mailApp.deps.db.query("SELECT status, subscriber_id, last_error FROM newsletter_recipients WHERE status = 'failed'");
    expect(rows).toEqual([{ status: "failed", subscriber_id: null, last_error: null }]);
  });
});
