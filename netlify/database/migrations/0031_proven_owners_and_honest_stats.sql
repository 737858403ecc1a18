-- Issue 40, point 3 (docs/decisions/0055-who-starts-a-sequence.md): a resource's sequence starts only
-- for the owner of the address, shown by opening the download link emailed to it. Enrollments that
-- wait for a confirmation were made by the download form until now, for whoever's address was typed
-- in: they are dropped, so a confirmation starts none of them. Those made from now on wait only for
-- people who opened their emailed link.
DELETE FROM sequence_enrollments WHERE enrolled_at IS NULL;

-- Issue 40, point 4 (docs/decisions/0054-numbers-no-one-can-fake.md). Each raw page view keeps its
-- client address under the day's salt (never the address), so one address adds at most 20 visitors
-- a day however its user agent changes; deleted with the raw views when the day is rolled up.
ALTER TABLE stats_events ADD COLUMN client text NOT NULL DEFAULT '';
CREATE INDEX stats_events_day_client_idx ON stats_events (day, client, visitor);

-- A signup keeps its visitor (salted hash) for its day only: one signup per visitor and page a day,
-- so a page's signups never outnumber its visitors. Set to NULL when the day is rolled up.
ALTER TABLE stats_signups ADD COLUMN visitor text;
CREATE UNIQUE INDEX stats_signups_day_page_visitor_idx ON stats_signups (day, path, visitor) WHERE visitor IS NOT NULL;

-- No API address or preview is a page: what was counted for them before is dropped.
DELETE FROM stats_events WHERE path LIKE '/api/%' OR path LIKE '/preview/%' OR path LIKE '/preview-template-%';
DELETE FROM stats_daily WHERE path LIKE '/api/%' OR path LIKE '/preview/%' OR path LIKE '/preview-template-%';
DELETE FROM stats_daily_dimensions
 WHERE dimension = 'page' AND (value LIKE '/api/%' OR value LIKE '/preview/%' OR value LIKE '/preview-template-%');
