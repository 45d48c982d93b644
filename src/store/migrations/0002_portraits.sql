-- One row per minted portrait NFT: the gallery, stats and metadata read from here.
CREATE TABLE portraits (
  token_id numeric(78, 0) PRIMARY KEY,
  burner text NOT NULL,
  burn_tx_hash text NOT NULL UNIQUE,
  dev_tx_hash text NOT NULL,
  burn_amount_wei numeric(78, 0) NOT NULL,
  image_cid text NOT NULL,
  metadata_cid text NOT NULL,
  mint_tx_hash text NOT NULL,
  source text NOT NULL,
  minted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portraits_burner_idx ON portraits (burner);
CREATE INDEX portraits_minted_at_idx ON portraits (minted_at DESC, token_id DESC);
