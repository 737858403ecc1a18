import type { SqlQueryable } from "../db/sql-executor.ts";
import type { Day } from "./stats-days.ts";

/**
 * The cells (day × page × source × medium × campaign × device × country) of the raw page views in
 * `source_events`, a CTE the caller defines. Each visitor-day takes the source of its first page
 * from outside the site ("direct" without one) and the device and country of its first page, so
 * `entries` (visitors whose day began on the page) add up to the day's visitors along any dimension
 * and `visitors` to a page's.
 */
export const cellsOf = `
  firsts AS (
    SELECT DISTINCT ON (day, visitor) day, visitor, path AS entry_path, device, country
      FROM source_events ORDER BY day, visitor, at, id
  ), origins AS (
    SELECT DISTINCT ON (day, visitor) day, visitor, source, utm_medium, utm_campaign
      FROM source_events WHERE source <> '' ORDER BY day, visitor, at, id
  ), visits AS (
    SELECT f.day, f.visitor, f.entry_path, f.device, f.country,
           coalesce(o.source, 'direct') AS source, coalesce(o.utm_medium, '') AS utm_medium, coalesce(o.utm_campaign, '') AS utm_campaign
      FROM firsts f LEFT JOIN origins o ON o.day = f.day AND o.visitor = f.visitor
  ), cells AS (
    SELECT e.day, e.path, v.source, v.utm_medium, v.utm_campaign, v.device, v.country,
           count(DISTINCT e.visitor)::int AS visitors, count(*)::int AS pageviews,
           count(DISTINCT e.visitor) FILTER (WHERE e.path = v.entry_path)::int AS entries
      FROM source_events e JOIN visits v ON v.day = e.day AND v.visitor = e.visitor
     GROUP BY e.day, e.path, v.source, v.utm_medium, v.utm_campaign, v.device, v.country
  )`;

/**
 * The cells summed along one dimension at a time, per day: the rows of `stats_daily_dimensions`.
 */
export const dimensionsOf = `
  dimensions AS (
    SELECT day,
           CASE WHEN GROUPING(path) = 0 THEN 'page' WHEN GROUPING(source) = 0 THEN 'source'
                WHEN GROUPING(device) = 0 THEN 'device' WHEN GROUPING(country) = 0 THEN 'country' ELSE 'day' END AS dimension,
           coalesce(path, source, device, country, '') AS value,
           (CASE WHEN GROUPING(path) = 0 THEN sum(visitors) ELSE sum(entries) END)::int AS visitors,
           sum(pageviews)::int AS pageviews
      FROM cells GROUP BY GROUPING SETS ((day), (day, path), (day, source), (day, device), (day, country))
  )`;

/**
 * Rolls every day before `today` into the rollups and deletes its raw page views, a day at a time
 * (a day is one statement, however long nobody looked: a backlog never becomes one long query).
 * Returns how many page views were rolled.
 */
export async function rollUpPastDays(db: SqlQueryable, today: Day): Promise<number> {
  const { rows } = await db.query<{ day: string }>("SELECT DISTINCT day::text AS day FROM stats_events WHERE day < $1::date ORDER BY day", [today]);
  let rolled = 0;
  for (const { day } of rows) rolled += await rollUpDay(db, day);
  if (rolled > 0) {
    // A signup's visitor hash stops a visitor signing up twice on a page in one day: once the day is
    // over it is forgotten with the raw views.
    await db.query("UPDATE stats_signups SET visitor = NULL WHERE day < $1::date AND visitor IS NOT NULL", [today]);
    // The deleted rows stay in the table and its index as dead tuples until a vacuum, and today's
    // reads would wade through them (a 90-day backlog made the Stats call 1.3 s): clean up now,
    // once a day. A database that refuses (no rights) waits for autovacuum instead.
    await db.query("VACUUM (ANALYZE) stats_events").catch(() => undefined);
  }
  return rolled;
}

/**
 * Rolls one day into `stats_daily` and `stats_daily_dimensions` and deletes its raw page views, in
 * one statement: two runs at once can't count a day twice (the second finds the rows gone). The
 * statement adds to a row already there, for a page view that arrived as its day was rolled.
 */
async function rollUpDay(db: SqlQueryable, day: Day): Promise<number> {
  const { rows } = await db.query<{ rolled: number }>(
    `WITH source_events AS (DELETE FROM stats_events WHERE day = $1::date RETURNING *), ${cellsOf},
     saved AS (
       INSERT INTO stats_daily (day, path, source, utm_medium, utm_campaign, device, country, visitors, pageviews, entries)
       SELECT day, path, source, utm_medium, utm_campaign, device, country, visitors, pageviews, entries FROM cells
       ON CONFLICT (day, path, source, utm_medium, utm_campaign, device, country) DO UPDATE
         SET visitors = stats_daily.visitors + excluded.visitors,
             pageviews = stats_daily.pageviews + excluded.pageviews,
             entries = stats_daily.entries + excluded.entries
       RETURNING 1
     ), ${dimensionsOf},
     summed AS (
       INSERT INTO stats_daily_dimensions (day, dimension, value, visitors, pageviews)
       SELECT day, dimension, value, visitors, pageviews FROM dimensions
       ON CONFLICT (day, dimension, value) DO UPDATE
         SET visitors = stats_daily_dimensions.visitors + excluded.visitors,
             pageviews = stats_daily_dimensions.pageviews + excluded.pageviews
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM source_events)::int AS rolled`,
    [day],
  );
  return rows[0]?.rolled ?? 0;
}

/**
 * Deletes rollups older than the retention (stats_daily, stats_not_found): 25 months, so a year
 * can be set beside the one before it (docs/decisions/0032-cookieless-stats.md).
 */
export async function dropExpiredRollups(db: SqlQueryable, today: Day): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM stats_daily WHERE day < ($1::date - interval '25 months')::date),
          summed AS (DELETE FROM stats_daily_dimensions WHERE day < ($1::date - interval '25 months')::date)
     DELETE FROM stats_not_found WHERE day < ($1::date - interval '25 months')::date`,
    [today],
  );
}
