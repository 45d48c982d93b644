-- One relay per (burner, relayer nonce), whatever the deadline: the relay that holds the nonce.
-- A new signature for the same nonce gets that relay; only once it reverted or was dropped
-- (the nonce is still unused on chain) may another relay take the nonce over.
CREATE TABLE gasless_nonces (
  burner text NOT NULL,
  relayer_nonce numeric(78, 0) NOT NULL,
  tx_key text NOT NULL,
  PRIMARY KEY (burner, relayer_nonce)
);

-- Writes on behalf of a wallet carry the wallet's signature and its time; rows written before
-- signatures were required have none, and the owner's first signed write replaces them.
ALTER TABLE early_access ADD COLUMN signature text;
ALTER TABLE early_access ADD COLUMN signed_at bigint;
ALTER TABLE referral_codes ADD COLUMN signature text;
ALTER TABLE referral_codes ADD COLUMN signed_at bigint;
