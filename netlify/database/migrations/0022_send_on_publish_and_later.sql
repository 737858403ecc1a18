-- Sends that wait (issue 31, docs/decisions/0038-sends-wait-for-the-site.md). A send is created
-- before it starts: `scheduled` until its `send_at` (the owner's "Send at"), then `waiting` until
-- the post's public URL answers 200. It starts (`queued`: the email rendered, the recipients fixed)
-- only then, so nobody gets a link to a page the site does not serve yet, and people who confirmed in
-- between get it. `status_reason` is what the dashboard shows when the site is still not serving the
-- post 15 minutes after the send was due (or why a due send ended with nobody to send to).
ALTER TABLE newsletter_sends DROP CONSTRAINT newsletter_sends_status_check;
ALTER TABLE newsletter_sends ADD CONSTRAINT newsletter_sends_status_check
  CHECK (status IN ('scheduled', 'waiting', 'queued', 'sending', 'sent', 'failed', 'paused', 'cancelled'));
ALTER TABLE newsletter_sends
  ADD COLUMN send_at timestamptz,
  ADD COLUMN status_reason text;
-- What the timers scan each tick: the sends that have not started.
CREATE INDEX newsletter_sends_waiting_idx ON newsletter_sends (id) WHERE status IN ('scheduled', 'waiting');

-- "Email to subscribers when published": once the post is published (now, or at its scheduled
-- time), a send is created for it — at most once, as every send of a post.
ALTER TABLE posts ADD COLUMN send_as_newsletter boolean NOT NULL DEFAULT false;
-- What the timers scan each tick: posts marked to be sent.
CREATE INDEX posts_send_as_newsletter_idx ON posts (id) WHERE send_as_newsletter AND published;
