-- Every transaction the service signs with its own keys, stored before it is broadcast, so a
-- restart re-broadcasts or looks up the same transaction instead of sending another.
CREATE TABLE chain_txs (
  id bigserial PRIMARY KEY,
  sender text NOT NULL,
  nonce bigint NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  to_address text NOT NULL,
  data text NOT NULL,
  value numeric(78, 0) NOT NULL DEFAULT 0,
  raw_tx text NOT NULL,
  tx_hash text NOT NULL,
  status text NOT NULL CHECK (status IN ('signed', 'broadcast', 'mined', 'reverted')),
  block_number bigint,
  gas_used numeric(78, 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (sender, nonce)
);
CREATE INDEX chain_txs_pending_idx ON chain_txs (sender, nonce) WHERE status IN ('signed', 'broadcast');
