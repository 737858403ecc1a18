-- The dashboard's last calls at 1,000,000 subscribers (issue 39 point 3,
-- docs/decisions/0070-dashboard-reads-counters.md).

-- List health counts the messages sent in the last 30 days (newsletters and transactional): from
-- these tallies, one row a minute, rather than from an index entry a message. Each statement that
-- adds, moves or removes sent rows of `newsletter_recipients` or `outbox` adds what it moved to its
-- minutes, in the same transaction (a rollback takes it back). A minute is sent_at's epoch rounded
-- down to 60 s, the same in every time zone. The row of a minute is updated in place: the
-- transactions that mark newsletter rows sent already take turns on their send's counters
-- (migration 0037), and this trigger runs after that one (triggers run in name order), so it adds
-- no new order of locks. Derived, so outside `public`: a backup leaves it out and a restore's
-- TRUNCATE and INSERTs rebuild it.
CREATE TABLE tallies.sent_minutes (
  minute timestamptz PRIMARY KEY,
  sent bigint NOT NULL
);

CREATE FUNCTION sent_minute(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT to_timestamp(floor(extract(epoch FROM at) / 60) * 60)
$$;

INSERT INTO tallies.sent_minutes (minute, sent)
SELECT minute, count(*) FROM (
  SELECT sent_minute(sent_at) AS minute FROM newsletter_recipients WHERE status = 'sent' AND sent_at IS NOT NULL
  UNION ALL
  SELECT sent_minute(sent_at) FROM outbox WHERE status = 'sent' AND sent_at IS NOT NULL
) AS sent GROUP BY minute;

CREATE FUNCTION tally_sent_minutes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    -- One of the two tables is empty now: recount both (a restore truncates them before it writes).
    DELETE FROM tallies.sent_minutes;
    INSERT INTO tallies.sent_minutes (minute, sent)
    SELECT minute, count(*) FROM (
      SELECT sent_minute(sent_at) AS minute FROM newsletter_recipients WHERE status = 'sent' AND sent_at IS NOT NULL
      UNION ALL
      SELECT sent_minute(sent_at) FROM outbox WHERE status = 'sent' AND sent_at IS NOT NULL
    ) AS sent GROUP BY minute;
    RETURN NULL;
  END IF;
  INSERT INTO tallies.sent_minutes AS t (minute, sent)
  SELECT minute, sum(moved) FROM (
    SELECT sent_minute(sent_at) AS minute, 1 AS moved FROM added WHERE status = 'sent' AND sent_at IS NOT NULL
    UNION ALL
    SELECT sent_minute(sent_at), -1 FROM removed WHERE status = 'sent' AND sent_at IS NOT NULL
  ) AS moves
  GROUP BY minute HAVING sum(moved) <> 0
  ORDER BY minute
  ON CONFLICT (minute) DO UPDATE SET sent = t.sent + excluded.sent;
  RETURN NULL;
END $$;

-- The transition tables must exist under both names in every case: an empty one stands in.
CREATE FUNCTION tally_sent_minutes_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tallies.sent_minutes AS t (minute, sent)
  SELECT sent_minute(sent_at), count(*) FROM added WHERE status = 'sent' AND sent_at IS NOT NULL
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (minute) DO UPDATE SET sent = t.sent + excluded.sent;
  RETURN NULL;
END $$;

CREATE FUNCTION tally_sent_minutes_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tallies.sent_minutes AS t (minute, sent)
  SELECT sent_minute(sent_at), -count(*) FROM removed WHERE status = 'sent' AND sent_at IS NOT NULL
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (minute) DO UPDATE SET sent = t.sent + excluded.sent;
  RETURN NULL;
END $$;

CREATE TRIGGER newsletter_recipients_sent_tally_insert AFTER INSERT ON newsletter_recipients
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes_added();
CREATE TRIGGER newsletter_recipients_sent_tally_update AFTER UPDATE ON newsletter_recipients
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes();
CREATE TRIGGER newsletter_recipients_sent_tally_delete AFTER DELETE ON newsletter_recipients
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes_removed();
CREATE TRIGGER newsletter_recipients_sent_tally_truncate AFTER TRUNCATE ON newsletter_recipients
  FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes();
CREATE TRIGGER outbox_sent_tally_insert AFTER INSERT ON outbox
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes_added();
CREATE TRIGGER outbox_sent_tally_update AFTER UPDATE ON outbox
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes();
CREATE TRIGGER outbox_sent_tally_delete AFTER DELETE ON outbox
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes_removed();
CREATE TRIGGER outbox_sent_tally_truncate AFTER TRUNCATE ON outbox
  FOR EACH STATEMENT EXECUTE FUNCTION tally_sent_minutes();

-- The part of the window's first minute that falls inside it is counted from the rows: the
-- recipients have `newsletter_recipients_sent_at_idx` (migration 0030), the outbox this one.
CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE status = 'sent';

-- Who left after a send, for the sends list and stats: every subscriber who ever unsubscribed (one
-- who came back or complained since keeps the date), not only those unsubscribed now. Stats counts
-- them all; the sends list filters by status on the few rows it reads.
CREATE INDEX subscribers_unsubscribed_idx ON subscribers (unsubscribed_at) WHERE unsubscribed_at IS NOT NULL;
DROP INDEX subscribers_unsubscribed_at_idx;
