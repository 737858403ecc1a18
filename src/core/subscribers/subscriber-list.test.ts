import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { countSubscribers } from "./subscriber-list.ts";
import type { Subscriber } from "./subscriber.schema.ts";

// Issue 39: the list pages by keyset (a cursor in `Link: rel="next"`), the totals are kept as rows change.
describe.each(featureDatabaseTargets)("the subscriber list on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db });
    admin = await app.adminHeaders();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await testDb.db.query("DELETE FROM subscribers");
  });

  /** Adds subscribers `from`..`to` signed up at `at` minus `n` × `step` (several share each instant, some a microsecond apart). */
  const add = (from: number, to: number, at: string, status = "n % 3 = 0") =>
    testDb.db.query<{ id: number }>(
      `INSERT INTO subscribers (email, source, status, subscribed_at)
       SELECT 'r' || n || '@example.com', 'newsletter', CASE WHEN ${status} THEN 'active' ELSE 'pending' END,
              $3::timestamptz - (n / 3) * interval '1 microsecond' - (n / 30) * interval '1 second'
         FROM generate_series($1::int, $2::int) AS n RETURNING id`,
      [from, to, at],
    );

  const next = (response: Response) => /<([^>]*)>; rel="next"/.exec(response.headers.get("link") ?? "")?.[1];

  /** Walks the list from `first` by its Link headers, running `between` after each page but the last; every page's rows. */
  async function walk(
    first: string,
    between: (page: number, rows: Subscriber[]) => Promise<void>,
  ): Promise<{ pages: Subscriber[][]; links: string[] }> {
    const pages: Subscriber[][] = [];
    const links: string[] = [];
    let url: string | undefined = first;
    while (url) {
      const response = await app.call(url, { headers: admin });
      expect(response.status).toBe(200);
      const rows = (await response.json()) as Subscriber[];
      pages.push(rows);
      url = next(response);
      if (url) links.push(url);
      if (url) await between(pages.length, rows);
      expect(pages.length).toBeLessThan(100);
    }
    return { pages, links };
  }

  it("never skips or repeats a row while rows are added and removed, and ends without a Link", async () => {
    const initial = (await add(1, 120, "2026-11-20T12:00:00Z")).rows.map((row) => row.id);
    const erasedUnread: number[] = [];
    const addedBehind: number[] = [];
    const read: number[] = [];
    const { pages } = await walk("/api/newsletter/subscribers?limit=7", async (page, rows) => {
      // Ahead of the cursor: newer sign-ups, which the pages still to come must not list.
      await add(1000 + page * 10, 1000 + page * 10 + 2, "2026-11-27T12:00:00Z");
      // Behind the cursor (an import of old sign-ups): each must be listed exactly once.
      addedBehind.push(...(await add(5000 + page * 10, 5000 + page * 10 + 2, "2020-01-01T00:00:00Z")).rows.map((row) => row.id));
      // The row the cursor names (listed last), and the oldest not listed yet (a larger id signed up earlier), erased.
      const listed = rows.at(-1)?.id ?? 0;
      read.push(...rows.map((subscriber) => subscriber.id));
      const unread = initial.filter((id) => !read.includes(id) && !erasedUnread.includes(id)).at(-1);
      if (unread !== undefined) erasedUnread.push(unread);
      await testDb.db.query("DELETE FROM subscribers WHERE id = ANY($1)", [[listed, unread ?? 0]]);
    });
    const ids = pages.flat().map((subscriber) => subscriber.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.slice(0, -1).every((page) => page.length === 7)).toBe(true);
    const seen = new Set(ids);
    // Every row there at the start was listed, unless it was erased before its page came.
    for (const id of initial) expect(seen.has(id) || erasedUnread.includes(id)).toBe(true);
    for (const id of addedBehind) expect(seen.has(id)).toBe(true);
    expect(ids.filter((id) => !initial.includes(id) && !addedBehind.includes(id))).toEqual([]);
    // In the list's order (newest first, then by id) across page boundaries too: the database's own order.
    const { rows } = await testDb.db.query<{ id: number }>("SELECT id FROM subscribers WHERE id = ANY($1) ORDER BY subscribed_at DESC, id DESC", [
      ids,
    ]);
    expect(ids.filter((id) => rows.some((row) => row.id === id))).toEqual(rows.map((row) => row.id));
  });

  it("carries the status filter and the page size in its Link, and refuses a made-up cursor", async () => {
    await add(1, 60, "2026-11-20T12:00:00Z");
    const { pages, links } = await walk("/api/newsletter/subscribers?limit=4&status=active", () => Promise.resolve());
    expect(links.length).toBeGreaterThan(2);
    for (const link of links) {
      const url = new URL(link, "http://localhost");
      expect([url.pathname, url.searchParams.get("limit"), url.searchParams.get("status")]).toEqual(["/api/newsletter/subscribers", "4", "active"]);
    }
    expect(pages.flat().length).toBe(20);
    expect(pages.flat().every((subscriber) => subscriber.status === "active")).toBe(true);
    // A page number (an old link) still works, and its Link goes on by cursor.
    const byNumber = await app.call("/api/newsletter/subscribers?limit=4&page=2&status=active", { headers: admin });
    expect(((await byNumber.json()) as Subscriber[]).map((s) => s.id)).toEqual(
      pages
        .flat()
        .slice(4, 8)
        .map((s) => s.id),
    );
    expect(next(byNumber)).toBe(links[1]);
    const bad = await app.call("/api/newsletter/subscribers?limit=4&after=yesterday", { headers: admin });
    expect([bad.status, await bad.json()]).toEqual([400, { error: "after must be the cursor of a Link header" }]);
  });

  it("keeps its totals equal to a count after inserts, upserts, status changes, erasures and a truncate", async () => {
    const recount = async () =>
      (
        await testDb.db.query<Record<string, number>>(
          `SELECT count(*)::int AS "all", count(*) FILTER (WHERE status = 'pending')::int AS pending,
                  count(*) FILTER (WHERE status = 'active')::int AS active, count(*) FILTER (WHERE status = 'unsubscribed')::int AS unsubscribed,
                  count(*) FILTER (WHERE status = 'bounced')::int AS bounced, count(*) FILTER (WHERE status = 'complained')::int AS complained,
                  count(*) FILTER (WHERE source = 'newsletter')::int AS "newsletterSignups" FROM subscribers`,
        )
      ).rows[0];
    await add(1, 40, "2026-11-20T12:00:00Z");
    expect(await countSubscribers(testDb)).toEqual(await recount());
    await testDb.db.query("UPDATE subscribers SET status = 'unsubscribed' WHERE id % 4 = 0");
    await testDb.db.query("UPDATE subscribers SET source = 'import', status = 'bounced' WHERE id % 5 = 0");
    await testDb.db.query("UPDATE subscribers SET confirmation_sent_at = now()");
    await testDb.db.query(
      `INSERT INTO subscribers (email, source, status) VALUES ('r1@example.com', 'download', 'pending'), ('new@example.com', 'download', 'pending')
       ON CONFLICT ((lower(email))) DO UPDATE SET status = 'complained'`,
    );
    await testDb.db.query("DELETE FROM subscribers WHERE id % 7 = 0");
    expect(await countSubscribers(testDb)).toEqual(await recount());
    // Many small changes, then a read that folds the tallies: the same totals, in a few rows.
    for (let i = 0; i < 260; i++)
      await testDb.db.query("UPDATE subscribers SET status = $1 WHERE id = (SELECT min(id) FROM subscribers)", [i % 2 ? "active" : "pending"]);
    const before = await recount();
    expect(await countSubscribers(testDb)).toEqual(before);
    expect(await countSubscribers(testDb)).toEqual(before);
    expect((await testDb.db.query<{ n: number }>("SELECT count(*)::int AS n FROM tallies.subscribers")).rows[0]?.n).toBeLessThanOrEqual(10);
    await testDb.db.query("TRUNCATE subscribers CASCADE");
    expect(await countSubscribers(testDb)).toEqual({
      all: 0,
      pending: 0,
      active: 0,
      unsubscribed: 0,
      bounced: 0,
      complained: 0,
      newsletterSignups: 0,
    });
  });
});
