-- The part of a redeemed burn sent to the dead address; the rest went to the fund wallet (and
-- a referral agent). tokensBurned counts the dead address's balance plus that rest, so every
-- redeemed burn counts whole (225,000), as the gallery and the chadboard count it.
ALTER TABLE submissions ADD COLUMN dead_amount_wei numeric(78, 0);
ALTER TABLE portraits ADD COLUMN dead_amount_wei numeric(78, 0);
UPDATE portraits SET dead_amount_wei = div(burn_amount_wei, 2);

-- The chadboard: one row per burner, rewritten by the transaction that records each of its
-- portraits, so the board is one indexed read instead of an aggregation over every portrait.
CREATE TABLE burner_boards (
  burner text PRIMARY KEY,
  portraits integer NOT NULL,
  burned_wei numeric(78, 0) NOT NULL,
  latest_at timestamptz NOT NULL,
  -- The 12 latest portraits, newest first: [{imageCid, timestamp, burnTxHash}], timestamp in
  -- ISO 8601 UTC as the API writes it, so a board read builds no dates.
  images jsonb NOT NULL
);
CREATE INDEX burner_boards_rank_idx ON burner_boards (portraits DESC, burned_wei DESC, latest_at DESC);

-- Totals of the stats, kept in the same transactions.
CREATE TABLE portrait_totals (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  portraits bigint NOT NULL,
  beyond_dead_wei numeric(78, 0) NOT NULL
);
INSERT INTO portrait_totals (portraits, beyond_dead_wei)
  SELECT count(*), coalesce(sum(burn_amount_wei - dead_amount_wei), 0) FROM portraits;
INSERT INTO burner_boards (burner, portraits, burned_wei, latest_at, images)
  SELECT burner, count(*), sum(burn_amount_wei), max(minted_at), '[]'::jsonb FROM portraits GROUP BY burner;
UPDATE burner_boards b SET images = coalesce((
  SELECT jsonb_agg(jsonb_build_object('imageCid', p.image_cid, 'timestamp', to_char(p.minted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'burnTxHash', p.burn_tx_hash) ORDER BY p.minted_at DESC, p.token_id DESC)
  FROM (SELECT * FROM portraits WHERE burner = b.burner ORDER BY minted_at DESC, token_id DESC LIMIT 12) p
), '[]'::jsonb);

-- A read asking for a block (minBlock) and every write look up the newest block of the
-- service's own mined transactions.
CREATE INDEX chain_txs_block_idx ON chain_txs (block_number);
