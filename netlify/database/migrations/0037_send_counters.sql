-- A send's figures kept as they change, not counted (issue 39 point 2,
-- docs/decisions/0066-send-counters.md): the send status the dashboard polls and the pause rule each
-- provider event runs read one row, whatever the size of the send.

ALTER TABLE newsletter_sends
  ADD COLUMN count_pending integer NOT NULL DEFAULT 0,
  ADD COLUMN count_sent integer NOT NULL DEFAULT 0,
  ADD COLUMN count_failed integer NOT NULL DEFAULT 0,
  ADD COLUMN count_skipped integer NOT NULL DEFAULT 0,
  -- The send's events, each message counted once per type (as `sendFiguresSql` counted them):
  -- hard bounces, those a provider reported after the hand-over (not the SMTP server's refusal at
  -- send time), soft bounces and complaints.
  ADD COLUMN count_bounced integer NOT NULL DEFAULT 0,
  ADD COLUMN count_bounced_after integer NOT NULL DEFAULT 0,
  ADD COLUMN count_soft_bounced integer NOT NULL DEFAULT 0,
  ADD COLUMN count_complained integer NOT NULL DEFAULT 0;

UPDATE newsletter_sends s
   SET count_pending = r.pending, count_sent = r.sent, count_failed = r.failed, count_skipped = r.skipped
  FROM (SELECT send_id,
               (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
               (count(*) FILTER (WHERE status = 'sent'))::int AS sent,
               (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
               (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped
          FROM newsletter_recipients GROUP BY send_id) r
 WHERE r.send_id = s.id;

-- Whether an event's message was heard already for its send and type: one index probe.
CREATE INDEX email_events_send_message_idx ON email_events (send_id, type, (coalesce(message_ref, event_id))) WHERE send_id IS NOT NULL;

UPDATE newsletter_sends s
   SET count_bounced = e.bounced, count_bounced_after = e.bounced_after, count_soft_bounced = e.soft_bounced, count_complained = e.complained
  FROM (SELECT send_id,
               (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'hard_bounce'))::int AS bounced,
               (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'hard_bounce' AND provider <> 'smtp'))::int AS bounced_after,
               (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'soft_bounce'))::int AS soft_bounced,
               (count(DISTINCT coalesce(message_ref, event_id)) FILTER (WHERE type = 'complaint'))::int AS complained
          FROM email_events WHERE send_id IS NOT NULL GROUP BY send_id) e
 WHERE e.send_id = s.id;

-- Each statement that adds, moves or removes recipient rows adds what it moved to their sends, in
-- the same transaction: one UPDATE a send a statement (the worker marks its rows in groups), and a
-- rollback takes the counts back with the rows.
CREATE FUNCTION count_newsletter_recipients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE newsletter_sends SET count_pending = 0, count_sent = 0, count_failed = 0, count_skipped = 0;
    RETURN NULL;
  END IF;
  WITH moves AS (
    SELECT send_id, status, 1 AS moved FROM added
    UNION ALL
    SELECT send_id, status, -1 FROM removed
  ), per_send AS (
    SELECT send_id,
           coalesce(sum(moved) FILTER (WHERE status = 'pending'), 0)::int AS pending,
           coalesce(sum(moved) FILTER (WHERE status = 'sent'), 0)::int AS sent,
           coalesce(sum(moved) FILTER (WHERE status = 'failed'), 0)::int AS failed,
           coalesce(sum(moved) FILTER (WHERE status = 'skipped'), 0)::int AS skipped
      FROM moves GROUP BY send_id
  )
  UPDATE newsletter_sends s
     SET count_pending = s.count_pending + m.pending, count_sent = s.count_sent + m.sent,
         count_failed = s.count_failed + m.failed, count_skipped = s.count_skipped + m.skipped
    FROM per_send m
   WHERE s.id = m.send_id AND (m.pending <> 0 OR m.sent <> 0 OR m.failed <> 0 OR m.skipped <> 0);
  RETURN NULL;
END $$;

-- The transition tables must exist under both names in every case: empty ones stand in.
CREATE FUNCTION count_newsletter_recipients_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH per_send AS (
    SELECT send_id,
           (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
           (count(*) FILTER (WHERE status = 'sent'))::int AS sent,
           (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
           (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped
      FROM added GROUP BY send_id
  )
  UPDATE newsletter_sends s
     SET count_pending = s.count_pending + m.pending, count_sent = s.count_sent + m.sent,
         count_failed = s.count_failed + m.failed, count_skipped = s.count_skipped + m.skipped
    FROM per_send m WHERE s.id = m.send_id;
  RETURN NULL;
END $$;

CREATE FUNCTION count_newsletter_recipients_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH per_send AS (
    SELECT send_id,
           (count(*) FILTER (WHERE status = 'pending'))::int AS pending,
           (count(*) FILTER (WHERE status = 'sent'))::int AS sent,
           (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
           (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped
      FROM removed GROUP BY send_id
  )
  UPDATE newsletter_sends s
     SET count_pending = s.count_pending - m.pending, count_sent = s.count_sent - m.sent,
         count_failed = s.count_failed - m.failed, count_skipped = s.count_skipped - m.skipped
    FROM per_send m WHERE s.id = m.send_id;
  RETURN NULL;
END $$;

CREATE TRIGGER newsletter_recipients_count_insert AFTER INSERT ON newsletter_recipients
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_newsletter_recipients_added();
CREATE TRIGGER newsletter_recipients_count_update AFTER UPDATE ON newsletter_recipients
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_newsletter_recipients();
CREATE TRIGGER newsletter_recipients_count_delete AFTER DELETE ON newsletter_recipients
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_newsletter_recipients_removed();
CREATE TRIGGER newsletter_recipients_count_truncate AFTER TRUNCATE ON newsletter_recipients
  FOR EACH STATEMENT EXECUTE FUNCTION count_newsletter_recipients();

-- A bounce or complaint adds to its send once per message and type. The send's row is locked
-- before the check, so two events about the same message (different ids) that arrive together take
-- turns, and the second one's check (a new snapshot: the function is volatile) sees the first.
-- A repeat of the same event id never gets here (ON CONFLICT DO NOTHING inserts no row). NO KEY
-- UPDATE, the lock the counters' UPDATE takes anyway: FOR UPDATE would wait on the KEY SHARE lock
-- the event's own foreign key took in another ingestion, which waits on ours (a deadlock).
CREATE FUNCTION count_email_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM newsletter_sends
    WHERE id IN (SELECT send_id FROM added WHERE type IN ('hard_bounce', 'soft_bounce', 'complaint'))
    ORDER BY id FOR NO KEY UPDATE;
  WITH news AS (
    SELECT DISTINCT a.send_id, a.type, coalesce(a.message_ref, a.event_id) AS ref,
           -- First of its type for this message in this send…
           NOT EXISTS (SELECT 1 FROM email_events e
                        WHERE e.send_id = a.send_id AND e.type = a.type
                          AND coalesce(e.message_ref, e.event_id) = coalesce(a.message_ref, a.event_id)
                          AND e.id NOT IN (SELECT id FROM added)) AS is_first,
           -- …and, for a hard bounce a provider reported, the first such (an SMTP refusal may have come before).
           a.type = 'hard_bounce' AND a.provider <> 'smtp'
             AND NOT EXISTS (SELECT 1 FROM email_events e
                              WHERE e.send_id = a.send_id AND e.type = 'hard_bounce' AND e.provider <> 'smtp'
                                AND coalesce(e.message_ref, e.event_id) = coalesce(a.message_ref, a.event_id)
                                AND e.id NOT IN (SELECT id FROM added)) AS is_first_after
      FROM added a
     WHERE a.send_id IS NOT NULL AND a.type IN ('hard_bounce', 'soft_bounce', 'complaint')
  ), per_send AS (
    SELECT send_id,
           (count(DISTINCT ref) FILTER (WHERE type = 'hard_bounce' AND is_first))::int AS bounced,
           (count(DISTINCT ref) FILTER (WHERE is_first_after))::int AS bounced_after,
           (count(DISTINCT ref) FILTER (WHERE type = 'soft_bounce' AND is_first))::int AS soft_bounced,
           (count(DISTINCT ref) FILTER (WHERE type = 'complaint' AND is_first))::int AS complained
      FROM news GROUP BY send_id
  )
  UPDATE newsletter_sends s
     SET count_bounced = s.count_bounced + m.bounced, count_bounced_after = s.count_bounced_after + m.bounced_after,
         count_soft_bounced = s.count_soft_bounced + m.soft_bounced, count_complained = s.count_complained + m.complained
    FROM per_send m WHERE s.id = m.send_id;
  RETURN NULL;
END $$;

CREATE TRIGGER email_events_count_insert AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_email_events();

-- The "unsubscribed" figure starts from who unsubscribed since the send started (few), not from
-- every recipient row of the send.
CREATE INDEX subscribers_unsubscribed_at_idx ON subscribers (unsubscribed_at) WHERE status = 'unsubscribed';
