-- "Send again" (issue 46 point 5): the delivery keeps the time of its event in `created_at` (the
-- log shows when it happened), and `retry_from` holds when the owner sent it again: its fresh
-- 3 days of retries count from there (docs/decisions/0068-outgoing-webhooks.md, addendum).
ALTER TABLE webhook_deliveries ADD COLUMN retry_from timestamptz;
