-- Payments through the owner's own Stripe account (issue 47, docs/decisions/0074-payments.md).
-- A resource's price in minor units (0 = free) and its ISO 4217 currency, lower case.
ALTER TABLE downloads ADD COLUMN price integer NOT NULL DEFAULT 0 CHECK (price >= 0 AND price <= 99999999);
ALTER TABLE downloads ADD COLUMN currency text NOT NULL DEFAULT 'usd' CHECK (currency ~ '^[a-z]{3}$');

-- One row per paid Checkout Session, written only when Stripe's signed event says it was paid: an
-- abandoned Checkout leaves nothing here. Amounts are Stripe's, in minor units.
CREATE TABLE payments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('tip', 'resource', 'membership')),
  -- `refunded` and `disputed` revoke a resource's future downloads.
  status text NOT NULL DEFAULT 'paid' CHECK (status IN ('paid', 'refunded', 'disputed')),
  checkout_session_id text NOT NULL UNIQUE,
  payment_intent_id text UNIQUE,
  amount integer NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
  email text,
  download_id integer REFERENCES downloads (id) ON DELETE SET NULL,
  -- The resource's title when it was bought (the row outlives the resource: accounting).
  item_title text NOT NULL DEFAULT '',
  newsletter boolean NOT NULL DEFAULT false,
  -- The site page the Checkout was started from (its path, from the request's same-origin Referer): revenue per post.
  source_path text,
  livemode boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX payments_created_at ON payments (created_at DESC, id DESC);
CREATE INDEX payments_email ON payments (lower(email));

-- A refund or dispute heard before its payment's checkout event (Stripe does not order events):
-- the payment is revoked the moment it is recorded.
CREATE TABLE payment_revocations (
  payment_intent_id text PRIMARY KEY,
  reason text NOT NULL CHECK (reason IN ('refunded', 'disputed')),
  created_at timestamptz NOT NULL
);

-- Every Stripe event handled, by its id, written in the transaction of its effect: a replay is a no-op.
CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  received_at timestamptz NOT NULL
);

-- The receipt email (a new outbox kind), naming its payment.
ALTER TABLE outbox ADD COLUMN payment_id bigint REFERENCES payments (id) ON DELETE CASCADE;
ALTER TABLE outbox DROP CONSTRAINT outbox_kind_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_kind_check CHECK (kind IN ('confirmation', 'welcome', 'download', 'newsletter-test', 'sequence', 'webhook-disabled', 'receipt'));
