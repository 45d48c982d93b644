-- A looksmaxx (or burn-to-create) submission: accepted once its burns are claimed, then
-- carried step by step to exactly one minted NFT. Each step's result is stored before the
-- next step starts.
CREATE TABLE submissions (
  id uuid PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('x402-agent', 'burn-to-create')),
  burn_tx_hash text NOT NULL UNIQUE,
  dev_tx_hash text NOT NULL,
  burner text NOT NULL,
  burn_amount_wei numeric(78, 0) NOT NULL,
  referrer text,
  status text NOT NULL CHECK (status IN ('settling', 'settled', 'generated', 'pinned', 'minted')),
  payment_from text,
  payment_nonce text,
  payment_valid_before bigint,
  payment_payload jsonb,
  payment_requirements jsonb,
  claimed_block bigint NOT NULL,
  settlement_tx_hash text,
  image_cid text,
  metadata_cid text,
  token_id numeric(78, 0),
  mint_tx_hash text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One payment authorization pays for one portrait.
CREATE UNIQUE INDEX submissions_payment_idx ON submissions (payment_from, payment_nonce) WHERE payment_from IS NOT NULL;
CREATE INDEX submissions_due_idx ON submissions (next_attempt_at) WHERE status <> 'minted';

-- Every burn transaction hash, in either role, can back one submission only. A transaction
-- carrying both transfers (gasless, referral) is claimed once with role 'both'.
CREATE TABLE tx_claims (
  tx_hash text PRIMARY KEY,
  submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('burn', 'dev', 'both'))
);

-- The uploaded portrait, kept until the NFT is minted so every step can be retried.
CREATE TABLE submission_inputs (
  submission_id uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
  image bytea NOT NULL,
  mime_type text NOT NULL
);

CREATE TABLE submission_steps (
  id bigserial PRIMARY KEY,
  submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  step text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  detail jsonb
);
CREATE INDEX submission_steps_idx ON submission_steps (submission_id, id);
