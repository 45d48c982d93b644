-- The DeFi activity feed (GET /api/defi/activity): token burns, staking on both venues, the
-- ranking's sends and governance events, one row per log, written by the indexer.
CREATE TABLE defi_activity (
  block_number bigint NOT NULL,
  log_index integer NOT NULL,
  tx_hash text NOT NULL,
  kind text NOT NULL,
  actor text,
  amount numeric(78, 0),
  extra jsonb NOT NULL DEFAULT '{}',
  block_time timestamptz NOT NULL,
  PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX defi_activity_block_idx ON defi_activity (block_number DESC, log_index DESC);
