-- Supporter membership (issue 47 point 4, docs/decisions/0085-supporter-membership.md): one row per
-- Stripe subscription, kept in step with Stripe's signed events. The benefit (every paid resource
-- free, the `supporters` segment, the `supporter` tag) holds while `status` is one Stripe still
-- bills under (active, trialing, past_due): a failed invoice alone never ends it, only Stripe does
-- (the subscription deleted, or its status unpaid or canceled).
CREATE TABLE supporters (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id text NOT NULL UNIQUE,
  customer_id text NOT NULL,
  email text,
  interval text CHECK (interval IN ('month', 'year')),
  amount integer NOT NULL DEFAULT 0 CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'usd' CHECK (currency ~ '^[a-z]{3}$'),
  -- Stripe's subscription status, as its latest event said.
  status text NOT NULL,
  current_period_end timestamptz,
  -- The `created` second of the last subscription event applied: an older one arriving late is ignored.
  event_created bigint NOT NULL DEFAULT 0,
  -- The page and the visit's source the Checkout was started from (revenue per post and per source).
  source_path text,
  source text,
  livemode boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  -- When the benefit ended (Stripe said canceled or unpaid); null while it holds.
  ended_at timestamptz
);
CREATE INDEX supporters_email ON supporters (lower(email));
CREATE INDEX supporters_customer ON supporters (customer_id);

-- A payment's visit source (attribution, like signups) and, for the membership, its subscription.
ALTER TABLE payments ADD COLUMN source text;
ALTER TABLE payments ADD COLUMN subscription_id text;
CREATE INDEX payments_subscription ON payments (subscription_id) WHERE subscription_id IS NOT NULL;
