-- A gasless relay per signed message (burner, relayer nonce, deadline), not per nonce: a relay
-- that reverted leaves the relayer nonce unused, and a new signature (new deadline) for that
-- nonce must be relayable. The same message posted again still maps to the first relay.
ALTER TABLE gasless_relays DROP CONSTRAINT gasless_relays_pkey;
ALTER TABLE gasless_relays ADD PRIMARY KEY (burner, relayer_nonce, deadline);
CREATE INDEX gasless_relays_signature_idx ON gasless_relays (burner, lower(signature));
