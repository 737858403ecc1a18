-- A password the owner sets in the dashboard (issue 41): its scrypt hash, and the fingerprint of the
-- environment's password (ADMIN_PASSWORD_HASH or ADMIN_PASSWORD) it replaced. While the environment
-- still holds that password, this one is used; a new one set in the environment wins again
-- (src/core/auth/owner-password.ts, docs/decisions/0056-first-hour-finished.md).
ALTER TABLE admin_security ADD COLUMN password_hash text;
ALTER TABLE admin_security ADD COLUMN password_environment text;
ALTER TABLE admin_security ADD COLUMN password_changed_at timestamptz;
