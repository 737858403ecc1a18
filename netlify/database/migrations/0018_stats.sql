-- First-party, cookieless analytics (issue 29; docs/decisions/0032-cookieless-stats.md).
--
-- Nothing here holds an address, a user agent or a cookie. A visitor is a hash of
-- (today's salt, address, user agent, site); the salt lives in stats_salts for its day only and is
-- deleted once the day is over, so a hash can't be recomputed or linked to the next day's.

-- Today's random salt (one row; earlier days' rows are deleted when the day turns).
CREATE TABLE stats_salts (
  day date PRIMARY KEY,
  salt bytea NOT NULL
);

-- Raw page views of days not rolled up yet (today, in practice). Rolled into stats_daily and
-- deleted in one statement once their day is over.
CREATE TABLE stats_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  day date NOT NULL,
  at timestamptz NOT NULL,
  visitor text NOT NULL,
  path text NOT NULL,
  -- The referrer's site or utm_source; '' for a page reached from the site itself.
  source text NOT NULL DEFAULT '',
  utm_medium text NOT NULL DEFAULT '',
  utm_campaign text NOT NULL DEFAULT '',
  device text NOT NULL,
  country text NOT NULL DEFAULT ''
);
CREATE INDEX stats_events_day_visitor_idx ON stats_events (day, visitor, at);

-- One row per day × page × source × device × country. A visitor-day takes the source of its
-- first page from outside the site and the device and country of its first page, so `entries`
-- (visitors whose day began on this page) add up to the day's visitors along any dimension.
CREATE TABLE stats_daily (
  day date NOT NULL,
  path text NOT NULL,
  source text NOT NULL,
  utm_medium text NOT NULL,
  utm_campaign text NOT NULL,
  device text NOT NULL,
  country text NOT NULL,
  visitors integer NOT NULL,
  pageviews integer NOT NULL,
  entries integer NOT NULL,
  PRIMARY KEY (day, path, source, utm_medium, utm_campaign, device, country)
);

-- The same days summed along one dimension at a time (`day`: the day's totals, value ''; `page`,
-- `source`, `device`, `country`), written by the same rollup: what the Stats tab reads, a few
-- thousand rows for 90 days whatever the traffic. `visitors` is a page's visitors for `page` and the
-- visitors whose day began there (entries) for the others.
CREATE TABLE stats_daily_dimensions (
  day date NOT NULL,
  dimension text NOT NULL CHECK (dimension IN ('day', 'page', 'source', 'device', 'country')),
  value text NOT NULL,
  visitors integer NOT NULL,
  pageviews integer NOT NULL,
  PRIMARY KEY (day, dimension, value)
);

-- Pages answered "not found", counted apart (never as page views).
CREATE TABLE stats_not_found (
  day date NOT NULL,
  path text NOT NULL,
  views integer NOT NULL,
  PRIMARY KEY (day, path)
);

-- Newsletter signups by the page the form was on and the visit's source. One row per consent
-- asked (a second try of the same pending address is the same signup); confirmed once its consent
-- is. Erasing the person leaves the count and forgets the consent (consent_id NULL).
CREATE TABLE stats_signups (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  day date NOT NULL,
  path text NOT NULL,
  source text NOT NULL,
  consent_id integer UNIQUE REFERENCES subscriber_consents (id) ON DELETE SET NULL
);
CREATE INDEX stats_signups_day_idx ON stats_signups (day);

-- Download requests per day, resource, page and source.
CREATE TABLE stats_downloads (
  day date NOT NULL,
  download_id integer NOT NULL REFERENCES downloads (id) ON DELETE CASCADE,
  path text NOT NULL,
  source text NOT NULL,
  downloads integer NOT NULL,
  PRIMARY KEY (day, download_id, path, source)
);

-- Newsletter click tracking (CLICK_TRACKING, on unless `off`): each link of a send, by position,
-- with its clicks; and one row per (link, subscriber) who clicked it, for unique clicks. Erasing the
-- subscriber keeps the row (subscriber_id NULL), so the send's figures still add up.
CREATE TABLE newsletter_links (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  send_id integer NOT NULL REFERENCES newsletter_sends (id) ON DELETE CASCADE,
  position integer NOT NULL,
  url text NOT NULL,
  clicks integer NOT NULL DEFAULT 0,
  UNIQUE (send_id, position)
);

CREATE TABLE newsletter_link_clicks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  link_id integer NOT NULL REFERENCES newsletter_links (id) ON DELETE CASCADE,
  subscriber_id integer REFERENCES subscribers (id) ON DELETE SET NULL,
  clicks integer NOT NULL DEFAULT 1,
  first_clicked_at timestamptz NOT NULL,
  UNIQUE (link_id, subscriber_id)
);
CREATE INDEX newsletter_link_clicks_subscriber_idx ON newsletter_link_clicks (subscriber_id);
