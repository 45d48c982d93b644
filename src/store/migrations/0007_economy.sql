-- Gasless relays by (burner, relayer nonce): the same signature never burns twice.
CREATE TABLE gasless_relays (
  burner text NOT NULL,
  relayer_nonce numeric(78, 0) NOT NULL,
  signature text NOT NULL,
  deadline bigint NOT NULL,
  tx_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (burner, relayer_nonce)
);

-- Referral codes of agents, so a code resolves back to its agent.
CREATE TABLE referral_codes (
  code text PRIMARY KEY,
  agent text NOT NULL UNIQUE,
  mcp_endpoint text,
  description text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Early-access registrations; registering twice returns the first registration.
CREATE TABLE early_access (
  wallet text PRIMARY KEY,
  twitter text,
  tweet_url text,
  referral_code text NOT NULL UNIQUE,
  referred_by text,
  path text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
