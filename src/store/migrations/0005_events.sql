-- Protocol events in order, so a stream client that reconnects with Last-Event-ID gets what
-- it missed, whichever instance it reconnects to.
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
