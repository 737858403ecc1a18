/**
 * Bulk content for the benchmark, written straight into a database in a few statements
 * (`generate_series`), so seeding 5,000 posts or 100,000 subscribers takes seconds, not minutes.
 */
import pg from "pg";
import { applyMigrations, readMigrations } from "../../src/core/db/migrations.ts";
import { connectDatabase } from "../../src/adapters/connect-database.ts";

/** A post body of about 700 words with the markup the editor produces. */
const postBody = [
  "<h2>What happened</h2>",
  ...Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${String(i + 1)}: we raised less than we hoped, spent more than we planned, and learned that cash flow is a habit, not a spreadsheet. Every founder we interviewed said the same thing in a different way: talk to customers weekly, keep six months of runway, and write down why you made each decision so you can judge it later without hindsight.</p>`,
  ),
  "<h2>What we would do again</h2>",
  "<ul><li>Ship the smallest version first.</li><li>Price it from day one.</li><li>Say no to most meetings.</li></ul>",
  "<blockquote><p>Nobody remembers the launch; they remember whether it worked for them.</p></blockquote>",
  ...Array.from(
    { length: 4 },
    () =>
      "<p>The numbers that mattered were boring ones: how many people came back in week two, how long an invoice took to get paid, and how much of the month went to work that nobody asked for. <strong>Measure those</strong> and most other decisions get easier.</p>",
  ),
].join("");

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A paragraph of 80 words that differs from post to post (SQL over `n`, the post's number), drawn
 * from a vocabulary of 64: a search index or a build then meets as many distinct bodies as posts.
 */
const distinctParagraph = `'<p>' || (SELECT string_agg((ARRAY['runway','pricing','churn','hiring','cohort','margin','pitch','investor','seed','bootstrapped',
  'customer','onboarding','retention','pivot','launch','roadmap','burn','revenue','invoice','payroll','equity','dilution','founder','cofounder',
  'advisor','board','traction','funnel','landing','newsletter','podcast','community','partnership','channel','wholesale','subscription',
  'freemium','enterprise','contract','procurement','security','compliance','audit','refund','support','ticket','backlog','sprint','release',
  'outage','postmortem','metrics','dashboard','forecast','budget','loan','grant','accelerator','demo','term','sheet','valuation','exit','lesson'])
  [1 + ('x' || substr(md5(n || '-' || w), 1, 4))::bit(16)::int % 64], ' ') FROM generate_series(1, 80) AS w) || '.</p>'`;

/** Adds `count` published posts (each body distinct), one an hour back from now, and returns the highest post id. */
export function seedPublishedPosts(databaseUrl: string, count: number): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO posts (title, content, excerpt, category, read_time, published, published_at, created_at, updated_at)
       SELECT 'Bench post ' || n, $1 || ${distinctParagraph}, 'What founder ' || n || ' learned the hard way.',
              (ARRAY['Entrepreneurship','Cash Flow','Networking','Mindset','Funding'])[1 + n % 5], 4,
              true, now() - n * interval '1 hour', now() - n * interval '1 hour', now()
         FROM generate_series(1, $2::int) AS n
       RETURNING id`,
      [postBody, count],
    );
    return Math.max(...rows.map((row) => row.id));
  });
}

/** Adds `count` draft posts and returns their ids. */
export function seedDrafts(databaseUrl: string, count: number): Promise<number[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO posts (title, content, published) SELECT 'Bench draft ' || n, $1, false FROM generate_series(1, $2::int) AS n RETURNING id`,
      [postBody, count],
    );
    return rows.map((row) => row.id);
  });
}

/** Adds `count` subscribers with distinct addresses, numbered from `after` + 1. */
export async function seedSubscribers(databaseUrl: string, count: number, after = 0): Promise<void> {
  await withClient(databaseUrl, (client) =>
    client.query(
      `INSERT INTO subscribers (email, source, subscribed_at, status)
       SELECT 'reader' || n || '@bench.example', 'newsletter', now() - n * interval '1 minute', 'active'
         FROM generate_series($2::int + 1, $2::int + $1::int) AS n`,
      [count, after],
    ),
  );
}

/**
 * The database `name` on the server of `adminUrl`, made afresh (dropped first if it is there) with
 * every migration applied and `subscribers` active subscribers seeded by `seedSubscribers`; answers
 * its URL and the seed's time. The scale benches (a send's start, provider events) start here.
 */
export async function freshSeededDatabase(
  adminUrl: string,
  name: string,
  subscribers: number,
): Promise<{ databaseUrl: string; seedSeconds: number }> {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.href;
  const db = await connectDatabase(databaseUrl, { timeouts: { statementMs: 0 } });
  try {
    await applyMigrations(db, await readMigrations());
  } finally {
    await db.close();
  }
  const started = performance.now();
  await seedSubscribers(databaseUrl, subscribers);
  return { databaseUrl, seedSeconds: (performance.now() - started) / 1000 };
}

/**
 * Reader topics and subscriber tags over the subscribers there are (issue 42 point 8): `topics`
 * post tags marked as topics, `tags` subscriber tags. Seven in ten follow everything, the others
 * one to three topics; one in ten reads the weekly digest; each person carries three tags.
 */
export function seedTopicsAndTags(databaseUrl: string, counts: { topics: number; tags: number }): Promise<void> {
  return withClient(databaseUrl, async (client) => {
    await client.query(
      "INSERT INTO tags (slug, name, topic) SELECT 'topic-' || n, 'Topic ' || n, true FROM generate_series(1, $1::int) AS n ON CONFLICT DO NOTHING",
      [counts.topics],
    );
    await client.query("INSERT INTO subscriber_tags (slug) SELECT 'tag-' || n FROM generate_series(1, $1::int) AS n ON CONFLICT DO NOTHING", [
      counts.tags,
    ]);
    await client.query(`UPDATE subscribers SET follows_everything = id % 10 < 7, frequency = CASE WHEN id % 10 = 9 THEN 'weekly' ELSE 'each' END`);
    await client.query(
      `INSERT INTO subscriber_topics (subscriber_id, tag_id)
       SELECT DISTINCT s.id, t.id
         FROM subscribers s CROSS JOIN generate_series(0, 2) AS k
         JOIN tags t ON t.topic AND t.slug = 'topic-' || (1 + (s.id * (k + 3)) % $1::int)
        WHERE s.id % 10 >= 7 AND k <= s.id % 3
       ON CONFLICT DO NOTHING`,
      [counts.topics],
    );
    await client.query(
      `INSERT INTO subscriber_tag_assignments (subscriber_id, subscriber_tag_id, source, detail)
       SELECT DISTINCT s.id, g.id, 'owner', 'bench'
         FROM subscribers s CROSS JOIN generate_series(0, 2) AS k
         JOIN subscriber_tags g ON g.slug = 'tag-' || (1 + (s.id * (2 * k + 1) + k * 7) % $1::int)
       ON CONFLICT DO NOTHING`,
      [counts.tags],
    );
    // As autovacuum leaves a table soon after a bulk change (every row above was rewritten): the
    // visibility map set, so an index-only scan need not visit the rows.
    await client.query("VACUUM ANALYZE subscribers, subscriber_topics, subscriber_tag_assignments");
  });
}

/** What `seedList` wrote, and how long each part took. */
export interface SeededList {
  subscribers: number;
  recipients: number;
  events: number;
  subscribersSeconds: number;
  sendSeconds: number;
}

/**
 * A list as a grown site has it, for the dashboard's calls at scale: `count` subscribers in the
 * mix a real list has (92 % active, 3 % pending, 4 % unsubscribed, 0.7 % bounced, 0.3 %
 * complained; signed up over about two years from the form, downloads and an import), then one
 * newsletter sent this week to every active one (a recipient row each, sent) with its provider
 * events (a hard bounce or a complaint for each suppressed subscriber who got it). Two statements
 * of `generate_series`, each in its own transaction.
 */
export function seedList(databaseUrl: string, count: number): Promise<SeededList> {
  return withClient(databaseUrl, async (client) => {
    let started = performance.now();
    await client.query(
      `INSERT INTO subscribers (email, source, subscribed_at, status, confirmed_at, unsubscribed_at, suppressed_reason, suppressed_at)
       SELECT 'reader' || n || '@bench.example', (ARRAY['newsletter','newsletter','newsletter','download','import'])[1 + n % 5], at, st,
              CASE WHEN st <> 'pending' THEN at + interval '5 minutes' END,
              CASE WHEN st = 'unsubscribed' THEN at + interval '30 days' END,
              CASE WHEN st IN ('bounced', 'complained') THEN 'seeded' END,
              CASE WHEN st IN ('bounced', 'complained') THEN now() - interval '2 days' END
         FROM generate_series(1, $1::int) AS n,
              LATERAL (SELECT now() - interval '3 days' - ($1::int - n) * interval '1 minute' * (1000000.0 / $1::int) AS at,
                              CASE WHEN n % 1000 < 920 THEN 'active' WHEN n % 1000 < 950 THEN 'pending' WHEN n % 1000 < 990 THEN 'unsubscribed'
                                   WHEN n % 1000 < 997 THEN 'bounced' ELSE 'complained' END AS st) AS row`,
      [count],
    );
    const subscribersSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const { rows } = await client.query<{ recipients: number; events: number }>(
      `WITH post AS (
         INSERT INTO posts (title, content, excerpt, category, read_time, published, published_at, created_at, updated_at)
         VALUES ('Bench newsletter', '<p>This week.</p>', 'This week.', 'Mindset', 1, true, now() - interval '2 days', now() - interval '2 days', now())
         RETURNING id),
       send AS (
         INSERT INTO newsletter_sends (post_id, status, subject, html, text, total, created_at, started_at, finished_at)
         SELECT id, 'sent', 'Bench newsletter', '<p>This week.</p>', 'This week.', 0, now() - interval '2 days', now() - interval '2 days', now() - interval '2 days'
           FROM post RETURNING id),
       recipients AS (
         INSERT INTO newsletter_recipients (send_id, subscriber_id, status, attempts, message_id, sent_at)
         SELECT send.id, s.id, 'sent', 1, '<bench-' || s.id || '@bench.example>', now() - interval '2 days'
           FROM send, subscribers s WHERE s.status IN ('active', 'bounced', 'complained') OR s.status = 'unsubscribed' AND s.id % 10 = 0
         RETURNING send_id, subscriber_id, message_id),
       events AS (
         INSERT INTO email_events (provider, event_id, type, subscriber_id, send_id, message_ref, reason, occurred_at, received_at)
         SELECT 'mailgun', 'bench-' || r.subscriber_id, CASE s.status WHEN 'bounced' THEN 'hard_bounce' ELSE 'complaint' END,
                r.subscriber_id, r.send_id, r.message_id, 'seeded', now() - interval '2 days', now() - interval '2 days'
           FROM recipients r JOIN subscribers s ON s.id = r.subscriber_id WHERE s.status IN ('bounced', 'complained')
         RETURNING 1)
       SELECT (SELECT count(*) FROM recipients)::int AS recipients, (SELECT count(*) FROM events)::int AS events`,
    );
    const sendSeconds = (performance.now() - started) / 1000;
    await client.query("ANALYZE");
    const seeded = rows[0] ?? { recipients: 0, events: 0 };
    return { subscribers: count, ...seeded, subscribersSeconds, sendSeconds };
  });
}

/** Runs `run` against a fresh scratch database on the server of `adminUrl`, dropped afterwards. */
export async function withScratchDatabase<T>(adminUrl: string, run: (databaseUrl: string) => Promise<T>): Promise<T> {
  const name = `nf_bench_${String(process.pid)}_${Date.now().toString(36)}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.href);
  } finally {
    await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

/** Drops the databases `names` on the server of `adminUrl`, those that are there. */
export async function dropDatabases(adminUrl: string, names: string[]): Promise<void> {
  await withClient(adminUrl, async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** True when a Postgres server answers at `url`. */
export async function canConnect(url: string): Promise<boolean> {
  return withClient(url, () => Promise.resolve(true)).catch(() => false);
}

if (import.meta.main) {
  // node tests/bench/bulk-seed.ts <databaseUrl> [subscribers]: seeds a migrated database once.
  const [databaseUrl, size] = process.argv.slice(2);
  if (!databaseUrl) throw new Error("usage: node tests/bench/bulk-seed.ts <databaseUrl> [subscribers]");
  console.log(await seedList(databaseUrl, Number(size ?? 1_000_000)));
}
