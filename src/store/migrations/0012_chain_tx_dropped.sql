-- A final state for a stored transaction whose nonce another transaction of the key used (the
-- key was used outside the service): none of its signed versions can ever be mined. The
-- sender sets it only when the key's on-chain nonce is above the transaction's and no stored
-- version has a receipt. The constraint keeps the name PostgreSQL gave the inline CHECK of 0003.
ALTER TABLE chain_txs DROP CONSTRAINT chain_txs_status_check;
ALTER TABLE chain_txs ADD CONSTRAINT chain_txs_status_check CHECK (status IN ('signed', 'broadcast', 'mined', 'reverted', 'dropped'));
