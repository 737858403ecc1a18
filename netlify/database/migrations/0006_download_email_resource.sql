-- Which resource a download email carried: the same resource is emailed to an address at most once
-- per 10 minutes (the visitor has the link in the answer anyway), so the download form cannot
-- bomb an inbox. Kept (as null) when the resource is deleted; erased with the subscriber.
ALTER TABLE subscriber_emails ADD COLUMN download_id integer REFERENCES downloads (id) ON DELETE SET NULL;
CREATE INDEX subscriber_emails_download_idx ON subscriber_emails (subscriber_id, download_id, sent_at);
