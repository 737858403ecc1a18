import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { applyMigrations, readMigrations } from "./migrations.ts";

describe.each(databaseTargets)("data layer on $name", (target) => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await target.create();
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it("applies every migration once, and a second run applies none", async () => {
    const migrations = await readMigrations();
    expect(migrations.map((m) => m.name).slice(0, 2)).toEqual(["0001_initial", "0002_rate_limits"]);
    expect(await applyMigrations(testDb.db, migrations)).toEqual(migrations.map((m) => m.name));
    expect(await applyMigrations(testDb.db, migrations)).toEqual([]);
    const { rows } = await testDb.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(rows.map((row) => row.table_name)).toEqual([
      "admin_passkeys",
      "admin_recovery_codes",
      "admin_security",
      "admin_sessions",
      "api_keys",
      "background_run_starts",
      "backup_runs",
      "build_hook_state",
      "comment_owner_notices",
      "comments",
      "downloads",
      "email_events",
      "fediverse_blocks",
      "fediverse_changes",
      "fediverse_deliveries",
      "fediverse_follower_events",
      "fediverse_followers",
      "fediverse_keys",
      "fediverse_kv",
      "fediverse_post_states",
      "fediverse_reactions",
      "fediverse_servers",
      "import_redirects",
      "import_runs",
      "imported_posts",
      "login_throttle",
      "newsletter_link_clicks",
      "newsletter_links",
      "newsletter_recipients",
      "newsletter_sends",
      "outbox",
      "outbox_pause",
      "passkey_challenges",
      "payment_revocations",
      "payments",
      "pending_logins",
      "poll_answers",
      "poll_votes",
      "polls",
      "post_slug_redirects",
      "post_tags",
      "posts",
      "preview_links",
      "rate_limit_counters",
      "reader_sessions",
      "reader_sign_ins",
      "schema_migrations",
      "segments",
      "sequence_deliveries",
      "sequence_enrollments",
      "sequence_steps",
      "sequences",
      "site_build_status",
      "site_settings",
      "stats_daily",
      "stats_daily_dimensions",
      "stats_downloads",
      "stats_events",
      "stats_not_found",
      "stats_salts",
      "stats_signups",
      "stripe_events",
      "subscriber_consents",
      "subscriber_emails",
      "subscriber_tag_assignments",
      "subscriber_tags",
      "subscriber_topics",
      "subscribers",
      "supporters",
      "tag_slug_redirects",
      "tags",
      "webhook_attempts",
      "webhook_deliveries",
      "webhook_endpoints",
      "webhook_events",
      "websub_pings",
      "weekly_digests",
    ]);
  });

  it("creates, reads, updates and deletes a post", async () => {
    const created = await testDb.db.query<{ id: number; created_at: Date }>(
      "INSERT INTO posts (title, content, read_time) VALUES ($1, $2, $3) RETURNING id, created_at",
      ["First post", "<p>Hello</p>", 7],
    );
    const id = created.rows[0]?.id;
    expect(typeof id).toBe("number");
    expect(created.rows[0]?.created_at).toBeInstanceOf(Date);

    await testDb.db.query("UPDATE posts SET title = $1, published = true, published_at = now() WHERE id = $2", ["Renamed", id]);
    const read = await testDb.db.query<{ title: string; published: boolean; read_time: number }>(
      "SELECT title, published, read_time FROM posts WHERE id = $1",
      [id],
    );
    expect(read.rows).toEqual([{ title: "Renamed", published: true, read_time: 7 }]);

    await testDb.db.query("DELETE FROM posts WHERE id = $1", [id]);
    expect((await testDb.db.query("SELECT 1 FROM posts WHERE id = $1", [id])).rows).toEqual([]);
    // Neon's driver sends one-shot statements over HTTP.
    if (testDb.httpQueries) expect(testDb.httpQueries()).toBeGreaterThanOrEqual(4);
  });

  it("rejects a second subscriber with the same address in another case", async () => {
    await testDb.db.query("INSERT INTO subscribers (email) VALUES ($1)", ["Founder@Example.com"]);
    await expect(testDb.db.query("INSERT INTO subscribers (email) VALUES ($1)", ["founder@example.COM"])).rejects.toThrow(
      /subscribers_email_key|duplicate/,
    );
  });

  it("rolls a transaction back when its function throws", async () => {
    await expect(
      testDb.db.transaction(async (tx) => {
        await tx.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', 'Half-written')");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect((await testDb.db.query("SELECT 1 FROM site_settings WHERE key = 'hero_title'")).rows).toEqual([]);
  });

  it("rejects a read time outside 1–60 at the database too", async () => {
    await expect(testDb.db.query("INSERT INTO posts (title, content, read_time) VALUES ('t', 'c', 61)")).rejects.toThrow(/check constraint/);
  });
});
