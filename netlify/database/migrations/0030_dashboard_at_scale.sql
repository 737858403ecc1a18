-- The dashboard at 1,000,000 subscribers (issue 39, docs/decisions/0052-dashboard-at-scale.md).

-- The subscriber list pages by keyset (newest first, then by id) and by status: one index serves
-- every status filter at any depth (and, as its prefix, what `subscribers_status_idx` served).
CREATE INDEX subscribers_status_subscribed_at_idx ON subscribers (status, subscribed_at DESC, id DESC);
DROP INDEX subscribers_status_idx;

-- List health counts the messages sent in the last 30 days: from this index alone (an index-only
-- scan), not from every recipient row of every send.
CREATE INDEX newsletter_recipients_sent_at_idx ON newsletter_recipients (sent_at) WHERE status = 'sent';

-- The subscribers' totals, kept as they change rather than counted: each statement that adds,
-- changes or removes subscribers adds one row per (status, came from the form) it moved, with how
-- many it moved (+ or −). The totals are the sums; reading them folds the rows into one a group
-- now and then. Only inserts, so signups never wait on each other for a counter row. The tallies
-- live outside `public` because they are derived: a backup (which takes every table of `public`)
-- leaves them out, and a restore rebuilds them as it writes the subscribers back.
CREATE SCHEMA tallies;
CREATE TABLE tallies.subscribers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  status text NOT NULL,
  from_form boolean NOT NULL,
  subscribers bigint NOT NULL
);
INSERT INTO tallies.subscribers (status, from_form, subscribers)
SELECT status, source = 'newsletter', count(*) FROM subscribers GROUP BY status, source = 'newsletter';

CREATE FUNCTION tally_subscribers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM tallies.subscribers;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO tallies.subscribers (status, from_form, subscribers)
    SELECT status, source = 'newsletter', count(*) FROM added GROUP BY status, source = 'newsletter';
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO tallies.subscribers (status, from_form, subscribers)
    SELECT status, source = 'newsletter', -count(*) FROM removed GROUP BY status, source = 'newsletter';
  ELSE
    INSERT INTO tallies.subscribers (status, from_form, subscribers)
    SELECT status, from_form, sum(moved) FROM (
      SELECT status, source = 'newsletter' AS from_form, 1 AS moved FROM added
      UNION ALL
      SELECT status, source = 'newsletter', -1 FROM removed
    ) AS moves
    GROUP BY status, from_form HAVING sum(moved) <> 0;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER subscribers_tally_insert AFTER INSERT ON subscribers
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_subscribers();
CREATE TRIGGER subscribers_tally_update AFTER UPDATE ON subscribers
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tally_subscribers();
CREATE TRIGGER subscribers_tally_delete AFTER DELETE ON subscribers
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tally_subscribers();
CREATE TRIGGER subscribers_tally_truncate AFTER TRUNCATE ON subscribers
  FOR EACH STATEMENT EXECUTE FUNCTION tally_subscribers();
