-- Where the indexer is, and recent block hashes to notice a reorg and find the fork point.
CREATE TABLE indexer_cursor (
  name text PRIMARY KEY,
  block_number bigint NOT NULL,
  block_hash text NOT NULL
);
CREATE TABLE indexed_blocks (
  number bigint PRIMARY KEY,
  hash text NOT NULL
);

-- Service-token transfers to the dead address or the fund wallet (the legs of every burn).
CREATE TABLE token_burns (
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_time timestamptz NOT NULL,
  sender text NOT NULL,
  leg text NOT NULL CHECK (leg IN ('dead', 'fund')),
  value numeric(78, 0) NOT NULL,
  PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX token_burns_block_idx ON token_burns (block_number);
CREATE INDEX token_burns_sender_idx ON token_burns (sender);

-- Every portrait-NFT transfer (mints come from the zero address) and the current owners.
CREATE TABLE nft_transfers (
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number bigint NOT NULL,
  block_time timestamptz NOT NULL,
  from_address text NOT NULL,
  to_address text NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX nft_transfers_block_idx ON nft_transfers (block_number);
CREATE INDEX nft_transfers_token_idx ON nft_transfers (token_id, block_number, log_index);

CREATE TABLE nft_owners (
  token_id numeric(78, 0) PRIMARY KEY,
  owner text NOT NULL,
  minted_block bigint NOT NULL,
  minted_at timestamptz NOT NULL
);
CREATE INDEX nft_owners_owner_idx ON nft_owners (owner);

-- A burn event reaches the stream once, whoever sees it first (the pipeline or the indexer).
ALTER TABLE events ADD COLUMN dedupe_key text UNIQUE;
