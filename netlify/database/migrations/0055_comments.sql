-- Comments under posts (issue 44 points 3, 4, 5 and 7; decision 0082).

-- The owner closes one post's comments (the whole feature is the `comments_enabled` setting).
ALTER TABLE posts ADD COLUMN comments_closed boolean NOT NULL DEFAULT false;

-- What the owner decides about a reader, and the reader's own choice of reply notices.
ALTER TABLE subscribers
  -- Set: the reader can't post, and their comments are left out of every public answer.
  ADD COLUMN comments_banned_at timestamptz,
  -- Every comment of theirs waits for approval.
  ADD COLUMN comments_always_hold boolean NOT NULL DEFAULT false,
  -- An email when someone replies to them (one-click unsubscribe turns it off).
  ADD COLUMN comment_reply_notices boolean NOT NULL DEFAULT true;

-- One comment. A reader's has `subscriber_id`; the owner's has `is_owner` and no subscriber; an
-- erased reader's published comment keeps neither and shows `author_name` ("Deleted reader",
-- decision 0073). `body` is the plain text as written; `html` is made from it by the server
-- (escaped, links made clickable, paragraphs) and is all a page ever shows. No address, no IP.
CREATE TABLE comments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  -- One level of replies: always a top-level comment (a reply to a reply attaches to its parent).
  parent_id integer REFERENCES comments (id) ON DELETE CASCADE,
  subscriber_id integer REFERENCES subscribers (id) ON DELETE SET NULL,
  is_owner boolean NOT NULL DEFAULT false,
  author_name text CHECK (author_name IS NULL OR char_length(author_name) BETWEEN 1 AND 50),
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 5000),
  html text NOT NULL,
  status text NOT NULL CHECK (status IN ('held', 'approved', 'hidden', 'spam')),
  -- Why a comment waits (first comment, links, a word, always hold), for the queue.
  hold_reason text,
  created_at timestamptz NOT NULL,
  edited_at timestamptz,
  moderated_at timestamptz,
  -- When the owner's "comments are waiting" email listed it (each held comment is listed once).
  owner_notified_at timestamptz
);
CREATE INDEX comments_post_idx ON comments (post_id, status, created_at);
CREATE INDEX comments_status_idx ON comments (status, created_at DESC);
CREATE INDEX comments_subscriber_idx ON comments (subscriber_id);
CREATE INDEX comments_parent_idx ON comments (parent_id);

-- At most one "comments are waiting" email an hour: the one row remembers when the last was queued.
CREATE TABLE comment_owner_notices (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_queued_at timestamptz NOT NULL
);

-- A reply notice names the reply it is about; deleting the reply drops a notice still queued.
ALTER TABLE outbox ADD COLUMN comment_id integer REFERENCES comments (id) ON DELETE CASCADE;

-- Every kind of queued mail, these two included (0050's list and this one's).
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled', 'digest', 'receipt', 'reader-sign-in', 'sequence-test', 'comments-waiting', 'comment-reply'));
ALTER TABLE subscriber_emails DROP CONSTRAINT subscriber_emails_kind_check;
ALTER TABLE subscriber_emails ADD CONSTRAINT subscriber_emails_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter', 'sequence', 'digest', 'reader-sign-in', 'comment-reply'));
