import type { AudienceStats, StatsQuery } from "./stats.schema.ts";
import { statsRange, statsTimeZone, type StatsDeps } from "./stats.service.ts";

/** The most subscriber tags listed (most carriers first): imports and signups make many small ones. */
const topTags = 100;

/** A time (SQL expression) on a day of the range, in the site's time zone ($1 from, $2 to, $3 the zone). */
const inRange = (at: string) => `(${at} AT TIME ZONE $3)::date BETWEEN $1::date AND $2::date`;

/** When a person left: unsubscribed, or suppressed by a bounce or complaint. */
const leftAt = "coalesce(s.unsubscribed_at, s.suppressed_at)";

/** The three people figures of decision 0081 over rows joined to `subscribers s` with `started` as when the row began. */
const movement = (started: string) => `
  count(*) FILTER (WHERE s.status = 'active')::int AS subscribers,
  count(*) FILTER (WHERE s.status <> 'pending' AND ${inRange(started)})::int AS gained,
  count(*) FILTER (WHERE s.status NOT IN ('active', 'pending') AND ${inRange(leftAt)})::int AS "left"`;

/**
 * People, growth and clicks per reader topic and per subscriber tag for a range of days (both
 * included, in the site's time zone), as decision 0081 defines them:
 * - a topic's people are who chose it (the readers who follow everything are one row of their own);
 *   its clicks are those on the newsletters of its posts (the post carries the topic) sent in the range;
 * - a tag's people are who carry it; its clicks are theirs, on any newsletter sent in the range.
 * Gained counts follows (or tags) started in the range; left, the people among them who left in it.
 */
export async function getAudienceStats(deps: StatsDeps, query: StatsQuery): Promise<AudienceStats> {
  const { from, to } = statsRange(deps, query);
  const range = [from, to, statsTimeZone(deps)];
  const [everything, topics, tags] = await Promise.all([
    deps.db.query<AudienceStats["everything"]>(
      `SELECT ${movement("coalesce(s.confirmed_at, s.subscribed_at)")} FROM subscribers s WHERE s.follows_everything`,
      range,
    ),
    deps.db.query<AudienceStats["topics"][number]>(
      `WITH followers AS (
         SELECT st.tag_id, ${movement("st.created_at")}
           FROM subscriber_topics st JOIN subscribers s ON s.id = st.subscriber_id GROUP BY st.tag_id),
       sent AS (
         SELECT pt.tag_id, ns.id AS send_id, ns.count_sent
           FROM newsletter_sends ns JOIN post_tags pt ON pt.post_id = ns.post_id
          WHERE ${inRange("ns.created_at")}),
       sends AS (SELECT tag_id, count(*)::int AS newsletters, sum(count_sent)::int AS delivered FROM sent GROUP BY tag_id),
       link_clicks AS (
         SELECT sent.tag_id, sum(l.clicks)::int AS clicks FROM sent JOIN newsletter_links l ON l.send_id = sent.send_id GROUP BY sent.tag_id),
       clickers AS (
         SELECT sent.tag_id, count(DISTINCT c.subscriber_id)::int AS clickers
           FROM sent JOIN newsletter_links l ON l.send_id = sent.send_id JOIN newsletter_link_clicks c ON c.link_id = l.id
          GROUP BY sent.tag_id)
       SELECT t.slug, t.name,
              coalesce(f.subscribers, 0) AS subscribers, coalesce(f.gained, 0) AS gained, coalesce(f."left", 0) AS "left",
              coalesce(n.newsletters, 0) AS newsletters, coalesce(n.delivered, 0) AS delivered,
              coalesce(k.clicks, 0) AS clicks, coalesce(p.clickers, 0) AS clickers
         FROM tags t
         LEFT JOIN followers f ON f.tag_id = t.id
         LEFT JOIN sends n ON n.tag_id = t.id
         LEFT JOIN link_clicks k ON k.tag_id = t.id
         LEFT JOIN clickers p ON p.tag_id = t.id
        WHERE t.topic
        ORDER BY subscribers DESC, t.name, t.slug`,
      range,
    ),
    deps.db.query<AudienceStats["tags"][number]>(
      `WITH carriers AS (
         SELECT a.subscriber_tag_id AS tag_id, ${movement("a.created_at")}
           FROM subscriber_tag_assignments a JOIN subscribers s ON s.id = a.subscriber_id GROUP BY a.subscriber_tag_id),
       tag_clicks AS (
         SELECT a.subscriber_tag_id AS tag_id, sum(c.clicks)::int AS clicks, count(DISTINCT c.subscriber_id)::int AS clickers
           FROM newsletter_sends ns
           JOIN newsletter_links l ON l.send_id = ns.id
           JOIN newsletter_link_clicks c ON c.link_id = l.id
           JOIN subscriber_tag_assignments a ON a.subscriber_id = c.subscriber_id
          WHERE ${inRange("ns.created_at")}
          GROUP BY a.subscriber_tag_id)
       SELECT t.slug, coalesce(r.subscribers, 0) AS subscribers, coalesce(r.gained, 0) AS gained, coalesce(r."left", 0) AS "left",
              coalesce(k.clicks, 0) AS clicks, coalesce(k.clickers, 0) AS clickers
         FROM subscriber_tags t LEFT JOIN carriers r ON r.tag_id = t.id LEFT JOIN tag_clicks k ON k.tag_id = t.id
        WHERE coalesce(r.subscribers, 0) + coalesce(r.gained, 0) + coalesce(r."left", 0) + coalesce(k.clicks, 0) > 0
        ORDER BY subscribers DESC, t.slug
        LIMIT ${String(topTags)}`,
      range,
    ),
  ]);
  return {
    from,
    to,
    everything: everything.rows[0] ?? { subscribers: 0, gained: 0, left: 0 },
    topics: topics.rows,
    tags: tags.rows,
  };
}
