-- "Send a test" of a sequence step (issue 41 point 6): one message to the owner's address, queued
-- in the outbox and rendered from the saved step at delivery, as a newsletter's test send is. The
-- outbox names the step it is made from; removing the step drops a test still queued.
ALTER TABLE outbox ADD COLUMN sequence_step_id integer REFERENCES sequence_steps (id) ON DELETE CASCADE;
-- Every kind of queued mail, this one included (the list is the union of the kinds before it).
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check
  CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled', 'digest', 'receipt', 'reader-sign-in', 'sequence-test'));
