-- Sequence emails' links go through the newsletter's signed click redirect (issue 29 point 4,
-- issue 31 point 4; docs/decisions/0039-sequences.md, 0033). A tracked link belongs to either a
-- newsletter send (as before) or a sequence step. A step's links are stored the first time an email
-- of the step is made, one row per (step, position, address): an edit of the step adds rows for its
-- new links and leaves the old ones, so an email queued before the edit keeps working links.
ALTER TABLE newsletter_links ALTER COLUMN send_id DROP NOT NULL;
ALTER TABLE newsletter_links ADD COLUMN step_id integer REFERENCES sequence_steps (id) ON DELETE CASCADE;
ALTER TABLE newsletter_links ADD CONSTRAINT newsletter_links_one_owner CHECK ((send_id IS NULL) <> (step_id IS NULL));
-- md5: an address may be longer than a B-tree entry allows.
CREATE UNIQUE INDEX newsletter_links_step_link_idx ON newsletter_links (step_id, position, md5(url)) WHERE step_id IS NOT NULL;
