-- Facts about the service itself (e.g. which chain boot the embedded database belongs to).
CREATE TABLE service_meta (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
