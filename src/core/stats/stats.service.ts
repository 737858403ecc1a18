import { commentStatsByPost } from "../comments/comments.service.ts";
import { clientKey } from "../client-key.ts";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { ValidationError } from "../errors.ts";
import type { RateLimit } from "../rate-limit.ts";
import type { Clock } from "../shared/clock.ts";
import { clientHash, dailySalt, saltedHash, visitorHash } from "./daily-salt.ts";
import { deviceOf, isAddressLike, isBotAgent, pageViewDimensions } from "./page-view.ts";
import { isSitePage } from "./site-pages.ts";
import { groupCommit } from "../db/group-commit.ts";
import { attributeForm, sourceSql, unknownPage, type FormRequest } from "./attribution.ts";
import { sendClicks } from "./newsletter-clicks.ts";
import { takeViewLimit, writeView, writtenVersion, type ViewRow } from "./view-writer.ts";
import { cellsOf, dimensionsOf, dropExpiredRollups, rollUpPastDays } from "./rollups.ts";
import { addDays, dayIn, daysBetween, type Day } from "./stats-days.ts";
import type { PageViewReport, Stats, StatsQuery } from "./stats.schema.ts";

/** What the stats need: the database, the clock, and the site's time zone (UTC unless set). */
export interface StatsDeps {
  db: SqlExecutor;
  now: Clock["now"];
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined; SITE_TIME_ZONE?: string | undefined };
}

/** A page view as the API hands it over: the beacon's report and what the request said. Never stored as such. */
export interface PageViewRequest extends PageViewReport {
  userAgent: string;
  clientIp: string;
  /** ISO 3166 code from the platform (Netlify's geo context); none locally. */
  country: string | undefined;
  /** The site's own host names (the request's, SITE_URL's): a referrer on them is no source. */
  siteHosts: readonly string[];
}

/** A page sends one beacon per view; a browser with many tabs opens a few a minute. A script gets 429. */
export const pageViewLimit: RateLimit = { bucket: "stats-events", max: 120, windowMs: 60 * 1000 };

const timeZoneOf = (deps: Pick<StatsDeps, "env">) => deps.env?.SITE_TIME_ZONE ?? "UTC";

/** Today in the site's time zone. */
export const statsToday = (deps: Pick<StatsDeps, "now" | "env">): Day => dayIn(timeZoneOf(deps), deps.now());

/**
 * Counts one page view. Bots (isbot, or no user agent) and pages from another site are dropped
 * without a word; the caller has already dropped the owner's own views. The visitor is a hash of
 * (today's salt, address, user agent, site); the rate limit keys the client by a hash under the same
 * salt, so no table ever holds the address.
 */
export async function recordPageView(deps: StatsDeps, view: PageViewRequest): Promise<void> {
  if (isBotAgent(view.userAgent)) return;
  let pageUrl: URL;
  try {
    pageUrl = new URL(view.url);
  } catch {
    return;
  }
  if (!view.siteHosts.includes(pageUrl.hostname)) return;
  const now = deps.now();
  const day = dayIn(timeZoneOf(deps), now);
  const { salt, isNewDay } = await dailySalt(deps.db, day);
  if (isNewDay) {
    await rollUpPastDays(deps.db, day);
    await dropExpiredRollups(deps.db, day);
  }
  const client = clientKey(view.clientIp);
  const limit = { ...pageViewLimit, max: pageViewLimit.max * (deps.env?.RATE_LIMIT_MULTIPLIER ?? 1) };
  takeViewLimit(saltedHash(salt, "rate", client), limit, now);
  const dimensions = pageViewDimensions(pageUrl, view.referrer, view.siteHosts);
  if (view.notFound) {
    if (isAddressLike(dimensions.path)) return;
    await deps.db.query(
      `INSERT INTO stats_not_found (day, path, views) VALUES ($1::date, $2, 1)
       ON CONFLICT (day, path) DO UPDATE SET views = stats_not_found.views + 1`,
      [day, dimensions.path],
    );
    return;
  }
  // Only a page of the site is a page view: not a made-up path, an API address or a preview.
  if (!(await isSitePage(deps.db, dimensions.path, now))) return;
  const visitor = visitorHash(salt, view.clientIp, view.userAgent, view.siteHosts);
  const country = /^[A-Za-z]{2}$/.test(view.country ?? "") ? (view.country ?? "").toUpperCase() : "";
  await writeView(deps.db, {
    day,
    at: now,
    visitor,
    path: dimensions.path,
    source: dimensions.source,
    utmMedium: dimensions.utmMedium,
    utmCampaign: dimensions.utmCampaign,
    device: deviceOf(view.userAgent),
    country,
    client: clientHash(salt, view.clientIp),
  });
}

/** The longest range the dashboard may ask for at once. */
export const maxRangeDays = 400;
const defaultRangeDays = 30;
const topRows = 100;

/** The range a query asks for (both days included; default the last 30 days up to today), checked: 400 days at most. */
export function statsRange(deps: Pick<StatsDeps, "now" | "env">, query: StatsQuery): { from: Day; to: Day } {
  const to = query.to ?? statsToday(deps);
  const from = query.from ?? addDays(to, -(defaultRangeDays - 1));
  if (from > to) throw new ValidationError("from must not be after to");
  if (to > addDays(from, maxRangeDays - 1)) throw new ValidationError(`The range may span at most ${String(maxRangeDays)} days`);
  return { from, to };
}

/** The site's time zone, for SQL that turns a time into the site's day. */
export const statsTimeZone = timeZoneOf;

interface DimensionRow {
  dimension: "day" | "page" | "source" | "device" | "country";
  value: string;
  day: string | null;
  visitors: number;
  pageviews: number;
}

const byCount =
  <Row>(count: (row: Row) => number, name: (row: Row) => string) =>
  (a: Row, b: Row) =>
    count(b) - count(a) || name(a).localeCompare(name(b));

/**
 * The newsletters started in the range (days in the site's time zone), newest first. An unsubscribe
 * link names no send, so a send's unsubscribes are its recipients who left after it started and
 * before the next send. Delivered is the send's counter of sent rows (migration 0037); the
 * unsubscribes start from who left in that window (an index on `unsubscribed_at`, migration 0041)
 * and probe each one's recipient row: neither reads every recipient row of the send (decision 0070).
 */
async function newslettersIn(deps: StatsDeps, from: Day, to: Day): Promise<Stats["newsletters"]> {
  const { rows } = await deps.db.query<{ id: number; subject: string; created_at: Date | string; delivered: number; unsubscribes: number }>(
    `WITH sends AS (
       SELECT s.id, s.subject, s.created_at, s.count_sent,
              lead(s.created_at) OVER (ORDER BY s.created_at, s.id) AS next_at
         FROM newsletter_sends s
     )
     SELECT s.id, s.subject, s.created_at, s.count_sent AS delivered,
            (SELECT count(*) FROM subscribers sub
               JOIN LATERAL (SELECT 1 FROM newsletter_recipients r
                              WHERE r.send_id = s.id AND r.subscriber_id = sub.id AND r.status = 'sent' LIMIT 1) r ON true
              WHERE sub.unsubscribed_at >= s.created_at AND sub.unsubscribed_at < coalesce(s.next_at, 'infinity'))::int AS unsubscribes
       FROM sends s
      WHERE (s.created_at AT TIME ZONE $3)::date BETWEEN $1::date AND $2::date
      ORDER BY s.created_at DESC, s.id DESC`,
    [from, to, timeZoneOf(deps)],
  );
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      subject: row.subject,
      sentAt: new Date(row.created_at).toISOString(),
      delivered: row.delivered,
      unsubscribes: row.unsubscribes,
      ...(await sendClicks(deps.db, row.id)),
    })),
  );
}

/** Signups per page (a post's old address folded into it) and source, most first. */
function foldSignups(rows: Stats["signups"], currentPath: ReadonlyMap<string, string>): Stats["signups"] {
  const folded = new Map<string, Stats["signups"][number]>();
  for (const row of rows) {
    const path = currentPath.get(row.path) ?? row.path;
    const key = `${path}\u0000${row.source}`;
    const total = folded.get(key) ?? { path, source: row.source, signups: 0, confirmed: 0 };
    total.signups += row.signups;
    total.confirmed += row.confirmed;
    folded.set(key, total);
  }
  return [...folded.values()].sort((a, b) => b.signups - a.signups || a.path.localeCompare(b.path) || a.source.localeCompare(b.source));
}

/** Adds `visitors` to the row named `value` (a day's rollup and today's live rows name the same source). */
function add<Key extends string>(list: ({ [K in Key]: string } & { visitors: number })[], key: Key, value: string, visitors: number): void {
  const row = list.find((entry) => entry[key] === value);
  if (row) row.visitors += visitors;
  else list.push({ [key]: value, visitors } as { [K in Key]: string } & { visitors: number });
}

/** Today's figures, computed from its raw page views, kept per database until a page view is written here or 30 s pass. */
const live = new WeakMap<object, { day: Day; version: number; at: number; rows: DimensionRow[] }>();
const liveMaxAgeMs = 30_000;

/** Drops what this process keeps of today's figures (tests that change the tables behind its back). */
export function forgetLiveStats(db: object): void {
  live.delete(db);
}

/**
 * Today's rows along each dimension, from the raw page views (the same statement the rollup sums
 * with). Kept until this process writes another page view or 30 s pass (another instance's views
 * show within that), so a dashboard read again and again costs one small query.
 */
async function liveDimensions(deps: StatsDeps, today: Day): Promise<DimensionRow[]> {
  const version = writtenVersion(deps.db);
  const now = deps.now().getTime();
  const kept = live.get(deps.db);
  if (kept && kept.day === today && kept.version === version && now - kept.at < liveMaxAgeMs && now >= kept.at) return kept.rows;
  const { rows } = await deps.db.query<DimensionRow>(
    `WITH source_events AS (SELECT * FROM stats_events WHERE day = $1::date), ${cellsOf}, ${dimensionsOf}
     SELECT dimension, value, CASE WHEN dimension = 'day' THEN day::text END AS day, visitors, pageviews FROM dimensions`,
    [today],
  );
  live.set(deps.db, { day: today, version, at: now, rows });
  return rows;
}

/**
 * The dashboard's figures for a range of days (both included, in the site's time zone). Days
 * already over are read from the rollups (rolled up first, if a day is still raw); today is
 * counted from its raw page views. A visitor is counted once a day: the range's visitors are the
 * sum of each day's, as the daily salt means a visitor can't be followed from one day to the next.
 */
export async function getStats(deps: StatsDeps, query: StatsQuery): Promise<Stats> {
  const today = statsToday(deps);
  const { from, to } = statsRange(deps, query);
  await rollUpPastDays(deps.db, today);
  const [stored, notFound, renamed, signups, downloads, downloadSources, newsletters, comments] = await Promise.all([
    deps.db.query<DimensionRow>(
      `SELECT dimension, value, CASE WHEN dimension = 'day' THEN day::text END AS day,
              sum(visitors)::int AS visitors, sum(pageviews)::int AS pageviews
         FROM stats_daily_dimensions WHERE day BETWEEN $1::date AND $2::date
        GROUP BY dimension, value, CASE WHEN dimension = 'day' THEN day::text END`,
      [from, to],
    ),
    deps.db.query<{ path: string; views: number }>(
      `SELECT path, sum(views)::int AS views FROM stats_not_found WHERE day BETWEEN $1::date AND $2::date
        GROUP BY path ORDER BY views DESC, path LIMIT ${String(topRows)}`,
      [from, to],
    ),
    deps.db.query<{ old_slug: string; slug: string }>(`SELECT r.old_slug, p.slug FROM post_slug_redirects r JOIN posts p ON p.id = r.post_id`),
    deps.db.query<{ path: string; source: string; signups: number; confirmed: number }>(
      `SELECT s.path, s.source, count(*)::int AS signups, count(c.confirmed_at)::int AS confirmed
         FROM stats_signups s LEFT JOIN subscriber_consents c ON c.id = s.consent_id
        WHERE s.day BETWEEN $1::date AND $2::date GROUP BY s.path, s.source`,
      [from, to],
    ),
    deps.db.query<{ id: number; title: string; downloads: number }>(
      `SELECT d.id, d.title, sum(x.downloads)::int AS downloads FROM stats_downloads x JOIN downloads d ON d.id = x.download_id
        WHERE x.day BETWEEN $1::date AND $2::date GROUP BY d.id, d.title ORDER BY downloads DESC, d.title`,
      [from, to],
    ),
    deps.db.query<{ path: string; source: string; downloads: number }>(
      `SELECT path, source, sum(downloads)::int AS downloads FROM stats_downloads
        WHERE day BETWEEN $1::date AND $2::date GROUP BY path, source ORDER BY downloads DESC, path, source LIMIT ${String(topRows)}`,
      [from, to],
    ),
    newslettersIn(deps, from, to),
    commentStatsByPost(deps.db, { from, to }, topRows),
  ]);
  const rows = [...stored.rows, ...(from <= today && today <= to ? await liveDimensions(deps, today) : [])];
  // An old address of a post counts as the post (its link still works: it redirects).
  const currentPath = new Map(renamed.rows.map((row) => [`/blog/${row.old_slug}`, `/blog/${row.slug}`]));
  const pages = new Map<string, { path: string; visitors: number; pageviews: number }>();
  const days = new Map<string, { visitors: number; pageviews: number }>();
  const sources: Stats["sources"] = [];
  const devices: Stats["devices"] = [];
  const countries: Stats["countries"] = [];
  for (const row of rows) {
    if (row.dimension === "day" && row.day !== null) {
      const before = days.get(row.day) ?? { visitors: 0, pageviews: 0 };
      days.set(row.day, { visitors: before.visitors + row.visitors, pageviews: before.pageviews + row.pageviews });
    } else if (row.dimension === "page") {
      const path = currentPath.get(row.value) ?? row.value;
      const page = pages.get(path) ?? { path, visitors: 0, pageviews: 0 };
      page.visitors += row.visitors;
      page.pageviews += row.pageviews;
      pages.set(path, page);
    } else if (row.dimension === "source") add(sources, "source", row.value, row.visitors);
    else if (row.dimension === "device") add(devices, "device", row.value, row.visitors);
    else if (row.dimension === "country") add(countries, "country", row.value || "unknown", row.visitors);
  }
  const series = daysBetween(from, to).map((date) => ({ date, ...(days.get(date) ?? { visitors: 0, pageviews: 0 }) }));
  return {
    from,
    to,
    visitors: series.reduce((sum, day) => sum + day.visitors, 0),
    pageviews: series.reduce((sum, day) => sum + day.pageviews, 0),
    pages: [...pages.values()]
      .sort(
        byCount(
          (page) => page.visitors * 1e6 + page.pageviews,
          (page) => page.path,
        ),
      )
      .slice(0, topRows),
    sources: sources
      .sort(
        byCount(
          (row) => row.visitors,
          (row) => row.source,
        ),
      )
      .slice(0, topRows),
    devices: devices.sort(
      byCount(
        (row) => row.visitors,
        (row) => row.device,
      ),
    ),
    countries: countries.sort(
      byCount(
        (row) => row.visitors,
        (row) => row.country,
      ),
    ),
    signups: foldSignups(signups.rows, currentPath),
    downloads: downloads.rows,
    newsletters,
    downloadSources: downloadSources.rows.map((row) => ({ ...row, path: currentPath.get(row.path) ?? row.path })),
    series,
    comments,
    notFound: notFound.rows,
  };
}

/**
 * A newsletter signup (the consent asked by the form), counted under the page its form was on and
 * the visit's source. The same consent asked again (the same pending address) counts once, and a
 * visitor signs up at most once a day on a page. A signup and its visitor count on the same basis
 * (docs/decisions/0054-numbers-no-one-can-fake.md): a signup from a visitor with no view of the page
 * today (no JavaScript, a crawler's user agent) adds that view, so it counts as a visitor too; one
 * that can't be a visitor (no page of the site, its client over the visitor cap) counts as neither.
 * So a page's or a source's signups never outnumber its visitors.
 */
export async function recordSignup(deps: StatsDeps, consentId: number, form: FormRequest): Promise<void> {
  const now = deps.now();
  const day = statsToday(deps);
  const { path, visitor, client } = await attributeForm(deps.db, day, form, now);
  if (path === unknownPage) return;
  const { rows } = await deps.db.query("SELECT 1 FROM stats_events WHERE day = $1::date AND visitor = $2 AND path = $3 LIMIT 1", [
    day,
    visitor,
    path,
  ]);
  if (rows.length === 0) {
    const view: ViewRow = {
      day,
      at: now,
      visitor,
      path,
      source: "",
      utmMedium: "",
      utmCampaign: "",
      device: deviceOf(form.userAgent),
      country: "",
      client,
    };
    await writeView(deps.db, view);
  }
  await writeSignup(deps.db, { day, path, visitor, consentId });
}

/**
 * Signups counted together with the others that arrived meanwhile (group commit: one statement
 * under load, not one each); each only when its visitor has a view of its page today, once per
 * consent and once per visitor and page.
 */
const writeSignup = groupCommit<{ day: string; path: string; visitor: string; consentId: number }>(async (db, rows) => {
  await db.query(
    `INSERT INTO stats_signups (day, path, source, consent_id, visitor)
     SELECT r.day, r.path, ${sourceSql("r.day", "r.visitor")}, r.consent_id, r.visitor
       FROM unnest($1::date[], $2::text[], $3::text[], $4::int[]) AS r(day, path, visitor, consent_id)
      WHERE EXISTS (SELECT 1 FROM stats_events e WHERE e.day = r.day AND e.visitor = r.visitor AND e.path = r.path)
     ON CONFLICT DO NOTHING`,
    [rows.map((row) => row.day), rows.map((row) => row.path), rows.map((row) => row.visitor), rows.map((row) => row.consentId)],
  );
});

/** A download requested, counted per resource, page and source. */
export async function recordDownload(deps: StatsDeps, downloadId: number, form: FormRequest): Promise<void> {
  const day = statsToday(deps);
  const { path, visitor } = await attributeForm(deps.db, day, form, deps.now());
  await deps.db.query(
    `INSERT INTO stats_downloads (day, download_id, path, source, downloads) VALUES ($1::date, $2, $3, ${sourceSql("$1", "$4")}, 1)
     ON CONFLICT (day, download_id, path, source) DO UPDATE SET downloads = stats_downloads.downloads + 1`,
    [day, downloadId, path, visitor],
  );
}
