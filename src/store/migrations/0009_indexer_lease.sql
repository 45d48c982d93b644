-- One instance indexes at a time; its lease expires if it dies, and another takes over.
CREATE TABLE indexer_leases (
  name text PRIMARY KEY,
  owner text NOT NULL,
  until timestamptz NOT NULL
);
