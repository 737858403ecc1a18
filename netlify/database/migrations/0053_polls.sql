-- Polls in emails (issue 42 point 6; docs/decisions/0080-polls-in-emails.md). A poll is made by the
-- editor's Poll button and placed in a post as `<div data-poll="ID">`; the newsletter renders each
-- answer as a link signed per recipient, and only the answer page's same-origin POST records a vote.
CREATE TABLE polls (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  question text NOT NULL CHECK (length(question) BETWEEN 1 AND 300),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- 2 to 5 answers a poll, numbered from 0 in the order the owner wrote them. `tag`: the subscriber
-- tag (0043's slug rule) an answer applies to the person who gives it; NULL for none.
CREATE TABLE poll_answers (
  poll_id integer NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
  answer_index smallint NOT NULL CHECK (answer_index BETWEEN 0 AND 4),
  text text NOT NULL CHECK (length(text) BETWEEN 1 AND 200),
  tag text CHECK (tag IS NULL OR (tag ~ '^[a-z0-9]+([:._-][a-z0-9]+)*$' AND length(tag) <= 80)),
  PRIMARY KEY (poll_id, answer_index)
);

-- One answer per person per poll, changeable: `answered_at` is the first answer, `updated_at` the
-- last change. Erasing a subscriber erases their votes (ON DELETE CASCADE).
CREATE TABLE poll_votes (
  poll_id integer NOT NULL REFERENCES polls (id) ON DELETE CASCADE,
  subscriber_id integer NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  answer_index smallint NOT NULL,
  answered_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (poll_id, subscriber_id),
  FOREIGN KEY (poll_id, answer_index) REFERENCES poll_answers (poll_id, answer_index) ON DELETE CASCADE
);
-- A person's export and erase read their votes by subscriber.
CREATE INDEX poll_votes_subscriber_idx ON poll_votes (subscriber_id);
