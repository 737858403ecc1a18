/**
 * Bulk content for the benchmark, written straight into a database in a few statements
 * (`generate_series`), so seeding 5,000 posts or 100,000 subscribers takes seconds, not minutes.
 */
import pg from "pg";

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

/** Adds `count` published posts, one a day back from now, and returns the highest post id. */
export function seedPublishedPosts(databaseUrl: string, count: number): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO posts (title, content, excerpt, category, read_time, published, published_at, created_at, updated_at)
       SELECT 'Bench post ' || n, $1, 'What founder ' || n || ' learned the hard way.',
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

/** True when a Postgres server answers at `url`. */
export async function canConnect(url: string): Promise<boolean> {
  return withClient(url, () => Promise.resolve(true)).catch(() => false);
}
