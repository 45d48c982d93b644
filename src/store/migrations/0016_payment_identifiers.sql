-- x402 v2 payment-identifier: a client's idempotency key for one paid request. The row binds
-- the id to what was sent with it (a hash) and to the payment authorization (from, nonce),
-- whose submission holds the first result. A request refused before its claim removes its row.
CREATE TABLE payment_identifiers (
  id text PRIMARY KEY,
  fingerprint text NOT NULL,
  payment_from text NOT NULL,
  payment_nonce text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
