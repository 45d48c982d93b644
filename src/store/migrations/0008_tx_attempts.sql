-- Every signed version of a stored transaction: a stuck one is replaced (same nonce, higher
-- fee), and whichever version is mined is the outcome.
ALTER TABLE chain_txs ADD COLUMN gas_limit numeric(78, 0);
ALTER TABLE chain_txs ADD COLUMN max_fee_per_gas numeric(78, 0);
ALTER TABLE chain_txs ADD COLUMN max_priority_fee_per_gas numeric(78, 0);
ALTER TABLE chain_txs ADD COLUMN broadcast_at timestamptz;
CREATE TABLE chain_tx_attempts (
  tx_hash text PRIMARY KEY,
  idempotency_key text NOT NULL REFERENCES chain_txs (idempotency_key) ON DELETE CASCADE,
  raw_tx text NOT NULL,
  max_fee_per_gas numeric(78, 0) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chain_tx_attempts_key_idx ON chain_tx_attempts (idempotency_key);
